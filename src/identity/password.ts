import { randomBytes, scrypt } from 'node:crypto';
import { sameBytes } from '../common/crypto/same-bytes';

/**
 * Password hashing with scrypt from node:crypto (no native add-on to build or download; the
 * parameters are stored with each hash so they can be raised later). N=2^15, r=8, p=1: about
 * 32 MiB and ~50-100 ms per hash on one core, run on libuv's thread pool, off the event loop.
 * Stored form: `scrypt$<logN>$<r>$<p>$<salt b64url>$<hash b64url>`.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, LOG_N, R, P);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Constant-time check. A null stored hash (unknown person, or no password yet) still costs one hash. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    await derive(password, DUMMY_SALT, LOG_N, R, P);
    return false;
  }
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64url');
  const actual = await derive(password, Buffer.from(parts[4], 'base64url'), logN, r, p);
  return sameBytes(actual, expected);
}

const DUMMY_SALT = randomBytes(16);
