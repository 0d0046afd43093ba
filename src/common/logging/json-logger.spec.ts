import { maskSecrets } from './json-logger';

describe('maskSecrets', () => {
  it('masks API keys, bearer credentials, webhook secrets and OAuth tokens, codes and client secrets', () => {
    const line = [
      'key svc_dk_M91yWYZFu3oPV7lVqvNNVyOYwzaKhlUP1Jm9M1',
      'authorization: Bearer abc.def',
      'secret whsec_c2VjcmV0+/=',
      'tokens fgat_Abc-123_x fgrt_Zz9 code fgac_q-1 client fgcs_s3cr3t',
    ].join('; ');
    const masked = maskSecrets(line);
    expect(masked).toBe(
      'key svc_dk_M91y…; authorization: Bearer [redacted] secret whsec_[redacted]; ' +
        'tokens fgat_[redacted] fgrt_[redacted] code fgac_[redacted] client fgcs_[redacted]',
    );
  });

  it('masks a bearer credential whatever the case of the scheme (the guard accepts any)', () => {
    expect(maskSecrets('authorization: bearer abc.def and BEARER ghi')).toBe(
      'authorization: bearer [redacted] and BEARER [redacted]',
    );
  });
});
