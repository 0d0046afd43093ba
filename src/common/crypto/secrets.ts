import { createHash, randomBytes } from 'node:crypto';

/**
 * The one way fundgate makes and stores opaque secrets (OAuth tokens, sessions, CSRF tokens,
 * invitation and password-reset links): 256 random bits as 43 base64url characters after an optional
 * prefix naming the kind; only their SHA-256 is stored, so a lookup by hash needs no constant-time
 * compare of secrets.
 */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
