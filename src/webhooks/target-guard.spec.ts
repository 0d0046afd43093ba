import { Webhook } from 'standardwebhooks';
import { isPrivateAddress } from './target-guard';
import { sendWebhook } from './sender';
import { newSigningSecret, signatureHeader } from './signing';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true], ['10.0.0.8', true], ['172.16.5.4', true], ['172.32.0.1', false], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['8.8.8.8', false],
    ['::1', true], ['::', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:127.0.0.1', true], ['::ffff:8.8.8.8', false],
    ['2606:4700:4700::1111', false], ['not-an-ip', true],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
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
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(a).verify(body.replace('é', 'e'), headers)).toThrow();
  });
});

describe('sendWebhook refuses private targets at connect time unless allowed', () => {
  it('refuses an IP literal and a name resolving to loopback, without sending', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      const r = await sendWebhook(url, '{}', {}, { timeoutMs: 1000, allowPrivate: false });
      expect({ url, statusCode: r.statusCode, error: r.error }).toEqual({ url, statusCode: null, error: expect.stringMatching(/private, loopback or link-local/) });
    }
  });

  it('with allowPrivate the same target is tried (and here refused by the closed port)', async () => {
    const r = await sendWebhook('http://127.0.0.1:9/x', '{}', {}, { timeoutMs: 1000, allowPrivate: true });
    expect(r.statusCode).toBeNull();
    expect(r.error).not.toMatch(/private/);
  });
});
