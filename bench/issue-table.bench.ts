import { type DataSource } from 'typeorm';
import { positionsCsv } from './calculators.bench';
import { calcLoad, calcLoadInChild, type CalcLoad, type RetryAfterPolicy } from './calc-load';
import { load, ratio, startProcess, stopProcess, type LoadResult } from './harness';
import { startTripCounter } from './pg-trips';
import type { RunValues } from './table';
import { benchWebhooks } from './webhooks.bench';

/** One pass over every row of the issue-17 table, against processes the caller started. */
export interface TableContext {
  api: string;
  bare: string;
  nest: string;
  meKey: string;
  fundKey: string;
  seconds: number;
  databaseUrl: string;
  redisUrl: string;
  webhookPort: number;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function warmLoad(url: string, opts: Parameters<typeof load>[1] = {}): Promise<LoadResult> {
  await load(url, { ...opts, seconds: 2 });
  return load(url, opts);
}

const row = (name: string, r: LoadResult) =>
  `| ${name} | ${r.requestsPerSec} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.non2xx} |`;

async function throughputRows(ctx: TableContext, values: RunValues, lines: string[]): Promise<void> {
  const s = ctx.seconds;
  const bare = await warmLoad(`${ctx.bare}/bare`, { seconds: s });
  const nest = await warmLoad(`${ctx.nest}/nest`, { seconds: s, headers: { authorization: 'Bearer x' } });
  const me = await warmLoad(`${ctx.api}/api/v1/me`, { seconds: s, headers: bearer(ctx.meKey) });
  const bareDb = await warmLoad(`${ctx.bare}/bare-db`, { seconds: s });
  const overview = await warmLoad(`${ctx.api}/api/v1/fund/overview`, { seconds: s, headers: bearer(ctx.fundKey) });
  const mcpBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_fund_overview', arguments: {} },
  });
  const mcp = await warmLoad(`${ctx.api}/api/mcp`, {
    seconds: s,
    method: 'POST',
    body: mcpBody,
    headers: {
      ...bearer(ctx.fundKey),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
  });
  values.me = ratio(me.requestsPerSec, bare.requestsPerSec);
  values.overview = ratio(overview.requestsPerSec, bareDb.requestsPerSec);
  values.mcp = ratio(mcp.requestsPerSec, overview.requestsPerSec);
  lines.push(
    '| target (autocannon, 50 connections) | req/s | p50 ms | p99 ms | non-2xx |',
    '| --- | --- | --- | --- | --- |',
    row('bare Fastify, fixed JSON (the /me body)', bare),
    row('Nest on Fastify + one trivial guard, same JSON', nest),
    row('fundgate GET /api/v1/me', me),
    row('bare Fastify + one PostgreSQL query', bareDb),
    row('fundgate GET /api/v1/fund/overview', overview),
    row('fundgate POST /api/mcp tools/call get_fund_overview', mcp),
    '',
    `/me ÷ Nest-with-one-guard ceiling: **${ratio(me.requestsPerSec, nest.requestsPerSec)}**; Nest ceiling ÷ bare: ${ratio(nest.requestsPerSec, bare.requestsPerSec)}`,
  );
}

const calcRow = (n: string, r: CalcLoad) => `| ${n} | ${r.perSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.shed} | ${r.other} |`;

async function calculatorRows(ctx: TableContext, values: RunValues, lines: string[]): Promise<void> {
  const s = Math.max(3, ctx.seconds);
  const fee = JSON.stringify({ horizonYears: 100, crystallization: 'quarterly' });
  const exposure = JSON.stringify({ positionsCsv: positionsCsv(5000), inputMethod: 'upload' });
  const url = (p: string) => `${ctx.api}/api/v1/calc/${p}`;
  await calcLoad(url('fee-calculator'), fee, 2, 1);
  await calcLoad(url('exposure-analysis'), exposure, 2, 1);
  const fee1 = await calcLoad(url('fee-calculator'), fee, 1, s);
  const fee10 = await calcLoad(url('fee-calculator'), fee, 10, s);
  const exp1 = await calcLoad(url('exposure-analysis'), exposure, 1, s);
  const exp10 = await calcLoad(url('exposure-analysis'), exposure, 10, s);
  values.calcFee = ratio(fee10.p99Ms, fee1.p99Ms);
  values.calcExposure = ratio(exp10.p99Ms, exp1.p99Ms);
  lines.push(
    '',
    '| calculator load (closed loops) | answered/s | p50 ms (200s) | p99 ms (200s) | 503 shed | other |',
    '| --- | --- | --- | --- | --- | --- |',
    calcRow('fee-calculator, 1 connection', fee1),
    calcRow('fee-calculator, 10 connections', fee10),
    calcRow('exposure-analysis 5 000 rows, 1 connection', exp1),
    calcRow('exposure-analysis 5 000 rows, 10 connections', exp10),
  );
  await readsUnderCalcRows(ctx, values, lines, url('exposure-analysis'), exposure);
}

/**
 * Fund reads alone, then while 10 loops hammer exposure-analysis from their own process (the client
 * measuring read latency must not share its event loop with the hammer): the bar's figure with loops
 * that honour Retry-After, and, for the record, loops that ignore it.
 */
