import { createHash } from 'node:crypto';
import { hashSecret, newSecret } from './secrets';

describe('secrets', () => {
  it('makes 256 random bits as 43 base64url characters after the prefix, never the same twice', () => {
    const a = newSecret('fgat_');
    expect(a).toMatch(/^fgat_[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(Array.from({ length: 100 }, () => newSecret())).size).toBe(100);
  });

  it('stores the SHA-256 of the secret as UTF-8', () => {
    const secret = newSecret('fgrt_');
    expect(hashSecret(secret).equals(createHash('sha256').update(secret, 'utf8').digest())).toBe(true);
    expect(hashSecret(secret).equals(hashSecret(secret + 'x'))).toBe(false);
  });
});
