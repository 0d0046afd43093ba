import { Webhook } from 'standardwebhooks';
import { assertPublicTarget, isPrivateAddress } from './target-guard';
import { sendWebhook } from './sender';
import { newSigningSecret, signatureHeader } from './signing';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.0.0.8', true],
    ['172.16.5.4', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', true],
    ['2606:4700:4700::1111', false],
    ['not-an-ip', true],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('one guard for every non-public address family, however spelled', () => {
  const refused: [string, string][] = [
    ['IPv4-compatible loopback, dotted', 'http://[::127.0.0.1]:8080/'],
    ['IPv4-compatible loopback, hex', 'http://[::7f00:1]/'],
    ['IPv4-compatible metadata address', 'http://[::a9fe:a9fe]/'],
    ['IPv4-compatible private', 'http://[::10.0.0.1]/'],
    ['IPv4-compatible public (deprecated form)', 'http://[::8.8.8.8]/'],
    ['6to4 of the metadata address', 'http://[2002:a9fe:a9fe::]/'],
    ['6to4 of a public address', 'http://[2002:808:808::1]/'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['NAT64 well-known prefix', 'http://[64:ff9b::7f00:1]/'],
    ['NAT64 well-known prefix, dotted', 'http://[64:ff9b::169.254.169.254]/'],
    ['NAT64 local-use prefix', 'http://[64:ff9b:1::a00:1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped, hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-translated (SIIT)', 'http://[::ffff:0:7f00:1]/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 loopback, long form', 'http://[0:0:0:0:0:0:0:1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 site-local (deprecated)', 'http://[fec0::1]/'],
    ['IPv6 unique local', 'http://[fd12:3456::1]/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['IPv6 documentation', 'http://[2001:db8::1]/'],
    ['IPv6 documentation (RFC 9637)', 'http://[3fff::1]/'],
    ['IPv6 benchmarking', 'http://[2001:2::1]/'],
    ['IPv6 ORCHIDv2', 'http://[2001:20::1]/'],
    ['IPv6 discard-only', 'http://[100::1]/'],
    ['IPv4 loopback', 'http://127.0.0.1/'],
    ['IPv4 loopback, decimal integer', 'http://2130706433/'],
    ['IPv4 loopback, hex', 'http://0x7f.0.0.1/'],
    ['IPv4 loopback, octal', 'http://0177.0.0.1/'],
    ['IPv4 loopback, short', 'http://127.1/'],
    ['IPv4 unspecified', 'http://0.0.0.0/'],
    ['IPv4 private 10/8', 'http://10.1.2.3/'],
    ['IPv4 private 172.16/12', 'http://172.31.255.255/'],
    ['IPv4 private 192.168/16', 'http://192.168.0.1/'],
    ['IPv4 link-local (metadata)', 'http://169.254.169.254/'],
    ['IPv4 CGNAT', 'http://100.100.100.200/'],
    ['IPv4 multicast', 'http://239.1.1.1/'],
    ['IPv4 broadcast', 'http://255.255.255.255/'],
    ['IPv4 reserved 240/4', 'http://240.0.0.1/'],
    ['IPv4 documentation TEST-NET-1', 'http://192.0.2.1/'],
    ['IPv4 documentation TEST-NET-2', 'http://198.51.100.1/'],
    ['IPv4 documentation TEST-NET-3', 'http://203.0.113.1/'],
    ['IPv4 benchmarking', 'http://198.18.0.1/'],
    ['IPv4 IETF protocol assignments', 'http://192.0.0.8/'],
    ['IPv4 6to4 relay anycast', 'http://192.88.99.1/'],
  ];
  it.each(refused)('%s: %s is refused at registration', async (_name, raw) => {
    const url = new URL(raw);
    expect(isPrivateAddress(url.hostname)).toBe(true);
    await expect(assertPublicTarget(url, false)).rejects.toThrow(/private, loopback or link-local/);
  });

  it.each(refused.filter(([, raw]) => raw.includes('[')).slice(0, 6))(
    '%s: %s is refused at delivery without a connection',
    async (_name, raw) => {
      const r = await sendWebhook(raw, '{}', {}, { timeoutMs: 500, allowPrivate: false });
      expect(r.statusCode).toBeNull();
      expect(r.error).toMatch(/private, loopback or link-local/);
    },
  );

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['[2001:4860:4860::8888]'],
  ])('public %s passes', (a) => {
    expect(isPrivateAddress(a)).toBe(false);
  });

  it('garbage is refused', () => {
    for (const a of ['', 'localhost', '1.2.3', '::g', '1.2.3.4.5', 'fe80::1%eth0x'])
      expect(isPrivateAddress(a)).toBe(true);
  });

  it('WEBHOOK_ALLOW_PRIVATE lets private targets through (tests and private deployments)', async () => {
    await expect(assertPublicTarget(new URL('http://[::7f00:1]/'), true)).resolves.toBeUndefined();
  });
});

describe('signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const s = newSigningSecret();
    expect(s).toMatch(/^whsec_/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
  });

  it('signs id.timestamp.body with every live secret, space separated, each verifiable', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const at = new Date();
    const body = '{"id":"evt_1","data":{"x":"é"}}';
    const header = signatureHeader([a, b], 'evt_1', at, body);
    expect(header.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': header,
    };
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(a).verify(body.replace('é', 'e'), headers)).toThrow();
  });
});

describe('sendWebhook refuses private targets at connect time unless allowed', () => {
  it('refuses an IP literal and a name resolving to loopback, without sending', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      const r = await sendWebhook(url, '{}', {}, { timeoutMs: 1000, allowPrivate: false });
      expect({ url, statusCode: r.statusCode, error: r.error }).toEqual({
        url,
        statusCode: null,
        error: expect.stringMatching(/private, loopback or link-local/),
      });
    }
  });

  it('with allowPrivate the same target is tried (and here refused by the closed port)', async () => {
    const r = await sendWebhook('http://127.0.0.1:9/x', '{}', {}, { timeoutMs: 1000, allowPrivate: true });
    expect(r.statusCode).toBeNull();
    expect(r.error).not.toMatch(/private/);
  });
});