async function readsUnderCalcRows(
  ctx: TableContext,
  values: RunValues,
  lines: string[],
  calcUrl: string,
  body: string,
): Promise<void> {
  const s = Math.max(3, ctx.seconds);
  const reads = `${ctx.api}/api/v1/fund/overview`;
  const opts = { seconds: s, connections: 10, headers: bearer(ctx.fundKey), precise: true };
  const alone = await warmLoad(reads, opts);
  const under = async (policy: RetryAfterPolicy) => {
    const child = calcLoadInChild(calcUrl, body, 10, s + 2, policy);
    await child.started;
    await new Promise((r) => setTimeout(r, 1000)); // the pool saturated before reads are measured
    const loaded = await load(reads, opts);
    return { loaded, hammer: await child.result };
  };
  const honour = await under('honour');
  const ignore = await under('ignore');
  // p99 to 0.01 ms: autocannon's whole milliseconds moved this ratio in steps of a third or a half
  const p99 = (r: LoadResult) => r.latencyP99PreciseMs ?? r.latencyP99Ms;
  values.readsUnderCalc = ratio(p99(honour.loaded), p99(alone));
  lines.push(
    calcRow('exposure-analysis while fund reads are measured (Retry-After honoured)', honour.hammer),
    calcRow('exposure-analysis while fund reads are measured (Retry-After ignored: 5 ms)', ignore.hammer),
    '',
    `fund reads (GET /fund/overview, 10 connections) p99 alone ${p99(alone)} ms (${alone.requestsPerSec} req/s); while calculators are hammered by clients honouring Retry-After ${p99(honour.loaded)} ms (${honour.loaded.requestsPerSec} req/s, non-2xx ${honour.loaded.non2xx}); by clients ignoring it ${p99(ignore.loaded)} ms (${ignore.loaded.requestsPerSec} req/s: ratio ${ratio(p99(ignore.loaded), p99(alone))}, not the bar). Whole-millisecond p99 as autocannon reports it: ${alone.latencyP99Ms} / ${honour.loaded.latencyP99Ms} / ${ignore.loaded.latencyP99Ms} ms.`,
  );
}

/** Round trips of one gl-detail request: a second API process whose pool goes through a counting proxy. */
export async function glDetailTrips(
  ctx: TableContext,
  db: DataSource,
  port: number,
): Promise<{ trips: number; line: string }> {
  const u = new URL(ctx.databaseUrl);
  const proxy = await startTripCounter({ host: u.hostname, port: Number(u.port || 5432) });
  const viaProxy = new URL(ctx.databaseUrl);
  viaProxy.port = String(proxy.port);
  const api = await startProcess(
    'src/main.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: ctx.redisUrl,
      LOG_LEVEL: 'warn',
      APP_ROLE: 'api',
      ACTIVITY_FLUSH_MS: '60000',
      KEY_CACHE_SECONDS: '5',
      RATE_LIMITS: JSON.stringify({ 'fund-minute': { platform: 100_000_000 } }),
    },
    `http://127.0.0.1:${port}/health`,
  );
  try {
    const accounts = await db.query<{ code: string }[]>(
      `SELECT a.code FROM chart_of_accounts a JOIN funds f ON f.id = a.fund_id WHERE f.slug = 'demo' ORDER BY a.code LIMIT 5`,
    );
    const get = (p: string) =>
      fetch(`http://127.0.0.1:${port}${p}`, { headers: bearer(ctx.fundKey) }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      }));
    await get('/api/v1/me'); // the key is cached from here on
    // the pool's connections are opened before counting: a connection's startup is not a request's round trip
    await Promise.all(accounts.map((a) => get(`/api/v1/fund/ledger/gl-detail?accountCode=${a.code}`)));
    const n = 40;
    const before = proxy.trips();
    let sequential = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await get(`/api/v1/fund/ledger/gl-detail?accountCode=${accounts[i % accounts.length].code}`);
      const t1 = performance.now();
      if (r.status !== 200) throw new Error(`gl-detail answered ${r.status}: ${r.body.slice(0, 200)}`);
      sequential += proxy.waves.filter((w) => w >= t0 && w <= t1).length;
    }
    const total = Math.round(((proxy.trips() - before) / n) * 100) / 100;
    const trips = Math.round((sequential / n) * 100) / 100;
    return {
      trips,
      line: `gl-detail (demo fund, ${n} sequential requests over ${accounts.length} accounts, default window): **${trips}** sequential PostgreSQL round trips per request while it is served (${total} round trips in all, counting statements sent in parallel and a read-only COMMIT sent after the answer; Query/Sync messages and ReadyForQuery counted by a proxy).`,
    };
  } finally {
    await stopProcess(api);
    await proxy.close();
  }
}

export async function measureRun(
  ctx: TableContext,
  withWebhooks: boolean,
): Promise<{ values: RunValues; lines: string[] }> {
  const values: RunValues = {};
  const lines: string[] = [];
  await throughputRows(ctx, values, lines);
  await calculatorRows(ctx, values, lines);
  if (withWebhooks) {
    const w = await benchWebhooks({ databaseUrl: ctx.databaseUrl, redisUrl: ctx.redisUrl, port: ctx.webhookPort });
    values.webhookBurst = ratio(w.burst.deliveriesPerSec, w.baselinePerSec);
    values.webhookPacedP99 = w.paced.p99DelayMs;
    lines.push(
      '',
      ...w.lines.filter((l) => l.startsWith('|') || l.startsWith('fundgate as') || l.startsWith('burst throughput')),
    );
  }
  return { values, lines };
}
