import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from '../../sdk/typescript/src/index';
import { newSigningSecret, signatureHeader } from '../../src/webhooks/signing';
import { bootApp, call, createFund, mintKey, type TestApp, uniqueName } from '../utils/app';
import { isolatedDatabase } from '../webhooks/isolated-db';
import { type Received, startReceiver } from '../webhooks/receiver';

/**
 * The SDKs' webhook verifiers (TypeScript verifyWebhook, Python verify_webhook): against fundgate's own
 * signer and the standardwebhooks package, case by case (all three must agree), then on real deliveries
 * from a running fundgate.
 */
jest.setTimeout(120_000);
const run = promisify(execFile);

interface Case {
  name: string;
  secret: string;
  headers: Record<string, string>;
  body: Buffer;
  now: number; // Unix seconds the verifiers judge the timestamp by
  /** How the TypeScript verifier gets headers and body, and the Python one (see python_webhook_check.py). */
  as?: 'dict' | 'mapping' | 'pairs' | 'message' | 'str';
}
type Verdict = { name: string; ok: true; event: unknown } | { name: string; ok: false; code: string; message: string };

async function viaTypeScript(c: Case): Promise<Verdict> {
  const headers: WebhookHeaders = c.as === 'mapping' ? new Headers(c.headers) : c.headers;
  const body = c.as === 'str' ? c.body.toString('utf8') : c.as === 'pairs' ? new Uint8Array(c.body).buffer : c.body;
  try {
    return { name: c.name, ok: true, event: await verifyWebhook(c.secret, headers, body, { now: new Date(c.now * 1000) }) };
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError);
    const err = e as WebhookVerificationError;
    return { name: c.name, ok: false, code: err.code, message: err.message };
  }
}

async function viaPython(cases: Case[]): Promise<Verdict[]> {
  const arg = cases.map((c) => ({ ...c, body: c.body.toString('base64') }));
  const { stdout } = await run('python3', [join(__dirname, 'python_webhook_check.py'), JSON.stringify(arg)], { timeout: 60_000 });
  return JSON.parse(stdout) as Verdict[];
}

/** The standardwebhooks package's verdict, its clock set to the case's. */
function viaStandardWebhooks(c: Case): boolean {
  const clock = jest.spyOn(Date, 'now').mockReturnValue(c.now * 1000);
  try {
    new Webhook(c.secret).verify(c.body, c.headers);
    return true;
  } catch {
    return false;
  } finally {
    clock.mockRestore();
  }
}

const headersOf = (id: string, at: number, signature: string) => ({
  'webhook-id': id,
  'webhook-timestamp': String(at),
  'webhook-signature': signature,
});

