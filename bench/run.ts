import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { loadConfig } from '../src/config/config';
import { createDataSource } from '../src/database/data-source';
import { migrate } from '../src/database/migrate';
import { startProcess, stopProcess } from './harness';
import { seedDemoFund } from '../src/fund/import/seed-demo-fund';
import { mintPlatformKey } from './bench-keys';
import { benchBooks } from './books.bench';
import { benchQueryPlans } from './query-plans';
import { benchJournalWindow, benchTradesDepth, prepareLargeFund } from './fund-data.bench';
import { glDetailTrips, measureRun, type TableContext } from './issue-table.bench';
import { judge, tableMarkdown, type RunValues } from './table';

/**
 * `npm run bench`: every row of the issue-17 table, BENCH_RUNS (default 3) times, each ratio
 * against a baseline measured in the same run on the same machine; writes the table with its
 * noise band into docs/performance.md and exits 1 when a row misses its bar by more than the band.
 * `npm run bench -- --only books,large`: the 1 000 000-trade fund figures (many minutes).
 * `npm run bench -- --only plans` (after books): every read route's statements and their plans on that fund.
 */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const API_PORT = 3901;
const BARE_PORT = 3902;
const NEST_PORT = 3903;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DOC = join(__dirname, '..', 'docs', 'performance.md');
const BEGIN = '<!-- bench:table (written by npm run bench) -->';
const END = '<!-- /bench:table -->';

type Section = { title: string; lines: string[] };

/** The demo fund's books in the bench database (seeded once; later runs reuse them). */
async function ensureDemoFund(db: DataSource): Promise<void> {
  const rows = await db.query(
    `SELECT count(*)::int AS n FROM nav_runs r JOIN funds f ON f.id = r.fund_id WHERE f.slug = 'demo' AND r.status = 'complete'`,
  );
  if (rows[0].n > 0) return;
  await seedDemoFund(db, { slug: 'demo' });
}

async function benchLargeFund(db: DataSource): Promise<Section> {
  const slug = 'bench-1000000';
  const fund = await db.query('SELECT id FROM funds WHERE slug = $1', [slug]);
  if (fund.length === 0) throw new Error(`run "npm run bench -- --only books" first: it builds the ${slug} fund`);
  await prepareLargeFund(db);
  const minted = await mintPlatformKey(db, DATABASE_URL, ['fund:read'], slug);
  const base = `http://127.0.0.1:${API_PORT}`;
  const trades = await benchTradesDepth(base, minted.key, db, {
    fundId: fund[0].id,
    cursorSecret: loadConfig({ ...process.env, DATABASE_URL }).cursorSecret,
  });
  const journal = await benchJournalWindow(base, minted.key, db, { fundId: fund[0].id });
  return {
    title: 'Trades deep page and journal window on the 1 000 000-trade fund (issue 4)',
    lines: [
      `trades: ${trades.trades} live trades; median first page ${trades.firstPageMedianMs} ms, page ${trades.depth} rows deep ${trades.deepPageMedianMs} ms: ratio **${trades.ratio}** (target ≤ 1.5)`,
      `journal entries: ${journal.journalLines} journal lines in the fund; 92-day window ${journal.from}..${journal.to} (${journal.windowLines} lines, exact sums): median **${journal.medianMs} ms** (target < 300 ms)`,
    ],
  };
}

