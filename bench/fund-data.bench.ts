import { type DataSource } from 'typeorm';
import { tradesCursorKind } from '../src/fund-data/trades/trades.service';
import { CursorCodec } from '../src/common/pagination/cursor';

/**
 * Fund read API benchmarks on the 1 000 000-trade fund (issue 4), run by `npm run bench -- --only
 * large`; each returns raw figures.
 */

/**
 * After a bulk load the tables have no planner statistics and no visibility map until
 * autovacuum runs (and autovacuum may be off, as on this CI machine). The trades and journal
 * pages do not depend on statistics (ordered index walks), but the journal window sums are read
 * from the covering index only once the visibility map is set (measured on 3.4 M lines: 160 ms
 * median without, 61 ms with). Calling this after seeding a large fund measures what production
 * (autovacuum on) sees; say which one you report.
 */
export async function prepareLargeFund(db: DataSource): Promise<void> {
  for (const table of [
    'trades',
    'journal_lines',
    'journal_entries',
    'nav_runs',
    'nav_run_positions',
    'nav_run_assets',
    'prices',
    'connections',
    'instruments',
  ]) {
    await db.query(`VACUUM (ANALYZE) ${table}`);
  }
}

async function medianLatencyMs(url: string, key: string, samples: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples + 3; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= 3) times.push(Number(process.hrtime.bigint() - started) / 1e6); // first 3 are warm-up
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 100) / 100;
}

export interface TradesDepthResult {
  trades: number;
  depth: number;
  firstPageMedianMs: number;
  deepPageMedianMs: number;
  ratio: number;
}

/**
 * Trades first page vs a page `depth` rows deep (limit 100). The deep cursor is minted with the
 * service's cursor secret from the row at that depth, exactly as the service would have issued
 * it after walking there (walking 9 000 pages first would only measure the walk).
 */
export async function benchTradesDepth(
  baseUrl: string,
  key: string,
  db: DataSource,
  opts: { fundId: string; cursorSecret: string; depth?: number; samples?: number },
): Promise<TradesDepthResult> {
  const depth = opts.depth ?? 900_000;
  const samples = opts.samples ?? 30;
  const total = (
    await db.query(
      `SELECT count(*)::int AS n FROM trades t JOIN connections c ON c.id = t.connection_id AND c.mode = 'live' WHERE t.fund_id = $1`,
      [opts.fundId],
    )
  )[0].n;
  if (total <= depth)
    throw new Error(`the fund has ${total} live trades; a page ${depth} deep needs more (seed with --trades)`);
  const at = await db.query(
    `SELECT t.id::text AS id, to_char(t.executed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts
       FROM trades t JOIN connections c ON c.id = t.connection_id AND c.mode = 'live'
      WHERE t.fund_id = $1 ORDER BY t.executed_at DESC, t.id DESC OFFSET $2 LIMIT 1`,
    [opts.fundId, depth - 1],
  );
  const cursor = new CursorCodec(opts.cursorSecret).encode(tradesCursorKind({}), {
    f: opts.fundId,
    t: at[0].ts,
    i: at[0].id,
  });
  const firstPageMedianMs = await medianLatencyMs(`${baseUrl}/api/v1/fund/trades?limit=100`, key, samples);
  const deepPageMedianMs = await medianLatencyMs(
    `${baseUrl}/api/v1/fund/trades?limit=100&cursor=${encodeURIComponent(cursor)}`,
    key,
    samples,
  );
  return {
    trades: total,
    depth,
    firstPageMedianMs,
    deepPageMedianMs,
    ratio: Math.round((deepPageMedianMs / firstPageMedianMs) * 1000) / 1000,
  };
}

export interface JournalWindowResult {
  journalLines: number;
  windowLines: number;
  from: string;
  to: string;
  medianMs: number;
}

/** Median latency of a 92-day journal-entries window (the fund's last 92 days of entries), exact sums included. */
export async function benchJournalWindow(
  baseUrl: string,
  key: string,
  db: DataSource,
  opts: { fundId: string; samples?: number },
): Promise<JournalWindowResult> {
  const stats = (
    await db.query(
      `SELECT count(*)::int AS n, to_char(max(entry_date), 'YYYY-MM-DD') AS last FROM journal_lines WHERE fund_id = $1`,
      [opts.fundId],
    )
  )[0];
  const to: string = stats.last;
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 92 * 86_400_000).toISOString().slice(0, 10);
  const url = `${baseUrl}/api/v1/fund/ledger/journal-entries?from=${from}&to=${to}&limit=100`;
  const medianMs = await medianLatencyMs(url, key, opts.samples ?? 20);
  const body = (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    lineCount: number;
  };
  return { journalLines: stats.n, windowLines: body.lineCount, from, to, medianMs };
}
