import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { FundgateClient, FundgateError, SDK_VERSION } from '../../sdk/typescript/src/index';

/**
 * The SDKs' transport on its own: scripted answers from an injected fetch or a local http server, no
 * fundgate service. (sdk.e2e-spec.ts checks both SDKs against the real service.)
 */
const run = promisify(execFile);
const expense = { category: 'legal' as const, vendor: 'v', amount: '1.00', accrualDate: '2026-01-01', description: 'd' };

type Answer = { status: number; headers?: Record<string, string>; body?: string };
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  raw: string[];
  at: number;
}

/** A local HTTP server answering from a script (the last answer repeats); records every request it gets. */
async function scripted(answers: Answer[]): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers as Record<string, string>, raw: req.rawHeaders, at: Date.now() });
      const a = answers.length > 1 ? answers.shift()! : answers[0];
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An injected fetch answering from a script; records the headers of every call. */
function fakeFetch(answers: Array<() => Response>): { fetch: typeof fetch; calls: { init: RequestInit; at: number }[] } {
  const calls: { init: RequestInit; at: number }[] = [];
  const f = (async (_url: string, init: RequestInit) => {
    calls.push({ init, at: Date.now() });
    return (answers.length > 1 ? answers.shift()! : answers[0])();
  }) as unknown as typeof fetch;
  return { fetch: f, calls };
}

/** python_transport_check.py's report, run once for the Python tests below. */
let pythonReport: Promise<Record<string, unknown>> | undefined;
const pythonTransport = (): Promise<Record<string, unknown>> =>
  (pythonReport ??= run('python3', [join(__dirname, 'python_transport_check.py')], { timeout: 120_000 }).then(({ stdout }) => JSON.parse(stdout) as Record<string, unknown>));

const failure = (p: Promise<unknown>): Promise<unknown> => p.then(() => null, (e: unknown) => e);
const thrown = (f: () => unknown): unknown => {
  try {
    f();
    return null;
  } catch (e) {
    return e;
  }
};

