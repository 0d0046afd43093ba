import { base32Decode, base32Encode, hotp, matchTotp } from './totp';

describe('TOTP (RFC 6238 / RFC 4226)', () => {
  const rfcSecret = Buffer.from('12345678901234567890');

  it('matches the RFC 4226 HOTP test vectors', () => {
    expect([0, 1, 2, 3, 9].map((c) => hotp(rfcSecret, c))).toEqual(['755224', '287082', '359152', '969429', '520489']);
  });

  it('matches the RFC 6238 SHA-1 vectors (last 6 digits)', () => {
    const b32 = base32Encode(rfcSecret);
    expect(matchTotp(b32, '287082', 59_000)).toBe(1);
    expect(matchTotp(b32, '081804', 1_111_111_109_000)).not.toBeNull();
  });

  it('accepts ±1 step and refuses older codes', () => {
    const b32 = base32Encode(rfcSecret);
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(b32, hotp(rfcSecret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(b32, hotp(rfcSecret, step + 1), now)).toBe(step + 1);
    expect(matchTotp(b32, hotp(rfcSecret, step - 2), now)).toBeNull();
    expect(matchTotp(b32, 'abcdef', now)).toBeNull();
  });

  it('base32 round-trips', () => {
    const b = Buffer.from('any bytes at all!');
    expect(base32Decode(base32Encode(b))).toEqual(b);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });
});
