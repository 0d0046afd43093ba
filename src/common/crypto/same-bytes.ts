import { timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two secrets or digests (strings as UTF-8); unequal lengths are unequal. */
export function sameBytes(a: Buffer | string, b: Buffer | string): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && timingSafeEqual(x, y);
}
