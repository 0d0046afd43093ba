import Decimal from 'decimal.js';
import { bootApp, createFund, dbOf, type TestApp } from '../utils/app';
import { DEMO_SLUG, OTHER_SLUG, fundKey, get, seedFundsOnce } from './fixtures';

jest.setTimeout(240_000);

/** Where a listing keeps its rows and its paging members. */
interface Shape {
  items: 'items' | 'lines';
  paging: 'page' | null;
}
const PAGED: Shape = { items: 'items', paging: 'page' };
const FLAT: Shape = { items: 'items', paging: null };
const LINES: Shape = { items: 'lines', paging: null };

type Row = Record<string, string>;
interface Paging {
  total?: number;
  nextCursor: string | null;
  hasMore: boolean;
}
/** The members of the paged answers these tests read. */
interface Body extends Partial<Paging> {
  items?: Row[];
  lines?: Row[];
  page?: Paging;
  totals?: unknown;
  account?: unknown;
  from?: string;
  to?: string;
  openingBalance?: string;
  closingBalance?: string;
}
const rowsOf = (b: Body, shape: Shape): Row[] => b[shape.items] ?? [];
const lastRunning = (b: Body): string | undefined => b.lines?.at(-1)?.runningBalance;

const JOURNAL = '/api/v1/fund/ledger/journal-entries?from=2026-08-01&to=2026-10-31';
const GL = '/api/v1/fund/ledger/gl-detail?accountCode=1000&from=2026-08-01&to=2026-10-31';