describe('TypeScript SDK transport (scripted answers, no service)', () => {
  it('a key read from a file (trailing newline) is trimmed; a key with a control character or an inner space is refused without showing it', async () => {
    const server = await scripted([{ status: 200, body: '{"ok":true}' }]);
    try {
      for (const key of ['svc_dk_secret1\n', 'svc_dk_secret1\r\n', '  svc_dk_secret1\t']) {
        await new FundgateClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 }).getOverview();
      }
      expect(server.seen.map((s) => s.headers.authorization)).toEqual(Array(3).fill('Bearer svc_dk_secret1'));
      for (const key of ['svc_dk_sec\nret2', 'svc_dk_sec\r\nret2', 'svc_dk_sec\0ret2', 'svc_dk_sec ret2', 'svc_dk_sec\u20acret2']) {
        const e = thrown(() => new FundgateClient({ apiKey: key, baseUrl: server.url }));
        expect(e).toBeInstanceOf(TypeError);
        expect((e as Error).message).toMatch(/apiKey/);
        expect((e as Error).message).not.toMatch(/svc_dk|ret2/);
      }
      expect(server.seen).toHaveLength(3); // nothing was sent with a refused key
    } finally {
      await server.close();
    }
  });

  it('an abort while waiting between retries rejects at once, not after the Retry-After', async () => {
    const { fetch, calls } = fakeFetch([() => new Response('{"code":"rate_limited"}', { status: 429, headers: { 'retry-after': '5' } })]);
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch, maxRetries: 2 });
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 100);
    const e = await failure(c.getOverview({ signal: ac.signal }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect((e as Error).name).toBe('AbortError');
    expect(calls).toHaveLength(1);
    // an abort during the backoff after a network error too; an already aborted signal sends nothing
    const broken = fakeFetch([() => Promise.reject(new TypeError('fetch failed')) as unknown as Response]);
    const n = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: broken.fetch, maxRetries: 5, maxRetryAfterMs: 60_000 });
    const ac2 = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac2.abort(new Error('stop')), 60);
    expect(((await failure(n.getOverview({ signal: ac2.signal }))) as Error).message).toBe('stop');
    expect(Date.now() - t0).toBeLessThan(1000);
    const before = broken.calls.length;
    expect(((await failure(n.getOverview({ signal: ac2.signal }))) as Error).message).toBe('stop');
    expect(broken.calls.length).toBe(before);
  });

  it('headers are merged case-insensitively: the SDK keeps Authorization, Idempotency-Key and Accept; a User-Agent goes before its own', async () => {
    const server = await scripted([{ status: 201, body: '{"id":"p1"}' }]);
    try {
      const c = new FundgateClient({
        apiKey: 'svc_dk_mine',
        baseUrl: server.url,
        headers: { 'User-Agent': 'myapp/1.0', Authorization: 'Bearer other', 'Idempotency-Key': 'fixed', ACCEPT: 'text/html', 'X-Trace': 't1' },
      });
      await c.proposeExpense(expense);
      await c.proposeExpense(expense, { idempotencyKey: 'call-key' });
      await c.getOverview();
      const [first, second, read] = server.seen;
      expect(first.headers['user-agent']).toBe(`myapp/1.0 fundgate-typescript/${SDK_VERSION}`);
      expect(first.headers.authorization).toBe('Bearer svc_dk_mine');
      expect(first.headers.accept).toBe('application/json, application/problem+json');
      expect(first.headers['x-trace']).toBe('t1');
      expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers['idempotency-key']).toBe('call-key');
      expect(read.headers['idempotency-key']).toBeUndefined();
      // each header once: no "a, b" joins of two spellings
      const names = first.raw.filter((_v, i) => i % 2 === 0).map((n) => n.toLowerCase());
      expect(names.length).toBe(new Set(names).size);
      expect(thrown(() => new FundgateClient({ apiKey: 'k', headers: { 'X-Bad': 'a\r\nb' } }))).toBeInstanceOf(TypeError);
      expect(thrown(() => new FundgateClient({ apiKey: 'k', headers: { 'bad name': 'a' } }))).toBeInstanceOf(TypeError);
    } finally {
      await server.close();
    }
  });

  it('a redirect is not followed: a 302 to another origin is a FundgateError, and the other origin gets nothing', async () => {
    const elsewhere = await scripted([{ status: 200, body: '{"stolen":true}' }]);
    const base = await scripted([{ status: 302, headers: { location: `${elsewhere.url}/collect` } }]);
    try {
      const c = new FundgateClient({ apiKey: 'svc_dk_mine', baseUrl: base.url, maxRetries: 2 });
      const e = (await failure(c.proposeExpense(expense))) as FundgateError;
      expect(e).toBeInstanceOf(FundgateError);
      expect([e.status, e.code]).toEqual([302, 'redirect']);
      expect(e.detail).toContain(`${elsewhere.url}/collect`);
      expect(base.seen.map((s) => s.method)).toEqual(['POST']);
      expect(elsewhere.seen).toHaveLength(0);
    } finally {
      await Promise.all([base.close(), elsewhere.close()]);
    }
  });

  it('a baseUrl without a scheme is a TypeError naming baseUrl; a network error says its cause (ECONNREFUSED)', async () => {
    // a bare "?" or "#" (empty query, empty fragment) would put every path after it
    for (const baseUrl of ['fund.example.com', 'localhost:3000', 'ftp://fund.example.com', 'https://u:p@fund.example.com', 'https://x.example/?a=1',
      'https://x.example/api?', 'https://x.example/api#']) {
      const e = thrown(() => new FundgateClient({ apiKey: 'k', baseUrl }));
      expect({ baseUrl, e }).toEqual({ baseUrl, e: expect.any(TypeError) });
      expect((e as Error).message).toMatch(/baseUrl/);
    }
    const closed = await scripted([{ status: 200 }]);
    await closed.close(); // nothing listens on its port now
    const e = (await failure(new FundgateClient({ apiKey: 'k', baseUrl: closed.url, maxRetries: 0 }).getOverview())) as FundgateError;
    expect([e.status, e.code]).toEqual([0, 'network_error']);
    expect(e.detail).toMatch(/ECONNREFUSED/);
  });

  it('a network failure replaces lastResponse (status 0, this call, its key) and the error carries the Idempotency-Key to retry with', async () => {
    const server = await scripted([{ status: 201, body: '{"id":"p1"}' }]);
    let fail = false;
    const flaky = (async (url: string, init: RequestInit) => {
      if (fail) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      return fetch(url, init);
    }) as unknown as typeof fetch;
    try {
      const c = new FundgateClient({ apiKey: 'k', baseUrl: server.url, fetch: flaky, maxRetries: 1 });
      await c.getOverview();
      expect(c.lastResponse).toMatchObject({ method: 'GET', status: 201 });
      fail = true;
      const e = (await failure(c.proposeExpense(expense))) as FundgateError;
      expect([e.status, e.code]).toEqual([0, 'network_error']);
      expect(e.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(c.lastResponse).toMatchObject({ method: 'POST', url: `${server.url}/api/v1/fund/proposals/expense`, status: 0, headers: {},
        requestId: null, idempotencyKey: e.idempotencyKey, attempts: 2 });
      fail = false; // the README's retry: the same key, so a propose that did reach the service is not made twice
      await c.proposeExpense(expense, { idempotencyKey: e.idempotencyKey! });
      expect(server.seen.at(-1)!.headers['idempotency-key']).toBe(e.idempotencyKey);
      // an answered failure carries it too; a read's error has none
      const refused = fakeFetch([() => new Response('{"code":"validation_failed"}', { status: 422 })]);
      const r = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: refused.fetch });
      expect(((await failure(r.proposeExpense(expense, { idempotencyKey: 'mine-1' }))) as FundgateError).idempotencyKey).toBe('mine-1');
      expect(((await failure(r.getOverview())) as FundgateError).idempotencyKey).toBeNull();
      // an abort leaves no stale answer either
      const ac = new AbortController();
      ac.abort();
      await failure(r.getOverview({ signal: ac.signal }));
      expect(r.lastResponse).toMatchObject({ method: 'GET', status: 0 });
    } finally {
      await server.close();
    }
  });

  it('a malformed Idempotency-Key and bad numeric options are a TypeError before anything is sent', async () => {
    const { fetch, calls } = fakeFetch([() => new Response('{"id":"p1"}', { status: 201 })]);
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch, maxRetries: 2 });
    for (const idempotencyKey of ['日本', 'a b', 'tab\there', 'x'.repeat(256)]) {
      const e = await failure(c.proposeExpense(expense, { idempotencyKey }));
      expect({ idempotencyKey, e }).toEqual({ idempotencyKey, e: expect.any(TypeError) });
      expect((e as Error).message).toMatch(/idempotencyKey.*1\.\.255 visible ASCII/);
    }
    expect(await failure(c.getOverview({ timeoutMs: Number.NaN }))).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(0);
    await c.proposeExpense(expense, { idempotencyKey: 'x'.repeat(255) }); // the longest allowed
    expect(calls).toHaveLength(1);
    const bad: Array<Partial<{ timeoutMs: unknown; maxRetries: unknown; maxRetryAfterMs: unknown }>> = [
      { timeoutMs: Number.NaN }, { timeoutMs: -5 }, { timeoutMs: 0 }, { timeoutMs: Infinity }, { timeoutMs: '1000' },
      { maxRetries: Number.NaN }, { maxRetries: -1 }, { maxRetries: 1.5 }, { maxRetryAfterMs: Number.NaN }, { maxRetryAfterMs: -1 },
    ];
    for (const opts of bad) {
      const e = thrown(() => new FundgateClient({ apiKey: 'k', ...(opts as object) }));
      expect({ opts, e }).toEqual({ opts, e: expect.any(TypeError) });
      expect((e as Error).message).toContain(Object.keys(opts)[0]);
    }
  });

  it('a decimal Retry-After ("1.5") is seconds, not a date', async () => {
    const busy = () => new Response('{"code":"unavailable"}', { status: 503, headers: { 'retry-after': '1.5' } });
    const { fetch, calls } = fakeFetch([busy, () => new Response('{"ok":true}', { status: 200 })]);
    await new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch }).getOverview();
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(1400);
    const once = fakeFetch([busy]);
    const e = (await failure(new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: once.fetch, maxRetries: 0 }).getOverview())) as FundgateError;
    expect(e.retryAfter).toBe(1.5);
  });

  it('409 idempotency_in_progress: its Retry-After is waited for, within the retry budget', async () => {
    const inProgress = () => new Response('{"code":"idempotency_in_progress"}', { status: 409, headers: { 'retry-after': '1' } });
    const { fetch, calls } = fakeFetch([inProgress, () => new Response('{"id":"p1"}', { status: 201 })]);
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch });
    expect(await c.proposeExpense(expense)).toEqual({ id: 'p1' });
    expect(calls).toHaveLength(2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(900);
    // always in progress: the first try and maxRetries more, then the 409; a Retry-After beyond maxRetryAfterMs is not waited
    const always = fakeFetch([() => new Response('{"code":"idempotency_in_progress"}', { status: 409, headers: { 'retry-after': '0' } })]);
    const e = (await failure(new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: always.fetch, maxRetries: 2 }).proposeExpense(expense))) as FundgateError;
    expect([e.status, e.code, always.calls.length]).toEqual([409, 'idempotency_in_progress', 3]);
    const long = fakeFetch([() => new Response('{"code":"idempotency_in_progress"}', { status: 409, headers: { 'retry-after': '30' } })]);
    const l = (await failure(new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: long.fetch, maxRetryAfterMs: 1000 }).proposeExpense(expense))) as FundgateError;
    expect([l.code, l.retryAfter, long.calls.length]).toEqual(['idempotency_in_progress', 30, 1]);
  });

  it('a 2xx answer that is not UTF-8 is invalid_response, not silently altered text', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const { fetch } = fakeFetch([() => new Response(bytes, { status: 200, headers: { 'x-request-id': 'r1' } })]);
    const e = (await failure(new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch }).getOverview())) as FundgateError;
    expect([e.status, e.code, e.requestId]).toEqual([200, 'invalid_response', 'r1']);
    expect(e.detail).toMatch(/UTF-8/);
  });

  it('the key is still not printed', () => {
    const c = new FundgateClient({ apiKey: 'svc_dk_hidden\n', baseUrl: 'http://x.invalid' });
    expect(inspect(c)).not.toContain('svc_dk_hidden');
    expect(JSON.stringify(c)).not.toContain('svc_dk_hidden');
  });

  it('Python SDK: a trimmed, private key; transport failures mapped and retried; headers, redirects and 409 Retry-After as TypeScript', async () => {
    const r = await pythonTransport();
    expect(r.trimmed).toEqual(['Bearer svc_dk_secret1', 'Bearer svc_dk_secret1']);
    expect(r.refused).toEqual(Array(5).fill({ type: 'ValueError', showsKey: false, namesApiKey: true }));
    expect(r.hidden).toEqual({ varsShowsKey: false, reprShowsKey: false, apiKeyAttr: false });
    expect(r.incompleteRead).toEqual({ status: 0, code: 'network_error', calls: 3, detail: expect.stringMatching(/IncompleteRead/) });
    expect(r.reset).toEqual({ status: 0, code: 'network_error', calls: 2 });
    expect(r.notUtf8).toEqual({ status: 200, code: 'invalid_response', requestId: 'r1', detail: 'the answer is not UTF-8 text' });
    expect(r.refusedConnection).toEqual({ status: 0, code: 'network_error', detail: expect.stringMatching(/refused/i) });
    expect(r.headers).toEqual({
      userAgent: [`myapp/1.0 fundgate-python/${SDK_VERSION}`],
      authorization: ['Bearer svc_dk_mine'],
      accept: ['application/json, application/problem+json'],
      trace: ['t1'],
      keyIsFresh: true,
      callKey: 'call-key',
    });
    expect(r.badHeaders).toEqual(['ValueError', 'ValueError']);
    expect(r.redirect).toEqual({ status: 302, code: 'redirect', calls: 1, elsewhere: 0 });
    expect(r.baseUrl).toEqual(Array(7).fill({ type: 'ValueError', namesBaseUrl: true }));
    expect(r.inProgress).toEqual({ result: { id: 'p1' }, calls: 2, waited: true });
    expect(r.inProgressAlways).toEqual({ code: 'idempotency_in_progress', calls: 3 });
  });

  it('Python SDK: the timeout bounds each attempt (a server dripping bytes cannot hold a call open past it)', async () => {
    const r = await pythonTransport();
    // a byte every 0.25 s: each read is quick, the answer never completes within timeout=1
    expect(r.drip_body).toEqual({ code: 'timeout', status: 0, within: true, calls: 1 });
    expect(r.drip_head).toEqual({ code: 'timeout', status: 0, within: true, calls: 1 });
  });

  it('Python SDK: last_response after a network failure, the key on the error, checks before sending, decimal Retry-After', async () => {
    const r = await pythonTransport();
    expect(r.stale).toEqual({ code: 'network_error', keyOnError: true,
      last: { method: 'POST', status: 0, headers: {}, sameKey: true, attempts: 2, path: '/api/v1/fund/proposals/expense' } });
    expect(r.staleRetrySentKey).toBe(true);
    expect(r.answeredKey).toEqual(['mine-1', null]);
    expect(r.badKeys).toEqual(['ValueError', 'ValueError', 'ValueError', 'ValueError', 'TypeError']);
    expect(r.badCallTimeout).toBe('ValueError');
    expect([r.sentForBad, r.longestKeySent]).toEqual([0, true]);
    expect(r.badNumbers).toEqual(['ValueError', 'ValueError', 'ValueError', 'TypeError', 'TypeError', 'ValueError', 'TypeError', 'ValueError', 'ValueError']);
    expect(r.decimalRetryAfter).toBe(1.5);
  });
});
