import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { bootApp, call, mintKey, type TestApp } from '../utils/app';
import { DEMO_SLUG, seedFundsOnce } from '../fund-data/fixtures';
import { FundgateClient, FundgateError, OPERATIONS } from '../../sdk/typescript/src/index';
import { inSurface, type OpenApiDoc, renderSdks, selectOperations, writeSdks } from '../../scripts/generate-sdks';

jest.setTimeout(240_000);
const run = promisify(execFile);
const REPO = join(__dirname, '..', '..');

describe('official SDKs (TypeScript and Python) against the real service (e2e)', () => {
  let app: TestApp;
  let baseUrl: string;
  let readKey: string;
  let proposeKey: string;
  let spec: OpenApiDoc;
  let attributionDate: string;
  let sdk: FundgateClient;
  let proposer: FundgateClient;
  let expenseAccounts: [string, string] | null = null;
  const journalFrom = '2026-08-01';
  const journalTo = '2026-10-31';

  const rest = async (url: string, key = readKey) => {
    const res = await call(app, 'GET', url, { key });
    return res;
  };

  beforeAll(async () => {
    app = await bootApp();
    await seedFundsOnce(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${address.port}`;
    readKey = (await mintKey(app, { scopes: ['fund:read'], fund: DEMO_SLUG, plan: 'platform' })).key;
    proposeKey = (await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: DEMO_SLUG, plan: 'platform' })).key;
    spec = (await call(app, 'GET', '/api/openapi.json')).json;
    sdk = new FundgateClient({ apiKey: readKey, baseUrl, maxRetries: 1 });
    proposer = new FundgateClient({ apiKey: proposeKey, baseUrl, maxRetries: 1 });
    const dates = (await rest('/api/v1/fund/pnl/attribution-dates')).json.dates as string[];
    attributionDate = dates[dates.length - 1];
    const accounts = (
      (await rest('/api/v1/fund/ledger/accounts')).json.items as { accountCode: string; accountType: string; manualPosting: boolean }[]
    ).filter((a) => a.accountType === 'expense' && a.manualPosting);
    if (accounts.length >= 2) expenseAccounts = [accounts[0].accountCode, accounts[1].accountCode];
  });
  afterAll(async () => {
    await app?.close();
  });

  const proposeRouteExists = () => !!spec.paths['/api/v1/fund/proposals/journal-entry']?.post;

  it('wraps exactly the read and propose surface of the OpenAPI document (no calculators, no admin)', () => {
    const surface: string[] = [];
    for (const [path, ops] of Object.entries(spec.paths)) for (const m of Object.keys(ops)) if (inSurface(m, path)) surface.push(`${m.toUpperCase()} ${path}`);
    expect(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort()).toEqual(surface.sort());
    const fundReads = OPERATIONS.filter((o) => o.method === 'GET' && o.path.startsWith('/api/v1/fund/') && !o.path.startsWith('/api/v1/fund/proposals'));
    expect(fundReads).toHaveLength(25);
    expect(OPERATIONS.some((o) => o.path.includes('/calc/') || o.path.includes('/admin/') || o.path.includes('/webhooks') || o.path.includes('/mcp'))).toBe(false);
    for (const o of OPERATIONS) expect(typeof (FundgateClient.prototype as unknown as Record<string, unknown>)[o.name]).toBe('function');
    expect(typeof FundgateClient.prototype.listTrades).toBe('function');
  });

  it('answers every read method exactly as the raw REST endpoint does', async () => {
    // One row per GET operation: how the SDK is called and the equivalent raw URL.
    const reads: Record<string, [(c: FundgateClient) => Promise<unknown>, string]> = {
      getOverview: [(c) => c.getOverview(), '/api/v1/fund/overview'],
      getFeeTerms: [(c) => c.getFeeTerms(), '/api/v1/fund/fee-terms'],
      getPositions: [(c) => c.getPositions(), '/api/v1/fund/positions'],
      getBreakdown: [(c) => c.getBreakdown(), '/api/v1/fund/breakdown'],
      getExposure: [(c) => c.getExposure(), '/api/v1/fund/exposure'],
      getExposureSeries: [(c) => c.getExposureSeries({ days: 10 }), '/api/v1/fund/exposure/series?days=10'],
      getValueAtRisk: [(c) => c.getValueAtRisk({ windowDays: 30, confidence: '0.95', method: 'sample', horizonDays: 10 }),
        '/api/v1/fund/risk/var?windowDays=30&confidence=0.95&method=sample&horizonDays=10'],
      getStressPresets: [(c) => c.getStressPresets(), '/api/v1/fund/risk/stress-presets'],
      getStressTest: [(c) => c.getStressTest({ preset: 'covid-2020' }), '/api/v1/fund/risk/stress-test?preset=covid-2020'],
      getPerformance: [(c) => c.getPerformance(), '/api/v1/fund/performance'],
      getPnlAttribution: [(c) => c.getPnlAttribution({ date: attributionDate }), `/api/v1/fund/pnl/attribution?date=${attributionDate}`],
      getAttributionDates: [(c) => c.getAttributionDates(), '/api/v1/fund/pnl/attribution-dates'],
      getTrialBalance: [(c) => c.getTrialBalance(), '/api/v1/fund/trial-balance'],
      getJournalEntries: [(c) => c.getJournalEntries({ from: journalFrom, to: journalTo, limit: 5 }), `/api/v1/fund/ledger/journal-entries?from=${journalFrom}&to=${journalTo}&limit=5`],
      getGlDetail: [(c) => c.getGlDetail({ accountCode: '1000', limit: 3 }), '/api/v1/fund/ledger/gl-detail?accountCode=1000&limit=3'],
      getLedgerAccounts: [(c) => c.getLedgerAccounts(), '/api/v1/fund/ledger/accounts'],
      getInvestors: [(c) => c.getInvestors({ limit: 4 }), '/api/v1/fund/investors?limit=4'],
      getCapitalAccounts: [(c) => c.getCapitalAccounts(), '/api/v1/fund/capital-accounts'],
      getCapitalActivity: [(c) => c.getCapitalActivity({ limit: 5 }), '/api/v1/fund/capital-activity?limit=5'],
      getExpenses: [(c) => c.getExpenses({ limit: 3 }), '/api/v1/fund/expenses?limit=3'],
      getDealingCalendar: [(c) => c.getDealingCalendar(), '/api/v1/fund/dealing-calendar'],
      getLpReports: [(c) => c.getLpReports(), '/api/v1/fund/lp-reports'],
      getTrades: [(c) => c.getTrades({ limit: 7, side: 'sell' }), '/api/v1/fund/trades?limit=7&side=sell'],
      getNavHistory: [(c) => c.getNavHistory({ limit: 3 }), '/api/v1/fund/nav/history?limit=3'],
      getNavReconciliation: [(c) => c.getNavReconciliation({ limit: 3 }), '/api/v1/fund/nav/reconciliation?limit=3'],
      getProposals: [(c) => c.getProposals({ limit: 50 }), '/api/v1/fund/proposals?limit=50'],
      getMe: [(c) => c.getMe(), '/api/v1/me'],
      // getUsage and getProposal: compared in their own tests (usage counts move with every request; a proposal needs an id).
    };
    const gets = OPERATIONS.filter((o) => o.method === 'GET').map((o) => o.name).filter((n) => n !== 'getUsage' && n !== 'getProposal');
    expect(Object.keys(reads).sort()).toEqual(gets.sort());

    for (const [name, [viaSdk, url]] of Object.entries(reads)) {
      const needsPropose = url.startsWith('/api/v1/fund/proposals');
      const client = needsPropose ? proposer : sdk;
      const raw = await rest(url, needsPropose ? proposeKey : readKey);
      expect({ name, status: raw.status }).toEqual({ name, status: 200 });
      const got = await viaSdk(client);
      if (name === 'getMe') {
        // lastUsedAt moves with the request itself; everything else must match.
        expect({ ...(got as Record<string, unknown>), lastUsedAt: null }).toEqual({ ...raw.json, lastUsedAt: null });
      } else {
        expect({ name, body: got }).toEqual({ name, body: raw.json });
      }
      expect(client.lastResponse?.status).toBe(200);
      expect(client.lastResponse?.requestId).toEqual(expect.any(String));
    }
  });

  it('getUsage: the same key, window and shape as REST (counts move with every request)', async () => {
    const raw = (await rest('/api/v1/usage')).json;
    const got = await sdk.getUsage();
    expect(got.keyId).toBe(raw.keyId);
    expect([got.from, got.to]).toEqual([raw.from, raw.to]);
    expect(Object.keys(got)).toEqual(Object.keys(raw));
    expect(sdk.lastResponse?.rateLimit).toMatch(/^"fund-minute";r=\d+;t=\d+/);
  });

  it('listTrades follows nextCursor through every page, in REST order', async () => {
    const rawIds: string[] = [];
    let url = '/api/v1/fund/trades?limit=500';
    let pages = 0;
    for (;;) {
      const page = (await rest(url)).json;
      pages++;
      rawIds.push(...page.items.map((t: { id: string }) => t.id));
      if (!page.hasMore) break;
      url = `/api/v1/fund/trades?limit=500&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(pages).toBeGreaterThan(2);
    const ids: string[] = [];
    for await (const t of sdk.listTrades({ limit: 500 })) ids.push(t.id);
    expect(ids).toEqual(rawIds);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every listing iterator walks all its pages: the same rows as following nextCursor by hand', async () => {
    // [iterator, its parameters, the REST URL, where the rows are, where nextCursor/hasMore are]
    const walks: [string, Record<string, unknown>, string, 'items' | 'lines', 'page' | null][] = [
      ['listJournalEntries', { from: journalFrom, to: journalTo, limit: 400 }, `/api/v1/fund/ledger/journal-entries?from=${journalFrom}&to=${journalTo}&limit=400`, 'lines', null],
      ['listGlDetail', { accountCode: '1000', limit: 4 }, '/api/v1/fund/ledger/gl-detail?accountCode=1000&limit=4', 'lines', null],
      ['listExpenses', { limit: 4 }, '/api/v1/fund/expenses?limit=4', 'items', 'page'],
      ['listInvestors', { limit: 4 }, '/api/v1/fund/investors?limit=4', 'items', 'page'],
      ['listCapitalActivity', { limit: 4 }, '/api/v1/fund/capital-activity?limit=4', 'items', 'page'],
      ['listLpReports', { limit: 3 }, '/api/v1/fund/lp-reports?limit=3', 'items', 'page'],
      ['listNavHistory', { from: '2026-01-01', limit: 40 }, '/api/v1/fund/nav/history?from=2026-01-01&limit=40', 'items', null],
      ['listNavReconciliation', { limit: 4 }, '/api/v1/fund/nav/reconciliation?limit=4', 'items', null],
    ];
    expect(walks.map(([n]) => n).sort()).toEqual(OPERATIONS.filter((o) => o.iterator && !['listTrades', 'listProposals'].includes(o.iterator)).map((o) => o.iterator).sort());
    for (const [iterator, params, url, rowsAt, pagingAt] of walks) {
      const raw: unknown[] = [];
      let pages = 0;
      for (let next = url; ; pages++) {
        const body = (await rest(next)).json;
        raw.push(...body[rowsAt]);
        const paging = pagingAt ? body[pagingAt] : body;
        if (!paging.hasMore) break;
        next = `${url}&cursor=${encodeURIComponent(paging.nextCursor)}`;
      }
      const got: unknown[] = [];
      const iterators = sdk as unknown as Record<string, (p: Record<string, unknown>) => AsyncIterable<unknown>>;
      for await (const row of iterators[iterator](params)) got.push(row);
      expect({ iterator, morePages: pages > 0, rows: got }).toEqual({ iterator, morePages: true, rows: raw });
    }
  });

  it('a bad parameter raises FundgateError with status, code, field and requestId', async () => {
    const err = await sdk.getTrades({ limit: 0 }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(FundgateError);
    const raw = (await rest('/api/v1/fund/trades?limit=0')).json;
    const e = err as FundgateError;
    expect(e.status).toBe(400);
    expect(e.code).toBe(raw.code);
    expect(e.code).toBe('invalid_parameter');
    expect(e.errors.map((x) => x.field)).toEqual(['limit']);
    expect(e.requestId).toEqual(expect.any(String));
    expect(e.requestId).toBe(sdk.lastResponse?.requestId);
    // Missing required parameter and missing scope surface the same way.
    const missing = await sdk.getPnlAttribution({} as Parameters<typeof sdk.getPnlAttribution>[0]).then(() => null, (x: FundgateError) => x);
    expect([missing?.status, missing?.code]).toEqual([400, 'missing_parameter']);
    expect(missing?.errors).toEqual((await rest('/api/v1/fund/pnl/attribution')).json.errors);
    expect(new Set(missing?.errors.map((x) => x.field))).toEqual(new Set(['date']));
    const scope = await sdk.getProposals().then(() => null, (x: FundgateError) => x);
    expect([scope?.status, scope?.code]).toEqual([403, 'insufficient_scope']);
    const unauth = await new FundgateClient({ apiKey: 'svc_dk_nope', baseUrl }).getOverview().then(() => null, (x: FundgateError) => x);
    expect([unauth?.status, unauth?.code]).toEqual([401, 'unauthenticated']);
  });

  it('propose: an Idempotency-Key replays (Idempotent-Replayed surfaced); a missing key is generated', async () => {
    if (!proposeRouteExists()) {
      console.warn('propose routes are not in the OpenAPI document: propose test skipped');
      return;
    }
    expect(expenseAccounts).not.toBeNull();
    const [debit, credit] = expenseAccounts!;
    const body = { entryDate: journalTo, description: 'sdk idempotency check', lines: [{ accountCode: debit, debit: '12.34' }, { accountCode: credit, credit: '12.34' }] };
    const idempotencyKey = `sdk-ts-${Date.now()}`;
    const first = await proposer.proposeJournalEntry(body, { idempotencyKey });
    expect(proposer.lastResponse).toMatchObject({ status: 201, replayed: false, idempotencyKey });
    expect(first).toMatchObject({ kind: 'journal-entry', status: 'pending' });
    const second = await proposer.proposeJournalEntry(body, { idempotencyKey });
    expect(proposer.lastResponse).toMatchObject({ status: 201, replayed: true, idempotencyKey });
    expect(second).toEqual(first);
    // The same key with another body is refused, surfaced as a FundgateError.
    const reused = await proposer.proposeJournalEntry({ ...body, description: 'changed' }, { idempotencyKey }).then(() => null, (e: FundgateError) => e);
    expect([reused?.status, reused?.code]).toEqual([422, 'idempotency_key_reused']);
    // Without a key the SDK sends a fresh one (so its own retries are safe).
    const auto = await proposer.proposeJournalEntry({ ...body, description: 'sdk auto key' });
    expect(proposer.lastResponse?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(proposer.lastResponse?.replayed).toBe(false);
    expect(auto.id).not.toBe(first.id);
    // Following it: getProposal and listProposals match REST.
    expect(await proposer.getProposal(first.id)).toEqual((await rest(`/api/v1/fund/proposals/${first.id}`, proposeKey)).json);
    const listed: string[] = [];
    for await (const p of proposer.listProposals({ limit: 1 })) listed.push(p.id);
    expect(listed).toEqual(expect.arrayContaining([first.id, auto.id]));
    // Body validation errors carry their fields.
    const bad = await proposer.proposeJournalEntry({ ...body, lines: [] }).then(() => null, (e: FundgateError) => e);
    expect(bad?.status).toBe(400);
    expect(bad?.errors.map((x) => x.field)).toContain('lines');
  });

  it('retries 429 (honouring Retry-After) and 5xx for idempotent calls, reusing the Idempotency-Key; never for other errors', async () => {
    const seen: { url: string; key: string | null }[] = [];
    const answers: Array<() => Response> = [
      () => new Response(JSON.stringify({ code: 'rate_limited', status: 429 }), { status: 429, headers: { 'retry-after': '0', 'content-type': 'application/problem+json' } }),
      () => new Response(JSON.stringify({ code: 'unavailable', status: 503 }), { status: 503, headers: { 'content-type': 'application/problem+json' } }),
      () => new Response(JSON.stringify({ id: 'p1' }), { status: 201, headers: { 'idempotent-replayed': 'true', 'x-request-id': 'r3' } }),
    ];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, key: (init.headers as Record<string, string>)['idempotency-key'] ?? null });
      return answers.shift()!();
    }) as unknown as typeof fetch;
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: fakeFetch, maxRetries: 3 });
    const res = await c.proposeExpense({ category: 'legal', vendor: 'v', amount: '1.00', accrualDate: '2026-01-01', description: 'd' });
    expect(res).toEqual({ id: 'p1' });
    expect(c.lastResponse).toMatchObject({ attempts: 3, replayed: true, requestId: 'r3' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0].key).toEqual(expect.any(String));

    // A Retry-After beyond maxRetryAfterMs is not waited for; a 400 is never retried.
    let calls = 0;
    const slow = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', maxRetries: 3, maxRetryAfterMs: 1000,
      fetch: async () => { calls++; return new Response('{"code":"rate_limited"}', { status: 429, headers: { 'retry-after': '3600' } }); } });
    const e429 = await slow.getOverview().then(() => null, (e: FundgateError) => e);
    expect([e429?.code, e429?.retryAfter, calls]).toEqual(['rate_limited', 3600, 1]);
    calls = 0;
    const bad = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', maxRetries: 3,
      fetch: async () => { calls++; return new Response('{"code":"invalid_parameter","errors":[{"field":"limit","message":"m"}]}', { status: 400 }); } });
    const e400 = await bad.getTrades({ limit: 0 }).then(() => null, (e: FundgateError) => e);
    expect([e400?.code, e400?.errors, calls]).toEqual(['invalid_parameter', [{ field: 'limit', message: 'm' }], 1]);
  });

  it('a request that outlives timeoutMs fails with code timeout after its retries', async () => {
    let calls = 0;
    const hanging = (async (_url: string, init: RequestInit) => {
      calls++;
      return new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))));
    }) as unknown as typeof fetch;
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: hanging, timeoutMs: 50, maxRetries: 1 });
    const e = await c.getOverview().then(() => null, (x: FundgateError) => x);
    expect([e?.status, e?.code, calls]).toEqual([0, 'timeout', 2]);
  });

  it('the Python SDK retries 429/5xx with one Idempotency-Key, never a 400, and times out', async () => {
    const { stdout } = await run('python3', [join(__dirname, 'python_retry_check.py')], { timeout: 60_000 });
    const r = JSON.parse(stdout);
    expect(r.propose).toMatchObject({ result: { id: 'p1' }, attempts: 3, replayed: true, requestId: 'r3' });
    expect(r.propose.keys).toHaveLength(3);
    expect(new Set(r.propose.keys).size).toBe(1);
    expect(r.propose.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.bad).toEqual({ status: 400, code: 'invalid_parameter', errors: [{ field: 'limit', message: 'm' }], requestId: 'r4', calls: 1, path: '/api/v1/fund/trades?limit=0' });
    expect(r.longRetryAfter).toEqual({ code: 'rate_limited', retryAfter: 3600, calls: 1 });
    expect(r.timeout).toEqual({ status: 0, code: 'timeout', calls: 2 });
    expect(r.retryAfter503).toEqual({ calls: 2, waited: true });
    expect(r.redirect).toEqual({ status: 302, calls: 1 }); // not followed: the key stays home
  });

  it('TypeScript: an empty Idempotency-Key is replaced, a 503 Retry-After is honoured, the key is not printed, a User-Agent is sent', async () => {
    const seen: { key: string | null; ua: string | null; at: number }[] = [];
    const answers: Array<() => Response> = [
      () => new Response('{"code":"unavailable"}', { status: 503, headers: { 'retry-after': '1' } }),
      () => new Response('{"id":"p2"}', { status: 201 }),
    ];
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      const h = init.headers as Record<string, string>;
      seen.push({ key: h['idempotency-key'] ?? null, ua: h['user-agent'] ?? null, at: Date.now() });
      return answers.shift()!();
    }) as unknown as typeof fetch;
    const c = new FundgateClient({ apiKey: 'svc_dk_secret', baseUrl: 'http://x.invalid', fetch: fakeFetch });
    const body = { category: 'legal' as const, vendor: 'v', amount: '1.00', accrualDate: '2026-01-01', description: 'd' };
    expect(await c.proposeExpense(body, { idempotencyKey: '' })).toEqual({ id: 'p2' });
    expect(seen).toHaveLength(2);
    expect(seen[0].key).toEqual(expect.stringMatching(/.+/)); // a key was made, and reused
    expect(seen[1].key).toBe(seen[0].key);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(900); // Retry-After: 1
    expect(seen[0].ua).toMatch(/^fundgate-typescript\//);
    expect(inspect(c)).not.toContain('svc_dk_secret');
    expect(JSON.stringify(c)).not.toContain('svc_dk_secret');
  });

  it('the Python SDK (standard library only) answers as REST does', async () => {
    const idempotencyKey = `sdk-py-${Date.now()}`;
    const args = { baseUrl, readKey, proposeKey, attributionDate, journalFrom, journalTo, idempotencyKey, accounts: proposeRouteExists() ? expenseAccounts : null };
    const { stdout } = await run('python3', [join(__dirname, 'python_sdk_check.py'), JSON.stringify(args)], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    const py = JSON.parse(stdout);
    expect(py.operations).toEqual(selectOperations(spec).map((o) => o.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()));
    const same: [string, string][] = [
      ['overview', '/api/v1/fund/overview'],
      ['positions', '/api/v1/fund/positions'],
      ['exposureSeries', '/api/v1/fund/exposure/series?days=10'],
      ['valueAtRisk', '/api/v1/fund/risk/var?windowDays=30&confidence=0.95'],
      ['pnlAttribution', `/api/v1/fund/pnl/attribution?date=${attributionDate}`],
      ['journalEntries', `/api/v1/fund/ledger/journal-entries?from=${journalFrom}&to=${journalTo}&limit=5`],
      ['glDetail', '/api/v1/fund/ledger/gl-detail?accountCode=1000&limit=3'],
      ['stressTest', '/api/v1/fund/risk/stress-test?preset=covid-2020'],
      ['tradesPage', '/api/v1/fund/trades?limit=7&side=buy'],
    ];
    for (const [name, url] of same) expect({ name, body: py[name] }).toEqual({ name, body: (await rest(url)).json });
    expect(py.requestId).toEqual(expect.any(String));
    expect({ ...py.me, lastUsedAt: null }).toEqual({ ...(await rest('/api/v1/me')).json, lastUsedAt: null });
    const tsIds: string[] = [];
    for await (const t of sdk.listTrades({ limit: 500 })) tsIds.push(t.id);
    expect(py.tradeIds).toEqual(tsIds);
    const tsGl: unknown[] = [];
    for await (const l of sdk.listGlDetail({ accountCode: '1000', limit: 4 })) tsGl.push(l);
    expect(tsGl.length).toBeGreaterThan(4);
    expect(py.glLines).toEqual(tsGl);
    expect(py.expenseIds).toEqual((await rest('/api/v1/fund/expenses?limit=1000')).json.items.map((e: { id: string }) => e.id));
    expect(py.badParameter).toMatchObject({ status: 400, code: 'invalid_parameter', errors: [expect.objectContaining({ field: 'limit' })], requestId: expect.any(String) });
    expect(py.insufficientScope).toEqual({ status: 403, code: 'insufficient_scope' });
    if (args.accounts) {
      const p = py.propose;
      expect([p.firstStatus, p.firstReplayed, p.secondReplayed, p.autoReplayed]).toEqual([201, false, true, false]);
      expect(p.second).toEqual(p.first);
      expect(p.autoKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(p.fetched).toEqual((await rest(`/api/v1/fund/proposals/${p.first.id}`, proposeKey)).json);
    }
  });

  it('the committed SDK files are exactly what the generator makes from this OpenAPI document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-sdk-'));
    try {
      const files = renderSdks(spec);
      writeSdks(files, dir);
      const stale: string[] = [];
      for (const rel of Object.keys(files)) {
        const fresh = readFileSync(join(dir, rel), 'utf8');
        let committed = '';
        try {
          committed = readFileSync(join(REPO, rel), 'utf8');
        } catch {
          committed = '<missing>';
        }
        if (fresh !== committed) stale.push(rel);
      }
      expect({ stale, hint: stale.length ? 'run `npm run sdk:generate` and commit sdk/' : '' }).toEqual({ stale: [], hint: '' });
      expect(Object.keys(files).sort()).toEqual(['sdk/python/fundgate/__init__.py', 'sdk/python/fundgate/client.py', 'sdk/python/fundgate/models.py', 'sdk/python/fundgate/webhooks.py', 'sdk/typescript/src/index.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