describe('SDK webhook verifiers (TypeScript and Python) against fundgate signatures and standardwebhooks', () => {
  const secret = newSigningSecret();
  const other = newSigningSecret();
  const now = Math.floor(Date.now() / 1000);
  const event = { id: 'evt_sdk', type: 'webhook.test', createdAt: new Date(now * 1000).toISOString(), fundId: 'f', data: { note: 'é ✓ "q"' } };
  const body = Buffer.from(JSON.stringify(event));
  const signed = (at: number, secrets = [secret], raw = body) => headersOf(event.id, at, signatureHeader(secrets, event.id, new Date(at * 1000), raw.toString('utf8')));
  const base = { secret, body, now };
  const valid = signed(now);
  const fundgateSig = valid['webhook-signature'];

  const accepted: Case[] = [
    { ...base, name: "fundgate's signer", headers: valid },
    { ...base, name: 'standardwebhooks signer', headers: headersOf(event.id, now, new Webhook(secret).sign(event.id, new Date(now * 1000), body.toString('utf8'))) },
    { ...base, name: '300 s old (the edge)', headers: signed(now - 300) },
    { ...base, name: '300 s ahead (the edge)', headers: signed(now + 300) },
    { ...base, name: 'rotation: only the second signature matches', headers: signed(now, [other, secret]) },
    { ...base, name: 'rotation: a garbage v1 first', headers: { ...valid, 'webhook-signature': `v1,AAAA ${fundgateSig}` } },
    { ...base, name: 'non-v1 entries are skipped', headers: { ...valid, 'webhook-signature': `v2,${fundgateSig.slice(3)} v1a,x ${fundgateSig}` } },
    { ...base, name: 'header names in any case', headers: { 'Webhook-Id': event.id, 'WEBHOOK-TIMESTAMP': String(now), 'Webhook-Signature': fundgateSig } },
    // the same deliveries handed over differently: Headers / read-only Mapping with a datetime, ArrayBuffer / ASGI pairs,
    // string bodies, an email.message.Message (a plain record for TypeScript)
    { ...base, name: 'Headers object; Mapping and datetime', headers: { 'Webhook-Id': event.id, 'webhook-timestamp': String(now), 'webhook-signature': fundgateSig }, as: 'mapping' },
    { ...base, name: 'ArrayBuffer body; (bytes, bytes) pairs', headers: valid, as: 'pairs' },
    { ...base, name: 'string body', headers: valid, as: 'str' },
    { ...base, name: "http.server's headers (a Message)", headers: { 'Webhook-Id': event.id, 'Webhook-Timestamp': String(now), 'Webhook-Signature': fundgateSig }, as: 'message' },
    { ...base, name: 'secret without whsec_', secret: secret.slice('whsec_'.length), headers: valid },
  ];
  const refused: Array<Case & { code: string }> = [
    { ...base, name: 'tampered body', body: Buffer.from(body.toString('utf8').replace('webhook.test', 'webhook.tesT')), headers: valid, code: 'no_matching_signature' },
    { ...base, name: 'body re-serialized', body: Buffer.from(JSON.stringify(event, null, 1)), headers: valid, code: 'no_matching_signature' },
    { ...base, name: 'wrong secret', secret: other, headers: valid, code: 'no_matching_signature' },
    { ...base, name: 'another event id', headers: { ...valid, 'webhook-id': 'evt_other' }, code: 'no_matching_signature' },
    { ...base, name: '301 s old', headers: signed(now - 301), code: 'timestamp_too_old' },
    { ...base, name: '301 s ahead', headers: signed(now + 301), code: 'timestamp_too_new' },
    { ...base, name: 'a right signature under v2 only', headers: { ...valid, 'webhook-signature': `v2,${fundgateSig.slice(3)}` }, code: 'no_matching_signature' },
    { ...base, name: 'no webhook-signature', headers: { 'webhook-id': event.id, 'webhook-timestamp': String(now) }, code: 'missing_header' },
    { ...base, name: 'no webhook-id', headers: { 'webhook-timestamp': String(now), 'webhook-signature': fundgateSig }, code: 'missing_header' },
    { ...base, name: 'timestamp not seconds', headers: { ...valid, 'webhook-timestamp': `${now}.5` }, code: 'invalid_header' },
    { ...base, name: 'malformed secret', secret: 'whsec_not base64!', headers: valid, code: 'invalid_secret' },
    { ...base, name: 'empty secret', secret: 'whsec_', headers: valid, code: 'invalid_secret' },
    { ...base, name: 'a signed JSON array, not an event object', body: Buffer.from('[1,2]'), headers: signed(now, [secret], Buffer.from('[1,2]')), code: 'invalid_body' },
  ];

  it('accept and refuse the same deliveries as each other and as standardwebhooks, with the same codes', async () => {
    const cases = [...accepted, ...refused];
    const ts = await Promise.all(cases.map(viaTypeScript));
    const py = await viaPython(cases);
    const expected = [
      ...accepted.map((c) => ({ name: c.name, ok: true, event })),
      ...refused.map((c) => ({ name: c.name, ok: false, code: c.code, message: expect.any(String) })),
    ];
    expect(ts).toEqual(expected);
    expect(py).toEqual(expected);
    // standardwebhooks agrees on every case it can be given (it has no Headers or ArrayBuffer input, no pairs),
    // but two: it reads webhook-timestamp with parseInt and signs the integer, so "<now>.5" passes there, and
    // it answers any signed JSON, where an event is an object
    const lenient = ['timestamp not seconds', 'a signed JSON array, not an event object'];
    const sw = cases.filter((c) => !c.as).map((c) => ({ name: c.name, ok: viaStandardWebhooks(c) }));
    expect(sw).toEqual(cases.filter((c) => !c.as).map((c) => ({ name: c.name, ok: !refused.includes(c as never) || lenient.includes(c.name) })));
  });

  it('a Fetch Headers with the signature header repeated (joined with ", ") verifies on its first signature', async () => {
    const headers = new Headers({ 'webhook-id': event.id, 'webhook-timestamp': String(now) });
    headers.append('webhook-signature', fundgateSig);
    headers.append('webhook-signature', signed(now, [other])['webhook-signature']);
    expect(headers.get('webhook-signature')).toContain(', ');
    await expect(verifyWebhook(secret, headers, body, { now: new Date(now * 1000) })).resolves.toEqual(event);
  });

  it('errors say why without showing the secret; bad arguments are TypeErrors', async () => {
    const ts = await Promise.all(refused.map(viaTypeScript));
    const py = await viaPython(refused);
    const message = (verdicts: Verdict[], name: string) => (verdicts.find((v) => v.name === name) as { message: string }).message;
    for (const verdicts of [ts, py]) {
      expect(message(verdicts, '301 s old')).toMatch(/301 s old, more than the 300 s/);
      expect(message(verdicts, '301 s ahead')).toMatch(/301 s ahead/);
      expect(message(verdicts, 'no webhook-id')).toMatch(/missing webhook-id/);
      expect(message(verdicts, 'malformed secret')).not.toContain('not base64!');
      expect(message(verdicts, 'tampered body')).toMatch(/raw bytes/);
    }
    const nowDate = new Date(now * 1000);
    await expect(verifyWebhook(secret, valid, JSON.parse(body.toString()) as never, { now: nowDate })).rejects.toBeInstanceOf(TypeError);
    await expect(verifyWebhook(secret, valid, body, { now: nowDate, toleranceSeconds: -1 })).rejects.toBeInstanceOf(TypeError);
    // an invalid Date as the clock fails closed (NaN comparisons would accept a delivery of any age), as Python's ValueError
    const ancient = signed(now - 10 * 365 * 86_400);
    for (const bad of [new Date('garbage'), new Date(Number.NaN), 'now' as unknown as Date])
      await expect(verifyWebhook(secret, ancient, body, { now: bad })).rejects.toThrow(/now must be a valid Date/);
    // a wider tolerance accepts what the default refuses; the default clock is the current time
    await expect(verifyWebhook(secret, signed(now - 301), body, { now: nowDate, toleranceSeconds: 600 })).resolves.toEqual(event);
    await expect(verifyWebhook(secret, signed(Math.floor(Date.now() / 1000)), body)).resolves.toEqual(event);
    // a repeated header: signatures are pooled, ids must agree
    await expect(verifyWebhook(secret, { ...valid, 'webhook-signature': ['v1,AAAA', fundgateSig] }, body, { now: nowDate })).resolves.toEqual(event);
    const twoIds = { ...valid, 'webhook-id': undefined, 'Webhook-Id': event.id, 'webhook-ID': 'evt_other' };
    await expect(verifyWebhook(secret, twoIds, body, { now: nowDate })).rejects.toMatchObject({ code: 'invalid_header' });
  });

  it('a random secret and body, 20 times: fundgate signs, both SDKs verify; standardwebhooks signs, both SDKs verify', async () => {
    const cases: Case[] = [];
    for (let i = 0; i < 20; i++) {
      const s = newSigningSecret();
      const raw = Buffer.from(JSON.stringify({ id: `evt_${i}`, n: randomBytes(8).toString('hex'), text: 'ü€😀' }));
      const at = new Date((now - i) * 1000);
      cases.push({ name: `fundgate ${i}`, secret: s, body: raw, now, headers: headersOf(`evt_${i}`, now - i, signatureHeader([s], `evt_${i}`, at, raw.toString('utf8'))) });
      cases.push({ name: `standardwebhooks ${i}`, secret: s, body: raw, now, headers: headersOf(`evt_${i}`, now - i, new Webhook(s).sign(`evt_${i}`, at, raw.toString('utf8'))) });
    }
    const py = await viaPython(cases);
    const ts = await Promise.all(cases.map(viaTypeScript));
    const expected = cases.map((c) => ({ name: c.name, ok: true, event: JSON.parse(c.body.toString('utf8')) }));
    expect(ts).toEqual(expected);
    expect(py).toEqual(expected);
  });
});

