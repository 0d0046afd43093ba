import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { loadConfig } from '../src/config/config';
import { createDataSource } from '../src/database/data-source';
import { migrate } from '../src/database/migrate';
import { KeysRepository } from '../src/keys/keys.repository';
import { KeysService } from '../src/keys/keys.service';
import { upsertPerson } from '../src/identity/people';
import { load, ratio, startProcess, stopProcess } from './harness';
import { seedDemoFund } from '../src/fund/import/seed-demo-fund';
import { benchBooks } from './books.bench';
import { benchCalculators } from './calculators.bench';
import { benchFundData, benchJournalWindow, benchTradesDepth, prepareLargeFund } from './fund-data.bench';
import { benchWebhooks } from './webhooks.bench';

/**
 * `npm run bench [-- --only me,calculators,...]`: every figure is a ratio against a baseline
 * measured in the same run on the same machine. Results go to docs/performance.md.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const API_PORT = 3901;
const BARE_PORT = 3902;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

type Section = { title: string; lines: string[] };

async function mintPlatformKey(db: DataSource, scopes: string[], fundSlug: string | null) {
  const service = new KeysService(new KeysRepository(db), loadConfig({ ...process.env, DATABASE_URL }));
  const email = 'bench@fundgate.invalid';
  await upsertPerson(db, { email, displayName: 'bench', plan: 'platform', fund: fundSlug ? { slug: fundSlug, role: 'admin' } : undefined });
  return service.mint(await service.minterForPerson({ email }, fundSlug), { name: 'bench key', scopes: fundSlug ? scopes as never : [], plan: 'platform', expiresAt: null });
}

async function benchMe(db: DataSource): Promise<Section> {
  const minted = await mintPlatformKey(db, ['fund:read'], null);
  const headers = { authorization: `Bearer ${minted.key}` };
  const meBody = await (await fetch(`http://127.0.0.1:${API_PORT}/api/v1/me`, { headers })).text();
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(BARE_PORT), DATABASE_URL, BARE_BODY: meBody }, `http://127.0.0.1:${BARE_PORT}/bare`);
  try {
    await load(`http://127.0.0.1:${BARE_PORT}/bare`, { seconds: 2 }); // warm-up
    const baseline = await load(`http://127.0.0.1:${BARE_PORT}/bare`, { seconds: SECONDS });
    await load(`http://127.0.0.1:${API_PORT}/api/v1/me`, { seconds: 2, headers });
    const me = await load(`http://127.0.0.1:${API_PORT}/api/v1/me`, { seconds: SECONDS, headers });
    const r = ratio(me.requestsPerSec, baseline.requestsPerSec);
    return {
      title: 'GET /api/v1/me vs a bare Fastify route (issue 2; target ratio ≥ 0.4)',
      lines: [
        `autocannon, 50 connections, ${SECONDS} s each, same machine, same run.`,
        `| target | req/s | p50 ms | p99 ms | non-2xx |`,
        `| --- | --- | --- | --- | --- |`,
        `| bare Fastify (same JSON) | ${baseline.requestsPerSec} | ${baseline.latencyP50Ms} | ${baseline.latencyP99Ms} | ${baseline.non2xx} |`,
        `| fundgate GET /me (auth + rate limit + activity log + redaction) | ${me.requestsPerSec} | ${me.latencyP50Ms} | ${me.latencyP99Ms} | ${me.non2xx} |`,
        ``,
        `ratio: **${r}** (${r >= 0.4 ? 'meets' : 'MISSES'} the 0.4 target)`,
      ],
    };
  } finally {
    await stopProcess(bare);
  }
}

/** The demo fund's books in the bench database (seeded once; later runs reuse them). */
async function ensureDemoFund(db: DataSource): Promise<void> {
  const rows = await db.query(`SELECT count(*)::int AS n FROM nav_runs r JOIN funds f ON f.id = r.fund_id WHERE f.slug = 'demo' AND r.status = 'complete'`);
  if (rows[0].n > 0) return;
  await seedDemoFund(db, { slug: 'demo' });
}