describe('cursor pages on every fund-data listing (e2e)', () => {
  let app: TestApp;
  let key: string;
  let otherKey: string;
  let demoId: string;

  beforeAll(async () => {
    app = await bootApp({ liveCacheSeconds: 0 });
    ({ demoId } = await seedFundsOnce(app));
    key = await fundKey(app, DEMO_SLUG);
    otherKey = await fundKey(app, OTHER_SLUG);
  });
  afterAll(() => app.close());

  const withCursor = (url: string, cursor: string | null) =>
    cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url;
  const pagingOf = (body: Body, shape: Shape): Paging => (shape.paging ? body[shape.paging] : body) as Paging;

  /** Follows nextCursor to the end (from `from` when given); every page's hasMore agrees with its nextCursor. */
  async function walk(url: string, shape: Shape, k = key, from: string | null = null) {
    const bodies: Body[] = [];
    let cursor: string | null = from;
    for (let i = 0; i < 2000; i++) {
      const res = await get(app, withCursor(url, cursor), k);
      expect({ url, status: res.status, problem: res.status === 200 ? null : res.json }).toEqual({
        url,
        status: 200,
        problem: null,
      });
      const body = res.json as Body;
      const paging = pagingOf(body, shape);
      expect(paging.hasMore).toBe(paging.nextCursor !== null);
      bodies.push(body);
      if (!paging.hasMore) break;
      cursor = paging.nextCursor;
    }
    return { bodies, rows: bodies.flatMap((b) => rowsOf(b, shape)) };
  }

  /** The whole listing in one answer (it must fit: hasMore false). */
  async function whole(url: string, shape: Shape) {
    const body = (await get(app, url, key)).json as Body;
    expect(pagingOf(body, shape).hasMore).toBe(false);
    return body;
  }

  const LISTINGS: [string, string, Shape, (r: Row) => string][] = [
    ['expenses', '/api/v1/fund/expenses?', PAGED, (r) => r.id],
    ['investors', '/api/v1/fund/investors?', PAGED, (r) => r.investorId],
    ['capital-activity', '/api/v1/fund/capital-activity?', PAGED, (r) => r.id],
    ['capital-activity settled', '/api/v1/fund/capital-activity?status=settled', PAGED, (r) => r.id],
    ['lp-reports', '/api/v1/fund/lp-reports?', PAGED, (r) => r.id],
    ['nav reconciliation', '/api/v1/fund/nav/reconciliation?', FLAT, (r) => r.valuationDate],
    ['nav history (a year)', '/api/v1/fund/nav/history?from=2025-01-01&to=2025-12-31', FLAT, (r) => r.navRunId],
  ];

  it.each(LISTINGS)(
    '%s: the pages together are the whole listing, in order, no gap, no duplicate',
    async (_name, url, shape, id) => {
      const all = await whole(`${url}&limit=1000`, shape);
      const allIds = rowsOf(all, shape).map(id);
      const { bodies, rows } = await walk(`${url}&limit=3`, shape);
      expect(allIds.length).toBeGreaterThan(6);
      expect(bodies.length).toBe(Math.ceil(allIds.length / 3));
      expect(rows.map(id)).toEqual(allIds);
      expect(new Set(rows.map(id)).size).toBe(rows.length);
      // The whole listing's count on every page.
      for (const b of bodies) if (shape.paging) expect(b.page?.total).toBe(allIds.length);
      if (!shape.paging && 'total' in all) for (const b of bodies) expect(b.total).toBe(allIds.length);
    },
  );

  it('nav history: all runs of the fund (more than 1000) in (valuationDate, createdAt, id) desc order', async () => {
    const { rows } = await walk('/api/v1/fund/nav/history?limit=400', FLAT);
    const sql = await dbOf(app).query(
      `SELECT id::text FROM nav_runs WHERE fund_id = $1 ORDER BY valuation_date DESC, started_at DESC, id DESC`,
      [demoId],
    );
    expect(sql.length).toBeGreaterThan(1000);
    expect(rows.map((r) => r.navRunId)).toEqual(sql.map((r: { id: string }) => r.id));
  });

  it('journal entries: every line of a window larger than 1000 lines once, in order; totals are the whole window on every page', async () => {
    const { bodies, rows } = await walk(`${JOURNAL}&limit=1000`, LINES);
    const ids = await dbOf(app).query(
      // ordered by the bigint id: `ORDER BY id` over `SELECT id::text` would sort the text output column
      `SELECT id::text AS line_id FROM journal_lines WHERE fund_id = $1 AND entry_date BETWEEN '2026-08-01' AND '2026-10-31' ORDER BY entry_date, journal_lines.id`,
      [demoId],
    );
    const sums = (
      await dbOf(app).query(
        `SELECT count(*)::int AS n, sum(debit)::text AS d, sum(credit)::text AS c FROM journal_lines WHERE fund_id = $1 AND entry_date BETWEEN '2026-08-01' AND '2026-10-31'`,
        [demoId],
      )
    )[0];
    expect(ids.length).toBeGreaterThan(1000);
    expect(bodies.length).toBe(Math.ceil(ids.length / 1000));
    expect(rows.map((l) => l.lineId)).toEqual(ids.map((r: { line_id: string }) => r.line_id));
    for (const b of bodies) {
      expect(b.totals).toEqual({
        lineCount: ids.length,
        debits: new Decimal(sums.d).toFixed(2),
        credits: new Decimal(sums.c).toFixed(2),
      });
      expect([b.from, b.to]).toEqual(['2026-08-01', '2026-10-31']);
    }
  });

  it("GL detail: each page opens at the previous page's last running balance; the last reaches the closing balance", async () => {
    const all = await whole(`${GL}&limit=1000`, LINES);
    const { bodies, rows } = await walk(`${GL}&limit=4`, LINES);
    const allLines = rowsOf(all, LINES);
    expect(allLines.length).toBeGreaterThan(12);
    expect(bodies.length).toBe(Math.ceil(allLines.length / 4));
    expect(rows).toEqual(all.lines);
    expect(bodies[0].openingBalance).toBe(all.openingBalance);
    let running = new Decimal(all.openingBalance ?? 'NaN');
    for (const [i, b] of bodies.entries()) {
      if (i > 0) expect(b.openingBalance).toBe(lastRunning(bodies[i - 1]));
      expect(b.openingBalance).toBe(running.toFixed(2));
      for (const l of rowsOf(b, LINES)) {
        running = running.plus(l.debit).minus(l.credit);
        expect(l.runningBalance).toBe(running.toFixed(2));
      }
      expect([b.account, b.from, b.to, b.closingBalance]).toEqual([
        all.account,
        '2026-08-01',
        '2026-10-31',
        all.closingBalance,
      ]);
    }
    expect(lastRunning(bodies[bodies.length - 1])).toBe(all.closingBalance);
  });

  it('GL detail without from/to: later pages keep the window the first page resolved', async () => {
    const first = (await get(app, '/api/v1/fund/ledger/gl-detail?accountCode=1000&limit=2', key)).json as Body;
    expect(first.hasMore).toBe(true);
    const next = (
      await get(
        app,
        withCursor('/api/v1/fund/ledger/gl-detail?accountCode=1000&limit=2', first.nextCursor ?? null),
        key,
      )
    ).json as Body;
    expect([next.from, next.to, next.openingBalance]).toEqual([first.from, first.to, lastRunning(first)]);
  });

  const expectCursorRefused = async (url: string, k = key) => {
    const res = await get(app, url, k);
    expect({
      url,
      status: res.status,
      code: res.json.code,
      fields: res.json.errors?.map((e: { field: string }) => e.field),
    }).toEqual({ url, status: 400, code: 'invalid_parameter', fields: ['cursor'] });
  };
  const firstCursor = async (url: string, shape: Shape, k = key): Promise<string> => {
    const c = pagingOf((await get(app, url, k)).json as Body, shape).nextCursor;
    expect(c).toEqual(expect.any(String));
    return c ?? '';
  };

  it('before the first complete NAV run there is no live book (trades alone would show cash spent that never came in)', async () => {
    const fund = await createFund(app);
    const db = dbOf(app);
    await db.query(
      `WITH c AS (INSERT INTO connections (id, fund_id, code, name, venue, source_type, mode)
                  VALUES (gen_random_uuid(), $1, 'ex', 'Exchange', 'Ex', 'exchange', 'live') RETURNING id),
            i AS (INSERT INTO instruments (id, fund_id, symbol, name, asset_class, currency)
                  VALUES (gen_random_uuid(), $1, 'BTC', 'Bitcoin', 'crypto', 'USD') RETURNING id)
       INSERT INTO trades (fund_id, external_id, executed_at, trade_date, connection_id, instrument_id, side, quantity, price, fee, fee_currency)
       SELECT $1, 'T1', '2026-03-01T10:00:00Z', '2026-03-01', c.id, i.id, 'buy', 10, 60000, 30, 'USD' FROM c, i`,
      [fund.id],
    );
    const body = (await get(app, '/api/v1/fund/positions', await fundKey(app, fund.slug))).json as {
      positions: unknown[];
      totalMarketValue: string;
    };
    expect([body.positions, body.totalMarketValue]).toEqual([[], '0.00']);
  });

  it("expenses and investors resume after the cursor's row is gone: the position travels in the cursor", async () => {
    const fund = await createFund(app);
    const db = dbOf(app);
    await db.query(
      `INSERT INTO expenses (id, fund_id, external_id, category, vendor, description, accrual_date, period_end, amount, currency, status)
       SELECT gen_random_uuid(), $1, 'EXP-' || n, 'audit', 'v', 'd', date '2026-03-01' - n, date '2026-03-31', 10, 'USD', 'accrued'
         FROM generate_series(1, 3) n`,
      [fund.id],
    );
    await db.query(
      `INSERT INTO investors (id, fund_id, external_id, display_name, investor_type, status, legal_name, email, postal_address, tax_id)
       SELECT gen_random_uuid(), $1, 'INV-' || n, 'Investor ' || n, 'individual', 'active', 'x', 'x@example.com', 'x', 'x'
         FROM generate_series(1, 3) n`,
      [fund.id],
    );
    const k = await fundKey(app, fund.slug);
    const cases: [string, string, (r: Row) => string, string][] = [
      ['/api/v1/fund/expenses?limit=1', 'expenses', (r) => r.id, 'id'],
      ['/api/v1/fund/investors?limit=1', 'investors', (r) => r.investorId, 'id'],
    ];
    for (const [url, table, id, column] of cases) {
      const first = (await get(app, url, k)).json as Body;
      const all = ((await get(app, url.replace('limit=1', 'limit=10'), k)).json as Body).items!.map(id);
      expect(all).toHaveLength(3);
      expect(first.items!.map(id)).toEqual([all[0]]);
      await db.query(`DELETE FROM ${table} WHERE ${column} = $1`, [all[0]]); // e.g. a re-import dropped it
      const { rows } = await walk(url, PAGED, k, first.page!.nextCursor);
      expect(rows.map(id)).toEqual(all.slice(1)); // before: an empty page with hasMore false
    }
  });

  it('forged, foreign and mismatched cursors → 400 naming cursor', async () => {
    const urls: [string, Shape][] = [
      ['/api/v1/fund/expenses?limit=1', PAGED],
      ['/api/v1/fund/investors?limit=1', PAGED],
      ['/api/v1/fund/capital-activity?limit=1', PAGED],
      ['/api/v1/fund/lp-reports?limit=1', PAGED],
      ['/api/v1/fund/nav/history?limit=1', FLAT],
      ['/api/v1/fund/nav/reconciliation?limit=1', FLAT],
      [`${JOURNAL}&limit=1`, LINES],
      [`${GL}&limit=1`, LINES],
    ];
    const cursors: string[] = [];
    for (const [url, shape] of urls) {
      const c = await firstCursor(url, shape);
      cursors.push(c);
      const [payload, mac] = c.split('.');
      const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${mac}`;
      for (const bad of [flipped, `${payload}.${'A'.repeat(mac.length)}`, 'not-a-cursor', `${c}.x`])
        await expectCursorRefused(withCursor(url, bad));
    }
    // Each listing's cursor is refused by every other listing.
    for (const [i, [url]] of urls.entries())
      await expectCursorRefused(withCursor(url, cursors[(i + 1) % cursors.length]));
    // Another fund's cursor (same listing, same parameters) is refused.
    for (const [url, shape] of urls.slice(0, 6))
      await expectCursorRefused(withCursor(url, await firstCursor(url, shape, otherKey)));
  });

  it("a cursor is bound to the listing's filters: window, account, status", async () => {
    const journal = await firstCursor(`${JOURNAL}&limit=1`, LINES);
    await expectCursorRefused(
      withCursor('/api/v1/fund/ledger/journal-entries?from=2026-08-02&to=2026-10-31&limit=1', journal),
    );
    const gl = await firstCursor(`${GL}&limit=1`, LINES);
    await expectCursorRefused(
      withCursor('/api/v1/fund/ledger/gl-detail?accountCode=1100&from=2026-08-01&to=2026-10-31&limit=1', gl),
    );
    await expectCursorRefused(withCursor('/api/v1/fund/ledger/gl-detail?accountCode=1000&from=2026-08-01&limit=1', gl));
    const settled = await firstCursor('/api/v1/fund/capital-activity?status=settled&limit=1', PAGED);
    await expectCursorRefused(withCursor('/api/v1/fund/capital-activity?limit=1', settled));
    const year = await firstCursor('/api/v1/fund/nav/history?from=2025-01-01&limit=1', FLAT);
    await expectCursorRefused(withCursor('/api/v1/fund/nav/history?limit=1', year));
  });
});
