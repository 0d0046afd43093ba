import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type Redis from 'ioredis';
import { type DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/config';
import { createDataSource } from '../src/database/data-source';
import { migrate } from '../src/database/migrate';
import { REDIS } from '../src/redis/redis.module';
import { mintPlatformKey } from './bench-keys';
import { SqlRecorder, type RecordedStatement } from './sql-recorder';
import {
  cell,
  describe,
  problems,
  shortParams,
  shortSql,
  SLOW_MS,
  summarizePlan,
  type PlanSummary,
} from './plan-report';

/**
 * `npm run bench -- --only plans`: every fund-data read route called once, in process, on the
 * 1 000 000-trade fund; the statements each sends (node-postgres calls, with their parameters and
 * the transaction's SET LOCAL settings) re-run under EXPLAIN (ANALYZE, BUFFERS); a summary per
 * route for docs/performance.md and the full plans in docs/query-plans.md.
 */
export const PLANS_TITLE = 'Query plans on the 1 000 000-trade fund';
const SLUG = 'bench-1000000';
const FULL_PLANS = join(__dirname, '..', 'docs', 'query-plans.md');

interface Params {
  journalFrom: string;
  journalTo: string;
  glAccount: string;
  preset: string | null;
  attributionDate: string | null;
}

interface RouteCall {
  path: (p: Params) => string;
  /** Reads what a later route needs from this one's answer. */
  feeds?: (body: Record<string, unknown>, p: Params) => void;
}

/** The 25 read routes (OpenAPI: GET /api/v1/fund/*) with the parameters a client typically sends. */
const ROUTES: RouteCall[] = [
  { path: () => 'overview' },
  { path: () => 'fee-terms' },
  { path: () => 'positions' },
  { path: () => 'breakdown' },
  { path: () => 'exposure' },
  { path: () => 'exposure/series?days=365' },
  { path: () => 'risk/var?method=sample&confidence=0.99&horizonDays=1&windowDays=250' },
  {
    path: () => 'risk/stress-presets',
    feeds: (b, p) => (p.preset = (b.items as { id: string }[])[0]?.id ?? null),
  },
  { path: (p) => `risk/stress-test?preset=${p.preset}` },
  { path: () => 'performance' },
  {
    path: () => 'pnl/attribution-dates',
    feeds: (b, p) => (p.attributionDate = (b.latest as string | null) ?? null),
  },
  { path: (p) => `pnl/attribution?date=${p.attributionDate}` },
  { path: () => 'trial-balance' },
  { path: (p) => `ledger/journal-entries?from=${p.journalFrom}&to=${p.journalTo}&limit=100` },
  { path: (p) => `ledger/gl-detail?accountCode=${p.glAccount}&limit=100` },
  { path: () => 'ledger/accounts' },
  { path: () => 'investors' },
  { path: () => 'capital-accounts' },
  { path: () => 'capital-activity' },
  { path: () => 'expenses' },
  { path: () => 'dealing-calendar' },
  { path: () => 'lp-reports' },
  { path: () => 'trades?limit=100' },
  { path: () => 'nav/history' },
  { path: () => 'nav/reconciliation' },
];

export interface ExplainedStatement extends RecordedStatement {
  /** How many times the route sent this statement with these parameters. */
  times: number;
  plan: string[];
  summary: PlanSummary;
}

export interface PlansResult {
  statements: ExplainedStatement[];
  routes: { route: string; status: number; ms: number }[];
  params: Params;
}

/** Typical parameters of the fund: its last 92 days of entries, and the account with most lines in them. */
async function typicalParams(db: DataSource, fundId: string): Promise<Params> {
  const [last] = await db.query(
    `SELECT to_char(max(entry_date), 'YYYY-MM-DD') AS d FROM journal_lines WHERE fund_id = $1`,
    [fundId],
  );
  const journalTo: string = last.d;
  const journalFrom = new Date(Date.parse(`${journalTo}T00:00:00Z`) - 92 * 86_400_000).toISOString().slice(0, 10);
  const [busiest] = await db.query(
    `SELECT account_code FROM journal_lines WHERE fund_id = $1 AND entry_date BETWEEN $2::date AND $3::date
      GROUP BY account_code ORDER BY count(*) DESC LIMIT 1`,
    [fundId, journalFrom, journalTo],
  );
  return { journalFrom, journalTo, glAccount: busiest.account_code, preset: null, attributionDate: null };
}

/** Calls every route once on an in-process app, recording the statements each one sends. */
async function recordRoutes(
  databaseUrl: string,
  redisUrl: string,
  key: string,
  fundId: string,
  params: Params,
): Promise<{ recorded: RecordedStatement[]; routes: PlansResult['routes'] }> {
  const recorder = new SqlRecorder();
  recorder.install();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    APP_ROLE: 'api',
    LIVE_CACHE_SECONDS: '0',
    RATE_LIMITS: JSON.stringify({ 'fund-minute': { platform: 100_000_000 } }),
  });
  const app = await createApp(config);
  const routes: PlansResult['routes'] = [];
  try {
    await forgetCachedAnswers(app.get<Redis>(REDIS), fundId);
    for (const call of ROUTES) {
      const path = call.path(params);
      const route = path.split('?')[0];
      const started = performance.now();
      const res = await recorder.during(route, async () => {
        const r = await app.inject({
          method: 'GET',
          url: `/api/v1/fund/${path}`,
          headers: { authorization: `Bearer ${key}` },
        });
        await new Promise((resolve) => setTimeout(resolve, 100)); // statements sent after the answer, if any
        return r;
      });
      routes.push({ route, status: res.statusCode, ms: Math.round(performance.now() - started - 100) });
      if (res.statusCode !== 200) throw new Error(`GET /api/v1/fund/${path} answered ${res.statusCode}: ${res.body}`);
      call.feeds?.(res.json<Record<string, unknown>>(), params);
    }
  } finally {
    await app.close();
    recorder.uninstall();
  }
  return { recorded: recorder.statements, routes };
}

