import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, TOTP secrets) are sealed with AES-256-GCM under a key
 * ring from config (`SECRETS_KEY`). The first key seals; every key in the ring can open, so a key
 * can be rotated by putting the new one first and re-sealing at leisure. Sealed form (ASCII):
 * `v1.<kid>.<iv>.<tag>.<ciphertext>`, the last three base64url. The key id is authenticated as
 * additional data, so a sealed value cannot be replayed under another key id.
 */
export interface SealingKey {
  id: string;
  key: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** The development ring (no SECRETS_KEY set): fixed and public; production refuses to start with it. */
export const DEVELOPMENT_KEY_ID = 'dev';

export function developmentKeyRing(): SealingKey[] {
  return [{ id: DEVELOPMENT_KEY_ID, key: createHash('sha256').update('fundgate development sealing key').digest() }];
}

/** Parses `kid:base64key[,kid:base64key...]` (each key 32 bytes); throws a message naming the problem. */
export function parseKeyRing(raw: string): SealingKey[] {
  const ring = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const sep = part.indexOf(':');
      if (sep < 1) throw new Error('must be a comma list of kid:base64key');
      const id = part.slice(0, sep);
      const key = Buffer.from(part.slice(sep + 1), 'base64');
      if (!KEY_ID.test(id)) throw new Error(`has a bad key id "${id}" (1-32 of A-Z a-z 0-9 _ -)`);
      if (key.length !== 32) throw new Error(`key "${id}" must be 32 bytes, base64-encoded`);
      return { id, key };
    });
  if (ring.length === 0) throw new Error('must name at least one key');
  if (new Set(ring.map((k) => k.id)).size !== ring.length) throw new Error('names a key id twice');
  return ring;
}

export class SecretSealer {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly ring: readonly SealingKey[]) {
    if (ring.length === 0) throw new Error('SecretSealer needs at least one key');
    this.byId = new Map(ring.map((k) => [k.id, k.key]));
  }

  /** The id of the key new values are sealed under. */
  get activeKeyId(): string {
    return this.ring[0].id;
  }

  seal(plaintext: string): string {
    const { id, key } = this.ring[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(`v1.${id}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      id,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  unseal(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') throw new Error('not a sealed secret');
    const key = this.byId.get(parts[1]);
    if (!key) throw new Error(`sealed under key "${parts[1]}", which is not in the ring`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[2], 'base64url'));
    decipher.setAAD(Buffer.from(`v1.${parts[1]}`));
    decipher.setAuthTag(Buffer.from(parts[3], 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(parts[4], 'base64url')), decipher.final()]).toString('utf8');
  }

  isSealed(value: string): boolean {
    return /^v1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
  }

  /** True when the value was sealed under a key other than the active one (re-seal it). */
  needsReseal(sealed: string): boolean {
    return sealed.split('.')[1] !== this.activeKeyId;
  }
}
