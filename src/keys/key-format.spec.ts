import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  checksumOf,
  crc32,
  generateKey,
  hashKey,
  isWellFormedKey,
  keyFromBody,
  KEY_TOTAL_LENGTH,
  displayParts,
} from './key-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.split('');
const body = fc.array(fc.constantFrom(...BASE62), { minLength: 32, maxLength: 32 }).map((a) => a.join(''));

describe('key format', () => {
  it('CRC32 matches the IEEE check value', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  it('generated keys are well formed, prefixed and of fixed length', () => {
    for (let i = 0; i < 2000; i++) {
      const k = generateKey();
      expect(k.startsWith('svc_dk_')).toBe(true);
      expect(k).toHaveLength(KEY_TOTAL_LENGTH);
      expect(isWellFormedKey(k)).toBe(true);
    }
  });

  it('every body round-trips through its checksum (property)', () => {
    fc.assert(
      fc.property(body, (b) => isWellFormedKey(keyFromBody(b)) && keyFromBody(b).slice(39) === checksumOf(b)),
      { numRuns: 5000 },
    );
  });

  it('any single-character change in the body is caught by the checksum (property)', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 31 }), fc.constantFrom(...BASE62), (b, i, c) => {
        fc.pre(b[i] !== c);
        const key = keyFromBody(b);
        const mutated = key.slice(0, 7 + i) + c + key.slice(8 + i);
        return !isWellFormedKey(mutated);
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects wrong prefix, length and alphabet', () => {
    const k = generateKey();
    expect(isWellFormedKey(k.replace('svc_dk_', 'svc_xx_'))).toBe(false);
    expect(isWellFormedKey(k + 'a')).toBe(false);
    expect(isWellFormedKey(k.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(k.slice(0, 10) + '-' + k.slice(11))).toBe(false);
  });

  it('hashes with SHA-256 and shows only a prefix and the last four', () => {
    const k = keyFromBody('abcdEFGH'.repeat(4));
    expect(hashKey(k).toString('hex')).toBe(createHash('sha256').update(k).digest('hex'));
    expect(hashKey(k)).toHaveLength(32);
    expect(displayParts(k)).toEqual({ displayPrefix: 'svc_dk_abcd', lastFour: k.slice(-4) });
  });
});
