import fc from 'fast-check';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/config/config';
import { SCOPES } from '../../src/common/auth/scopes';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';
import { seedBooks } from '../proposals/books-fixture';
import { rawCall } from './helpers';
import { encodeAny, fromSchema, hostileString, rawBody, type Schema } from './fuzz-arbitraries';

/**
 * Fuzzes every route of the OpenAPI document (so a new route is covered without touching this
 * file) and both MCP servers with seeded, bounded fast-check samples: no answer may be a 5xx, and
 * every REST error must be problem+json. Seed and size: FUZZ_SEED, FUZZ_RUNS.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20260415);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
/** Each operation stops sampling after this long (at least 5 requests), so a slow route cannot stretch the suite. */
const OPERATION_BUDGET_MS = Number(process.env.FUZZ_OPERATION_MS ?? 1500);
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

interface Operation {
  method: Method;
  path: string;
  op: Schema;
}
interface Finding {
  request: string;
  status: number;
  body: string;
}

const asText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const generous = (): RateLimits =>
  Object.fromEntries(
    Object.keys(DEFAULT_RATE_LIMITS).map((p) => [p, { free: 1e9, developer: 1e9, platform: 1e9 }]),
  ) as RateLimits;

describe('fuzz: no 5xx and problem+json on every error, over every route and both MCP servers (e2e)', () => {
  let app: TestApp;
  let key: string;
  let ids: string[];
  let operations: Operation[];
  let components: Record<string, Schema>;
  const findings: Finding[] = [];
  const statuses = new Map<number, number>();
  let requests = 0;

  beforeAll(async () => {
    app = await bootApp({ rateLimits: generous() });
    // Small, fast books (chart, classes, investor, LP reports, runs) so every route reaches its SQL.
    const fund = await createFund(app);
    const books = await seedBooks(app, fund.id);
    await dbOf(app).query('UPDATE nav_runs SET gross_asset_value = net_asset_value WHERE id = $1', [
      books.completeRunId,
    ]);
    key = (await mintKey(app, { scopes: [...SCOPES], fund: fund.slug, plan: 'platform' })).key;
    ids = [books.investorId, books.shareClassId, books.completeRunId, books.failedRunId, books.draftReportId, fund.id];
    const doc = (await call(app, 'GET', '/api/openapi.json')).json;
    components = doc.components?.schemas ?? {};
    operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => ['get', 'post', 'patch', 'delete', 'put'].includes(m))
        .map(([m, op]) => ({ method: m.toUpperCase() as Method, path, op })),
    );
  });
  afterAll(async () => {
    process.stdout.write(
      `fuzz: ${requests} requests over ${operations.length} operations, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    await app.close();
  });

  function record(request: string, res: Awaited<ReturnType<typeof rawCall>>, expectProblem: boolean): void {
    requests++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problemOk =
      !expectProblem ||
      res.status < 400 ||
      (/^application\/problem\+json/.test(String(res.headers['content-type'])) && typeof res.json?.code === 'string');
    if (res.status >= 500 || !problemOk) findings.push({ request, status: res.status, body: res.body.slice(0, 300) });
  }

  function requestFor(
    o: Operation,
  ): fc.Arbitrary<{ url: string; body?: unknown; raw?: string; auth: 'key' | 'none' | 'bad' }> {
    const params: Schema[] = o.op.parameters ?? [];
    const pathParam = fc.oneof(fc.constantFrom(...ids), fc.uuid(), hostileString);
    const query = fc.record(
      Object.fromEntries(
        params
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, fc.oneof(fromSchema(p.schema ?? {}, components, 1).map(asText), hostileString)]),
      ),
      { requiredKeys: [] },
    );
    const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
    const body = bodySchema
      ? fc.oneof(
          { weight: 6, arbitrary: fromSchema(bodySchema, components) },
          { weight: 1, arbitrary: rawBody.map((raw) => ({ __raw: raw })) },
        )
      : fc.constant(undefined);
    return fc
      .record({
        pathValues: fc.array(pathParam, { minLength: 4, maxLength: 4 }),
        query,
        extra: fc.option(fc.tuple(hostileString, hostileString), { freq: 5 }),
        body,
        auth: fc.constantFrom<'key' | 'none' | 'bad'>('key', 'key', 'key', 'key', 'none', 'bad'),
      })
      .map(({ pathValues, query: q, extra, body: b, auth }) => {
        let i = 0;
        const path = o.path.replace(/\{[^}]+\}/g, () => encodeAny(String(pathValues[i++])));
        const entries = Object.entries(q as Record<string, string>).map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`);
        if (extra) entries.push(`${encodeAny(extra[0])}=${encodeAny(extra[1])}`);
        const url = entries.length > 0 ? `${path}?${entries.join('&')}` : path;
        const raw = b && typeof b === 'object' && '__raw' in b ? (b as { __raw: string }).__raw : undefined;
        return { url, body: raw === undefined ? b : undefined, raw, auth };
      });
  }

  async function send(
    method: Method,
    r: { url: string; body?: unknown; raw?: string; auth: 'key' | 'none' | 'bad' },
    headers: Record<string, string> = {},
  ) {
    const auth =
      r.auth === 'key' ? { key } : r.auth === 'bad' ? { key: 'svc_dk_notarealkeynotarealkeynotarealkey12' } : {};
    const body = r.raw !== undefined ? r.raw : r.body;
    const ct: Record<string, string> = body !== undefined ? { 'content-type': 'application/json' } : {};
    return call(app, method, r.url, { ...auth, body, headers: { ...ct, ...headers } });
  }

  it('every REST operation of the OpenAPI document', async () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const [n, o] of operations.entries()) {
      if (o.path.startsWith('/api/mcp')) continue;
      const started = Date.now();
      for (const [i, r] of fc.sample(requestFor(o), { numRuns: RUNS, seed: SEED + n }).entries()) {
        if (i >= 5 && Date.now() - started > OPERATION_BUDGET_MS) break;
        const res = await send(o.method, r);
        record(
          `${o.method} ${r.url.slice(0, 200)} ${r.raw !== undefined ? `raw ${r.raw.slice(0, 60)}` : JSON.stringify(r.body ?? null).slice(0, 200)}`,
          res,
          true,
        );
      }
    }
    expect(findings).toEqual([]);
  });

  it('both MCP servers: envelopes and tool calls with fuzzed arguments', async () => {
    for (const [server, path] of [
      ['public', '/api/mcp/public'],
      ['fund', '/api/mcp'],
    ] as const) {
      const list = await rawCall(app, path, {
        key,
        headers: MCP_ACCEPT,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      const tools: { name: string; inputSchema: Schema }[] = list.json.result.tools;
      expect(tools.length).toBeGreaterThan(server === 'public' ? 5 : 20);
      for (const [n, tool] of tools.entries()) {
        const args = fc.oneof(
          { weight: 4, arbitrary: fromSchema(tool.inputSchema, {}) },
          { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
        );
        for (const a of fc.sample(args, { numRuns: Math.ceil(RUNS / 2), seed: SEED + 1000 + n })) {
          const res = await rawCall(app, path, {
            key,
            headers: MCP_ACCEPT,
            body: { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: tool.name, arguments: a } },
          });
          record(`MCP ${server} ${tool.name} ${JSON.stringify(a).slice(0, 200)}`, res, false);
          if (res.json?.error?.code === -32603)
            findings.push({
              request: `MCP ${server} ${tool.name} ${JSON.stringify(a).slice(0, 200)}`,
              status: 500,
              body: res.body.slice(0, 300),
            });
        }
      }
      const envelope = fc.oneof(
        rawBody,
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        fc
          .record({
            jsonrpc: fc.constantFrom('2.0', '1.0', 2),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
            method: fc.oneof(
              fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized'),
              hostileString,
            ),
            params: fc.oneof(fc.constant(undefined), fc.object({ maxDepth: 2 })),
          })
          .map((v) => JSON.stringify(v)),
      );
      for (const raw of fc.sample(envelope, { numRuns: RUNS * 2, seed: SEED + 2000 })) {
        const res = await rawCall(app, path, { key, headers: MCP_ACCEPT, body: raw });
        record(`MCP ${server} envelope ${raw.slice(0, 200)}`, res, false);
        if (res.json?.error?.code === -32603)
          findings.push({
            request: `MCP ${server} envelope ${raw.slice(0, 200)}`,
            status: 500,
            body: res.body.slice(0, 300),
          });
      }
    }
    expect(findings).toEqual([]);
  });
});