/** Answers cached in Redis would hide the statements that compute them: drop the bench fund's. */
async function forgetCachedAnswers(redis: Redis, fundId: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `fundgate:*:fund-data:${fundId}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one recorded statement with its parameters, inside a transaction
 * opened as the app opened it and with its settings, rolled back (a write is never kept). Run
 * twice; the second (warm cache, as a repeated request finds it) is the one kept.
 */
async function explain(client: Client, s: RecordedStatement): Promise<string[]> {
  let plan: string[] = [];
  for (let i = 0; i < 2; i++) {
    await client.query(s.begin ?? 'BEGIN');
    try {
      for (const setting of s.settings) await client.query(setting);
      const res = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values);
      plan = res.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    } finally {
      await client.query('ROLLBACK');
    }
  }
  return plan;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The auth guard's statements (the key lookup, on a miss of its short in-process cache, and the
 * throttled last_used_at update) come with whichever route happens to miss: listed once, apart.
 */
const GUARD = /\bapi_keys\b/;
const GUARD_ROUTE = '(auth guard, any route)';

export async function captureQueryPlans(
  db: DataSource,
  databaseUrl: string,
  redisUrl: string,
  slug = SLUG,
  prepare = true,
): Promise<PlansResult> {
  const fund = await db.query('SELECT id FROM funds WHERE slug = $1', [slug]);
  if (fund.length === 0) throw new Error(`run "npm run bench -- --only books" first: it builds the ${slug} fund`);
  const fundId: string = fund[0].id;
  // autovacuum is off on this machine: statistics and visibility maps as autovacuum would leave them
  if (prepare) await db.query('VACUUM (ANALYZE)');
  const params = await typicalParams(db, fundId);
  const minted = await mintPlatformKey(db, databaseUrl, ['fund:read'], slug);
  const { recorded, routes } = await recordRoutes(databaseUrl, redisUrl, minted.key, fundId, params);
  const seen = new Map<string, ExplainedStatement>();
  const client = new Client({ connectionString: databaseUrl, statement_timeout: 300_000 });
  await client.connect();
  const statements: ExplainedStatement[] = [];
  try {
    for (const s of recorded) {
      const text = flat(s.text);
      const guard = GUARD.test(text);
      const route = guard ? GUARD_ROUTE : s.route;
      // the guard's statements are explained once; a statement a route repeats with the same parameters is counted
      const key = guard ? text : `${route}\n${text}\n${JSON.stringify(s.values)}`;
      const again = seen.get(key);
      if (again) {
        if (!guard) again.times++;
        continue;
      }
      const plan = await explain(client, s);
      const explained = { ...s, route, times: 1, plan, summary: summarizePlan(plan) };
      seen.set(key, explained);
      statements.push(explained);
    }
  } finally {
    await client.end();
  }
  return { statements, routes, params };
}

/** The summary lines of the docs/performance.md section. */
export function plansSection(result: PlansResult, intro: string[]): string[] {
  const lines = [
    ...intro,
    '',
    '| route | statement (shortened) | top nodes | indexes / scans | rows | ms | problem |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const order = [{ route: GUARD_ROUTE, ms: null }, ...result.routes];
  for (const { route, ms } of order) {
    const own = result.statements.filter((s) => s.route === route);
    const name = ms === null ? route : `${route} (${ms} ms)`;
    if (own.length === 0) lines.push(`| ${name} | (no statement: answered without the database) | | | | | |`);
    own.forEach((s, i) => {
      const d = describe(s.summary);
      const bad = problems(s.summary);
      const sql = `\`${cell(shortSql(s.text, 90))}\`${s.times > 1 ? ` ×${s.times}` : ''}`;
      lines.push(
        `| ${i === 0 ? name : ''} | ${sql} | ${cell(d.nodes)} | ${cell(d.access)} | ${s.summary.rows} | ${s.summary.executionMs.toFixed(2)} | ${bad.length ? `**${bad.join('; ')}**` : ''} |`,
      );
    });
  }
  return lines;
}

