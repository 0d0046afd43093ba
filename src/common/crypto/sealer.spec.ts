import { randomBytes } from 'node:crypto';
import { developmentKeyRing, parseKeyRing, SecretSealer } from './sealer';

const k = () => randomBytes(32).toString('base64');

describe('SecretSealer', () => {
  it('round-trips and never stores the plaintext', () => {
    const sealer = new SecretSealer(developmentKeyRing());
    const sealed = sealer.seal('whsec_topsecret');
    expect(sealed).not.toContain('topsecret');
    expect(sealer.isSealed(sealed)).toBe(true);
    expect(sealer.unseal(sealed)).toBe('whsec_topsecret');
    expect(sealer.seal('x')).not.toBe(sealer.seal('x'));
  });

  it('opens values sealed under an older key of the ring and seals under the first', () => {
    const old = parseKeyRing(`old:${k()}`);
    const sealedOld = new SecretSealer(old).seal('abc');
    const rotated = new SecretSealer([...parseKeyRing(`new:${k()}`), ...old]);
    expect(rotated.unseal(sealedOld)).toBe('abc');
    expect(rotated.needsReseal(sealedOld)).toBe(true);
    expect(rotated.needsReseal(rotated.seal('abc'))).toBe(false);
  });

  it('refuses tampered values and unknown keys', () => {
    const sealer = new SecretSealer(parseKeyRing(`a:${k()}`));
    const parts = sealer.seal('abc').split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    expect(() => sealer.unseal([...parts.slice(0, 4), flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => sealer.unseal(['v1', 'b', ...parts.slice(2)].join('.'))).toThrow(/not in the ring/);
    expect(() => sealer.unseal(['v1', 'a', ...parts.slice(2)].join('.').replace('v1.a', 'v1.a'))).not.toThrow();
  });

  it('parses key rings and names what is wrong', () => {
    expect(() => parseKeyRing('')).toThrow(/at least one/);
    expect(() => parseKeyRing('a:short')).toThrow(/32 bytes/);
    expect(() => parseKeyRing(`a:${k()},a:${k()}`)).toThrow(/twice/);
    expect(() => parseKeyRing(`bad id:${k()}`)).toThrow(/bad key id/);
  });
});
