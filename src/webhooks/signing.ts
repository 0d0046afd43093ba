import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks secret format). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header: one `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per live
 * secret, space separated (the previous secret keeps signing during its overlap window).
 */
export function signatureHeader(secrets: string[], eventId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' ');
}
