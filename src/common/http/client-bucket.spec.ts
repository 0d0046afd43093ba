import { clientBucket } from './client-bucket';

describe('clientBucket', () => {
  it('counts an IPv4 address as itself, also when it arrives IPv4-mapped', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is spelled', () => {
    const bucket = '2001:db8:85a3:8d3::/64';
    expect(clientBucket('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(bucket);
    expect(clientBucket('2001:0db8:85a3:08d3::1')).toBe(bucket);
    expect(clientBucket('2001:DB8:85A3:8D3:FFFF:FFFF:FFFF:FFFF')).toBe(bucket);
    expect(clientBucket('2001:db8:85a3:8d4::1')).not.toBe(bucket);
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps text that is not an address as it is', () => {
    expect(clientBucket('unknown')).toBe('unknown');
    expect(clientBucket('')).toBe('');
  });
});
