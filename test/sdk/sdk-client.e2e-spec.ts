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
    for (const baseUrl of ['fund.example.com', 'localhost:3000', 'ftp://fund.example.com', 'https://u:p@fund.example.com', 'https://x.example/?a=1']) {
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
    const { stdout } = await run('python3', [join(__dirname, 'python_transport_check.py')], { timeout: 120_000 });
    const r = JSON.parse(stdout);
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
    expect(r.baseUrl).toEqual(Array(5).fill({ type: 'ValueError', namesBaseUrl: true }));
    expect(r.inProgress).toEqual({ result: { id: 'p1' }, calls: 2, waited: true });
    expect(r.inProgressAlways).toEqual({ code: 'idempotency_in_progress', calls: 3 });
  });
});