async function benchMcp(db: DataSource): Promise<Section> {
  await ensureDemoFund(db);
  const minted = await mintPlatformKey(db, ['fund:read'], 'demo');
  const headers = { authorization: `Bearer ${minted.key}` };
  const restUrl = `http://127.0.0.1:${API_PORT}/api/v1/fund/overview`;
  const mcpUrl = `http://127.0.0.1:${API_PORT}/api/mcp`;
  const mcpHeaders = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_fund_overview', arguments: {} } });
  await load(restUrl, { seconds: 2, headers });
  const rest = await load(restUrl, { seconds: SECONDS, headers });
  await load(mcpUrl, { seconds: 2, headers: mcpHeaders, method: 'POST', body });
  const mcp = await load(mcpUrl, { seconds: SECONDS, headers: mcpHeaders, method: 'POST', body });
  const r = ratio(mcp.requestsPerSec, rest.requestsPerSec);
  return {
    title: 'MCP tools/call get_fund_overview vs GET /fund/overview (issue 7; target ratio ≥ 0.8)',
    lines: [
      `autocannon, 50 connections, ${SECONDS} s each, platform key (limits raised, still counted), same run.`,
      `| target | req/s | p50 ms | p99 ms | non-2xx |`,
      `| --- | --- | --- | --- | --- |`,
      `| GET /api/v1/fund/overview | ${rest.requestsPerSec} | ${rest.latencyP50Ms} | ${rest.latencyP99Ms} | ${rest.non2xx} |`,
      `| POST /api/mcp tools/call get_fund_overview | ${mcp.requestsPerSec} | ${mcp.latencyP50Ms} | ${mcp.latencyP99Ms} | ${mcp.non2xx} |`,
      ``,
      `ratio: **${r}** (${r >= 0.8 ? 'meets' : 'MISSES'} the 0.8 target)`,
    ],
  };
}

async function benchReadApi(db: DataSource): Promise<Section> {
  await ensureDemoFund(db);
  const minted = await mintPlatformKey(db, ['fund:read'], 'demo');
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(BARE_PORT), DATABASE_URL }, `http://127.0.0.1:${BARE_PORT}/bare-db`);
  try {
    await load(`http://127.0.0.1:${BARE_PORT}/bare-db`, { seconds: 2 });
    const baseline = await load(`http://127.0.0.1:${BARE_PORT}/bare-db`, { seconds: SECONDS });
    const { overview, positions } = await benchFundData(`http://127.0.0.1:${API_PORT}`, minted.key, SECONDS);
    const ro = ratio(overview.requestsPerSec, baseline.requestsPerSec);
    const rp = ratio(positions.requestsPerSec, baseline.requestsPerSec);
    return {
      title: 'GET /fund/overview and /fund/positions vs a bare Fastify route running one PostgreSQL query (issue 4; target ratio ≥ 0.5)',
      lines: [
        `autocannon, 50 connections, ${SECONDS} s each, platform key (limits raised, still counted), demo fund, same run.`,
        `| target | req/s | p50 ms | p99 ms | non-2xx |`,
        `| --- | --- | --- | --- | --- |`,
        `| bare Fastify + one PostgreSQL query | ${baseline.requestsPerSec} | ${baseline.latencyP50Ms} | ${baseline.latencyP99Ms} | ${baseline.non2xx} |`,
        `| GET /api/v1/fund/overview | ${overview.requestsPerSec} | ${overview.latencyP50Ms} | ${overview.latencyP99Ms} | ${overview.non2xx} |`,
        `| GET /api/v1/fund/positions | ${positions.requestsPerSec} | ${positions.latencyP50Ms} | ${positions.latencyP99Ms} | ${positions.non2xx} |`,
        ``,
        `ratios: overview **${ro}**, positions **${rp}** (${Math.min(ro, rp) >= 0.5 ? 'meet' : 'MISS'} the 0.5 target)`,
      ],
    };
  } finally {
    await stopProcess(bare);
  }
}