async function legacySections(only: string[]): Promise<void> {
  const sections: Section[] = [];
  if (only.includes('books')) sections.push(await benchBooks({ databaseUrl: DATABASE_URL }));
  if (only.includes('plans')) sections.push(await benchQueryPlans({ databaseUrl: DATABASE_URL, redisUrl: REDIS_URL }));
  if (only.includes('large')) {
    await migrate(DATABASE_URL, 'up');
    const db = createDataSource(DATABASE_URL, 4);
    await db.initialize();
    const api = await startProcess(
      'src/main.ts',
      {
        PORT: String(API_PORT),
        HOST: '127.0.0.1',
        DATABASE_URL,
        REDIS_URL,
        LOG_LEVEL: 'warn',
        RATE_LIMITS: JSON.stringify({ 'fund-minute': { platform: 100_000_000 } }),
      },
      `http://127.0.0.1:${API_PORT}/health`,
    );
    try {
      sections.push(await benchLargeFund(db));
    } finally {
      await stopProcess(api);
      await db.destroy();
    }
  }
  const stamp = new Date().toISOString();
  process.stdout.write(sections.map((sec) => `## ${sec.title}\n\n${sec.lines.join('\n')}\n`).join('\n'));
  const previous = readFileSync(DOC, 'utf8');
  const kept = previous
    .split(/\n(?=## )/)
    .filter((block) => !sections.some((sec) => block.startsWith(`## ${sec.title}`)));
  writeFileSync(
    DOC,
    [...kept, ...sections.map((sec) => `## ${sec.title}\n\n_Measured ${stamp}._\n\n${sec.lines.join('\n')}\n`)].join(
      '\n',
    ),
  );
}

async function table(): Promise<boolean> {
  await migrate(DATABASE_URL, 'up');
  const db = createDataSource(DATABASE_URL, 4);
  await db.initialize();
  await ensureDemoFund(db);
  const meKey = (await mintPlatformKey(db, DATABASE_URL, ['fund:read'], null)).key;
  const fundKey = (await mintPlatformKey(db, DATABASE_URL, ['fund:read'], 'demo')).key;
  const limits = JSON.stringify({
    'fund-minute': { platform: 100_000_000 },
    'calc-daily': { platform: 100_000_000, free: 100_000_000 },
  });
  const api = await startProcess(
    'src/main.ts',
    {
      PORT: String(API_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      APP_ROLE: 'api',
      RATE_LIMITS: limits,
    },
    `http://127.0.0.1:${API_PORT}/health`,
  );
  const meBody = await (
    await fetch(`http://127.0.0.1:${API_PORT}/api/v1/me`, { headers: { authorization: `Bearer ${meKey}` } })
  ).text();
  const bare = await startProcess(
    'bench/bare-server.ts',
    { PORT: String(BARE_PORT), DATABASE_URL, BARE_BODY: meBody },
    `http://127.0.0.1:${BARE_PORT}/bare`,
  );
  const nest = await startProcess(
    'bench/nest-ceiling.ts',
    { PORT: String(NEST_PORT), BARE_BODY: meBody },
    `http://127.0.0.1:${NEST_PORT}/health`,
  );
  const ctx: TableContext = {
    api: `http://127.0.0.1:${API_PORT}`,
    bare: `http://127.0.0.1:${BARE_PORT}`,
    nest: `http://127.0.0.1:${NEST_PORT}`,
    meKey,
    fundKey,
    seconds: SECONDS,
    databaseUrl: DATABASE_URL,
    redisUrl: REDIS_URL,
    webhookPort: API_PORT + 10,
  };
  const runs: RunValues[] = [];
  const details: string[] = [];
  let trips: Awaited<ReturnType<typeof glDetailTrips>> | undefined;
  try {
    for (let i = 1; i <= RUNS; i++) {
      // the webhook phase starts its own APP_ROLE=all process; this one (APP_ROLE=api) never takes outbox rows
      const { values, lines } = await measureRun(ctx, !process.argv.includes('--no-webhooks'));
      runs.push(values);
      details.push(`### Run ${i} of ${RUNS}`, '', ...lines, '');
      process.stdout.write(`run ${i}: ${JSON.stringify(values)}\n`);
    }
    trips = await glDetailTrips(ctx, db, API_PORT + 20);
  } finally {
    await stopProcess(api);
    await stopProcess(bare);
    await stopProcess(nest);
    await db.destroy();
  }
  for (const r of runs) r.glDetailTrips = trips?.trips;
  const results = judge(runs);
  const stamp = new Date().toISOString();
  const block = [
    BEGIN,
    `_Measured ${stamp}: ${RUNS} runs, ${SECONDS} s per load, load average at start ${LOAD_AT_START}._`,
    '',
    ...tableMarkdown(results),
    '',
    trips?.line ?? '',
    '',
    '<details><summary>Figures of each run</summary>',
    '',
    ...details,
    '</details>',
    END,
  ].join('\n');
  const previous = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n';
  const next = previous.includes(BEGIN)
    ? previous.slice(0, previous.indexOf(BEGIN)) + block + previous.slice(previous.indexOf(END) + END.length)
    : `${previous}\n${block}\n`;
  writeFileSync(DOC, next);
  process.stdout.write(`${tableMarkdown(results).join('\n')}\n`);
  return results.every((r) => r.verdict !== 'MISSES');
}

const LOAD_AT_START = (() => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
})();

async function main(): Promise<void> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
  if (only) return legacySections(only);
  const ok = await table();
  if (!ok) {
    process.stderr.write('bench: a bar was missed by more than its noise band (see docs/performance.md)\n');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
