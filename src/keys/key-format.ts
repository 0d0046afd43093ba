import { hash, randomInt } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * API key format: `svc_dk_` + 32 random base62 characters + 6 base62 characters of checksum
 * (CRC32/IEEE of the 32 random characters, left-padded with 0). The checksum lets us refuse a
 * mistyped or invented key without touching the database; only the SHA-256 of the whole key is stored.
 */
export const KEY_PREFIX = 'svc_dk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^svc_dk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** CRC-32/IEEE of the UTF-8 bytes (node:zlib's, the same polynomial and reflection as zip and PNG). */
export function crc32(text: string): number {
  return zlibCrc32(text);
}

export function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  do {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  } while (v > 0);
  return out.padStart(width, '0');
}

export function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function keyFromBody(body: string): string {
  if (!/^[0-9A-Za-z]{32}$/.test(body)) throw new Error('key body must be 32 base62 characters');
  return KEY_PREFIX + body + checksumOf(body);
}

export function generateKey(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(62)];
  return keyFromBody(body);
}

/** True when the key has the right shape and checksum. Cheap; no I/O. */
export function isWellFormedKey(key: string): boolean {
  const m = KEY_PATTERN.exec(key);
  return m !== null && checksumOf(m[1]) === m[2];
}

/** SHA-256 of the key (one-shot `crypto.hash`: on every authenticated request, a third cheaper than a Hash object). */
export function hashKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/** What may be shown about a key after creation: `svc_dk_` + first 4 of the body, and the last 4. */
export function displayParts(key: string): { displayPrefix: string; lastFour: string } {
  return { displayPrefix: key.slice(0, KEY_PREFIX.length + 4), lastFour: key.slice(-4) };
}

export const KEY_TOTAL_LENGTH = KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