/** docs/query-plans.md: every statement in full with its parameters and its plan. */
export function writeFullPlans(result: PlansResult, stamp: string): void {
  const out = [
    `# ${PLANS_TITLE}: full plans`,
    '',
    `_Written by \`npm run bench -- --only plans\` (bench/query-plans.ts), ${stamp}. Summary: docs/performance.md._`,
    '',
  ];
  let route = '';
  for (const s of result.statements) {
    if (s.route !== route) out.push(`## ${s.route}`, '');
    route = s.route;
    out.push('```sql', s.text.trim(), '```', '', `Parameters: ${shortParams(s.values) || '(none)'}`);
    if (s.times > 1) out.push(`Sent ${s.times} times by the route with these parameters.`);
    if (s.begin || s.settings.length > 0)
      out.push(
        `Explained after: \`${[s.begin ?? 'BEGIN', ...s.settings].join('; ')}\` (the app's transaction and settings)`,
      );
    out.push('', '```', ...s.plan, '```', '');
  }
  writeFileSync(FULL_PLANS, `${out.join('\n')}\n`);
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

/** The section of docs/performance.md (run.ts writes it); the full plans go to docs/query-plans.md. */
export async function benchQueryPlans(opts: {
  databaseUrl: string;
  redisUrl: string;
}): Promise<{ title: string; lines: string[] }> {
  await migrate(opts.databaseUrl, 'up');
  const db = createDataSource(opts.databaseUrl, 4);
  await db.initialize();
  let result: PlansResult;
  try {
    result = await captureQueryPlans(db, opts.databaseUrl, opts.redisUrl);
  } finally {
    await db.destroy();
  }
  writeFullPlans(result, new Date().toISOString());
  const p = result.params;
  const flagged = result.statements.filter((s) => problems(s.summary).length > 0);
  const intro = [
    `\`npm run bench -- --only plans\` (bench/query-plans.ts, after \`--only books\`): after a database-wide`,
    `\`VACUUM (ANALYZE)\`, the ${ROUTES.length} read routes are called once each, in process, with a ${SLUG} key;`,
    'every statement they send through node-postgres is recorded with its parameters and the settings it ran under',
    "(the pools' startup options: `-c jit=off`, and the ordered-read pool's sort/bitmap settings), then re-run as `EXPLAIN (ANALYZE, BUFFERS)` in the same kind of",
    'transaction, rolled back; the second of two runs is kept (warm cache, as a repeated request finds it).',
    `Answers cached in Redis for this fund are dropped first and \`LIVE_CACHE_SECONDS=0\`, so every route computes.`,
    `Parameters: journal window ${p.journalFrom}..${p.journalTo} (92 days), gl-detail account ${p.glAccount} (most lines`,
    `in that window), stress preset ${p.preset}, attribution date ${p.attributionDate}, exposure series 365 days, VaR 250 days;`,
    'the other routes with their defaults. The ms after a route is its in-process answer time (cold: the first call).',
    `Load average at the start: ${loadAverage()} (2 cores, shared).`,
    `A problem is a sequential scan of journal lines, journal entries or trades, a sort of ≥ 100 000 rows, > ${SLOW_MS} ms`,
    `or a JIT-compiled plan. Full statements and plans: [docs/query-plans.md](query-plans.md). ${flagged.length} of`,
    `${result.statements.length} statements flagged.`,
  ];
  return { title: PLANS_TITLE, lines: plansSection(result, intro) };
}