async function benchCalc(): Promise<Section> {
  const r = await benchCalculators(`http://127.0.0.1:${API_PORT}`, { seconds: Math.min(SECONDS, 5) });
  return {
    title: 'Calculators under load (issue 5; target p99 < 20 ms at 10 concurrent requests)',
    lines: ['autocannon, 10 connections; JSON of the measured figures:', '```json', JSON.stringify(r, null, 2), '```'],
  };
}

async function benchLargeFund(db: DataSource): Promise<Section> {
  const slug = 'bench-1000000';
  const fund = await db.query('SELECT id FROM funds WHERE slug = $1', [slug]);
  if (fund.length === 0) throw new Error(`run "npm run bench -- --only books" first: it builds the ${slug} fund`);
  await prepareLargeFund(db);
  const minted = await mintPlatformKey(db, ['fund:read'], slug);
  const base = `http://127.0.0.1:${API_PORT}`;
  const trades = await benchTradesDepth(base, minted.key, db, { fundId: fund[0].id, cursorSecret: loadConfig({ ...process.env, DATABASE_URL }).cursorSecret });
  const journal = await benchJournalWindow(base, minted.key, db, { fundId: fund[0].id });
  return {
    title: 'Trades deep page and journal window on the 1 000 000-trade fund (issue 4)',
    lines: [
      `trades: ${trades.trades} live trades; median first page ${trades.firstPageMedianMs} ms, page ${trades.depth} rows deep ${trades.deepPageMedianMs} ms: ratio **${trades.ratio}** (target ≤ 1.5)`,
      `journal entries: ${journal.journalLines} journal lines in the fund; 92-day window ${journal.from}..${journal.to} (${journal.windowLines} lines, exact sums): median **${journal.medianMs} ms** (target < 300 ms)`,
    ],
  };
}

async function main(): Promise<void> {
  // Default: the quick sections. `--only books,large` builds and measures the 1 000 000-trade fund (many minutes).
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : ['me', 'read', 'mcp', 'calc', 'webhooks'];
  const want = (name: string) => only.includes(name);
  const sections: Section[] = [];
  if (want('books')) sections.push(await benchBooks({ databaseUrl: DATABASE_URL }));
  await migrate(DATABASE_URL, 'up');
  const db = createDataSource(DATABASE_URL, 4);
  await db.initialize();
  const api = await startProcess('src/main.ts', {
    PORT: String(API_PORT), HOST: '127.0.0.1', DATABASE_URL, REDIS_URL, LOG_LEVEL: 'warn',
    RATE_LIMITS: JSON.stringify({ 'fund-minute': { platform: 100_000_000 }, 'calc-daily': { platform: 100_000_000, free: 100_000_000 }, 'propose-minute': { platform: 100_000_000 } }),
  }, `http://127.0.0.1:${API_PORT}/health`);
  try {
    if (want('me')) sections.push(await benchMe(db));
    if (want('read')) sections.push(await benchReadApi(db));
    if (want('mcp')) sections.push(await benchMcp(db));
    if (want('calc')) sections.push(await benchCalc());
    if (want('large')) sections.push(await benchLargeFund(db));
  } finally {
    await stopProcess(api);
    await db.destroy();
  }
  if (want('webhooks')) {
    const w = await benchWebhooks({ databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, port: API_PORT + 10 });
    sections.push({ title: w.title, lines: w.lines });
  }
  const stamp = new Date().toISOString();
  const text = sections.map((s) => `## ${s.title}\n\n${s.lines.join('\n')}\n`).join('\n');
  process.stdout.write(text + '\n');
  const file = join(__dirname, '..', 'docs', 'performance.md');
  const header = '# Performance\n\nFigures written by `npm run bench` (each a ratio against a baseline measured in the same run). Machine: 2 cores, 24 GiB.\n';
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const kept = previous.split(/\n(?=## )/).filter((block) => !sections.some((s) => block.startsWith(`## ${s.title}`)));
  writeFileSync(file, [...kept, ...sections.map((s) => `## ${s.title}\n\n_Measured ${stamp}._\n\n${s.lines.join('\n')}\n`)].join('\n'));
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
