import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeader } from './signing';

describe('signatureHeader (Standard Webhooks v1 signatures with node:crypto)', () => {
  it('equals what the standardwebhooks package signs, byte for byte, and verifies with it', () => {
    for (let i = 0; i < 20; i++) {
      const secret = newSigningSecret();
      const at = new Date(1_700_000_000_000 + i * 1_234_567);
      const body = JSON.stringify({ id: `evt_${i}`, data: { n: i, text: 'é ✓ "quoted"' } });
      expect(signatureHeader([secret], `evt_${i}`, at, body)).toBe(new Webhook(secret).sign(`evt_${i}`, at, body));
    }
    const secret = newSigningSecret();
    const now = new Date();
    const body = '{"id":"evt_x","type":"nav.published"}';
    const headers = {
      'webhook-id': 'evt_x',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader([secret], 'evt_x', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ id: 'evt_x', type: 'nav.published' });
  });

  it('signs with every live secret, in order, space separated', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const at = new Date();
    const header = signatureHeader([a, b], 'evt_y', at, '{}');
    expect(header).toBe(`${new Webhook(a).sign('evt_y', at, '{}')} ${new Webhook(b).sign('evt_y', at, '{}')}`);
  });
});