describe('SDK webhook verifiers on real deliveries from a running fundgate (e2e, real receiver)', () => {
  let app: TestApp;
  let manager: string;
  let fundId: string;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    app = await bootApp({}, { DATABASE_URL: await isolatedDatabase('sdkwh'), WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
    const fund = await createFund(app);
    fundId = fund.id;
    manager = (await mintKey(app, { scopes: ['webhooks:manage'], fund: fund.slug, account: uniqueName('whmgr'), plan: 'platform' })).key;
    rx = await startReceiver();
  });
  afterAll(async () => {
    await app?.close();
    await rx?.close();
  });

  /** One delivery as a receiving endpoint has it: Node's headers and the raw body bytes. */
  const verifyBoth = async (secret: string, r: Received) => {
    const raw = Buffer.from(r.body, 'utf8');
    const ts = await verifyWebhook(secret, r.headers, raw).then(
      (e) => ({ ok: true, event: e }),
      (e: WebhookVerificationError) => ({ ok: false, code: e.code }),
    );
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith('webhook-'))) as Record<string, string>;
    const [py] = await viaPython([{ name: 'delivery', secret, headers, body: raw, now: Math.floor(Date.now() / 1000) }]);
    return { ts, py: py.ok ? { ok: true, event: py.event } : { ok: false, code: py.code } };
  };

  it('POST /webhooks/{id}/test: both SDKs verify the delivery and answer the event; after a rotation both secrets verify, a wrong one does not', async () => {
    const sub = await call(app, 'POST', '/api/v1/webhooks', { key: manager, body: { url: rx.url, eventTypes: ['nav.published'] } });
    expect(sub.status).toBe(201);
    const { id, signingSecret } = sub.json as { id: string; signingSecret: string };
    const sent = await call(app, 'POST', `/api/v1/webhooks/${id}/test`, { key: manager });
    expect(sent.status).toBe(202);
    await rx.waitFor(1);
    const expected = { ok: true, event: expect.objectContaining({ id: sent.json.eventId, type: 'webhook.test', fundId }) };
    expect(await verifyBoth(signingSecret, rx.received[0])).toEqual({ ts: expected, py: expected });

    const rotated = await call(app, 'POST', `/api/v1/webhooks/${id}/rotate-secret`, { key: manager });
    expect(rotated.status).toBe(200);
    const again = await call(app, 'POST', `/api/v1/webhooks/${id}/test`, { key: manager });
    expect(again.status).toBe(202);
    await rx.waitFor(2);
    const delivery = rx.received[1];
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const second = { ok: true, event: expect.objectContaining({ id: again.json.eventId, type: 'webhook.test' }) };
    expect(await verifyBoth(rotated.json.signingSecret, delivery)).toEqual({ ts: second, py: second });
    expect(await verifyBoth(signingSecret, delivery)).toEqual({ ts: second, py: second });
    const refused = { ok: false, code: 'no_matching_signature' };
    expect(await verifyBoth(newSigningSecret(), delivery)).toEqual({ ts: refused, py: refused });
    const tampered = { ...delivery, body: delivery.body.replace('webhook.test', 'webhook.tesT') };
    expect(await verifyBoth(rotated.json.signingSecret, tampered)).toEqual({ ts: refused, py: refused });
  });
});
