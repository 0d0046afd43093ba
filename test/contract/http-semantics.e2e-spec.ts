import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DEMO_SLUG, fundKey, seedFundsOnce } from '../fund-data/fixtures';
import { bootApp, call, type TestApp } from '../utils/app';

/** Compression, ETag/304, Cache-Control, 405 with Allow, calculator bodies (issue 14 item 3). */
describe('HTTP behaviour users expect', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await bootApp();
    await seedFundsOnce(app);
    key = await fundKey(app, DEMO_SLUG);
  });
  afterAll(() => app.close());
  const inject = (opts: Record<string, unknown>) =>
    app
      .getHttpAdapter()
      .getInstance()
      .inject(opts as never);

  it('compresses answers over 1 KB with br or gzip as asked, never small ones', async () => {
    const plain = await inject({
      method: 'GET',
      url: '/api/v1/fund/ledger/accounts',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await inject({
      method: 'GET',
      url: '/api/v1/fund/ledger/accounts',
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gz = await inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).openapi).toBe('3.1.0');
    const small = await inject({ method: 'GET', url: '/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('ETag + If-None-Match → 304 without a body on run-derived answers; a changed tag gets the answer', async () => {
    const first = await call(app, 'GET', '/api/v1/fund/nav/history', { key });
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^W\/"[\w-]{32}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await call(app, 'GET', '/api/v1/fund/nav/history', {
      key,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBeUndefined(); // RFC 9110 §15.4.5
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    const other = await call(app, 'GET', '/api/v1/fund/nav/history', {
      key,
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(other.status).toBe(200);
    const doc = await call(app, 'GET', '/api/openapi.json', {
      headers: { 'if-none-match': `"x", ${String(first.headers.etag)}` },
    });
    expect(doc.status).toBe(200);
    // one weak tag for every content coding; the tag without W/ matches too (weak comparison)
    const auth = { authorization: `Bearer ${key}` };
    const brotli = await inject({
      method: 'GET',
      url: '/api/v1/fund/nav/history',
      headers: { ...auth, 'accept-encoding': 'br' },
    });
    expect([brotli.headers['content-encoding'], brotli.headers.etag]).toEqual(['br', first.headers.etag]);
    const gzipped = await inject({
      method: 'GET',
      url: '/api/v1/fund/nav/history',
      headers: { ...auth, 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag).slice(2) },
    });
    expect(gzipped.statusCode).toBe(304);
  });

  it('live fund data and errors are Cache-Control: private, no-store, without an ETag', async () => {
    const live = await call(app, 'GET', '/api/v1/fund/positions', { key });
    expect(live.status).toBe(200);
    expect(live.headers['cache-control']).toBe('private, no-store');
    expect(live.headers.etag).toBeUndefined();
    const refused = await call(app, 'GET', '/api/v1/fund/positions');
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    // no answer is content-sniffed: data, errors, unknown paths and the docs alike
    const unknown = await inject({ method: 'GET', url: '/api/v1/nowhere' });
    const docs = await inject({ method: 'GET', url: '/api/docs' });
    for (const h of [live.headers, refused.headers, unknown.headers, docs.headers])
      expect(h['x-content-type-options']).toBe('nosniff');
  });

  it('a known path with a wrong method is 405 problem+json with Allow; an unknown path stays 404', async () => {
    const res = await call(app, 'DELETE', '/api/v1/fund/overview', { key });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json.code).toBe('method_not_allowed');
    const put = await call(app, 'PUT', '/api/v1/webhooks/7d1e0000-0000-4000-8000-000000000000', { key, body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    expect((await call(app, 'DELETE', '/api/v1/fund/nothing-here', { key })).status).toBe(404);
  });

  it('calculators take an empty JSON body as {} and refuse null, arrays and numbers naming the body', async () => {
    const empty = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(200);
    for (const body of ['null', '[]', '[{"a":1}]', '42', '"text"']) {
      const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.json.errors).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    }
  });
});
