import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks secret format). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header: one `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per live
 * secret, space separated (the previous secret keeps signing during its overlap window). The key
 * is the base64 after `whsec_` (Standard Webhooks); node:crypto's HMAC computes what the
 * standardwebhooks package's pure-JS one does (signing.spec.ts checks them against each other).
 */
export function signatureHeader(secrets: string[], eventId: string, at: Date, body: string): string {
  const signed = `${eventId}.${Math.floor(at.getTime() / 1000)}.${body}`;
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s, 'base64');
      return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
    })
    .join(' ');
}
