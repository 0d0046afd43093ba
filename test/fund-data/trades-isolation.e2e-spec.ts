import Decimal from 'decimal.js';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import type { TradesPageDto } from '../../sdk/typescript/src/index';
import { bootApp, type CallResult, dbOf, type ResponseJson, type TestApp } from '../utils/app';
import { DEMO_SLUG, OTHER_SLUG, allEndpoints, fundKey, get, seedFundsOnce } from './fixtures';

jest.setTimeout(240_000);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe('trades pagination and tenant isolation (e2e)', () => {
  let app: TestApp;
  let demoKey: string;
  let otherKey: string;
  let demoId: string;
  let otherId: string;

  beforeAll(async () => {
    app = await bootApp({ liveCacheSeconds: 0 });
    ({ demoId, otherId } = await seedFundsOnce(app));
    demoKey = await fundKey(app, DEMO_SLUG);
    otherKey = await fundKey(app, OTHER_SLUG);
  });
  afterAll(() => app.close());

  async function walk(key: string, query: string, onPage?: (page: number) => Promise<void>) {
    const seen: { id: string; executedAt: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10_000; page++) {
      const res: CallResult<TradesPageDto> = await get(
        app,
        `/api/v1/fund/trades?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        key,
      );
      expect(res.status).toBe(200);
      seen.push(...res.json.items);
      expect(res.json.hasMore).toBe(res.json.nextCursor !== null);
      if (!res.json.hasMore) break;
      cursor = res.json.nextCursor;
      if (onPage) await onPage(page);
    }
    return seen;
  }

  const liveTradeIds = async (fundId: string, where = '', params: unknown[] = []) =>
    (
      await dbOf(app).query(
        `SELECT t.id::text FROM trades t JOIN connections c ON c.id = t.connection_id AND c.mode = 'live'
        JOIN instruments i ON i.id = t.instrument_id
        WHERE t.fund_id = $1 ${where} ORDER BY t.executed_at DESC, t.id DESC`,
        [fundId, ...params],
      )
    ).map((r: { id: string }) => r.id);

  it('walks every page: each live trade exactly once, most recent first, never a paper trade', async () => {
    const seen = await walk(demoKey, 'limit=500');
    const expected = await liveTradeIds(demoId);
    expect(expected.length).toBeGreaterThan(1000);
    expect(seen.map((t) => t.id)).toEqual(expected);
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length);
    const paper = await dbOf(app).query(
      `SELECT count(*)::int AS n FROM trades t JOIN connections c ON c.id = t.connection_id WHERE t.fund_id = $1 AND c.mode = 'paper'`,
      [demoId],
    );
    expect(paper[0].n).toBeGreaterThan(0);
  });

  it('filters combine with the cursor', async () => {
    const seen = await walk(demoKey, 'limit=37&symbol=BTC&side=buy&from=2024-06-01&to=2025-12-31');
    const expected = await liveTradeIds(
      demoId,
      `AND i.symbol = 'BTC' AND t.side = 'buy' AND t.executed_at >= '2024-06-01' AND t.executed_at < '2026-01-01'`,
    );
    expect(expected.length).toBeGreaterThan(37);
    expect(seen.map((t) => t.id)).toEqual(expected);
    for (const t of seen) expect(t.executedAt >= '2024-06-01' && t.executedAt < '2026-01-01').toBe(true);
  });

  it('is stable under concurrent inserts: no duplicate, no missing row, order kept', async () => {
    const before = await liveTradeIds(otherId);
    expect(before.length).toBeGreaterThan(100);
    const db = dbOf(app);
    const ref = await db.query(
      `SELECT t.connection_id, t.instrument_id FROM trades t JOIN connections c ON c.id = t.connection_id AND c.mode = 'live' WHERE t.fund_id = $1 LIMIT 1`,
      [otherId],
    );
    let n = 0;
    const seen = await walk(otherKey, 'limit=40', async (page) => {
      // New trades land at the head (now) and one in the middle of what is still to come.
      for (let i = 0; i < 3; i++) {
        n++;
        await db.query(
          `INSERT INTO trades (fund_id, external_id, executed_at, trade_date, connection_id, instrument_id, side, quantity, price, fee, fee_currency)
           VALUES ($1, $2, now(), CURRENT_DATE, $3, $4, 'buy', 1, 1, 0, 'USD')`,
          [otherId, `concurrent-${page}-${i}-${Date.now()}`, ref[0].connection_id, ref[0].instrument_id],
        );
      }
    });
    expect(n).toBeGreaterThan(0);
    const ids = seen.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const seenSet = new Set(ids);
    expect(before.filter((id: string) => !seenSet.has(id))).toEqual([]);
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1];
      const b = seen[i];
      expect(a.executedAt > b.executedAt || (a.executedAt === b.executedAt && BigInt(a.id) > BigInt(b.id))).toBe(true);
    }
  });

  it('a cursor of one fund is refused by another fund’s key', async () => {
    const page = await get(app, '/api/v1/fund/trades?limit=5', demoKey);
    const res = await get(app, `/api/v1/fund/trades?cursor=${encodeURIComponent(page.json.nextCursor)}`, otherKey);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_parameter');
  });

  it('a cursor is bound to its filters: the same fund under another filter refuses it', async () => {
    const page = await get(app, '/api/v1/fund/trades?limit=5&side=buy', demoKey);
    expect(page.json.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(page.json.nextCursor);
    const other = await get(app, `/api/v1/fund/trades?limit=5&side=sell&cursor=${cursor}`, demoKey);
    expect([other.status, other.json.errors[0].field]).toEqual([400, 'cursor']);
    expect((await get(app, `/api/v1/fund/trades?limit=5&side=buy&cursor=${cursor}`, demoKey)).status).toBe(200);
  });

  it('no endpoint of one fund’s key returns anything of the other fund', async () => {
    const db = dbOf(app);
    const idsOf = async (fundId: string) =>
      new Set<string>(
        (
          await db.query(
            `SELECT id::text FROM investors WHERE fund_id = $1 UNION ALL SELECT id::text FROM nav_runs WHERE fund_id = $1
       UNION ALL SELECT id::text FROM expenses WHERE fund_id = $1 UNION ALL SELECT id::text FROM lp_reports WHERE fund_id = $1
       UNION ALL SELECT id::text FROM capital_activity WHERE fund_id = $1 UNION ALL SELECT id::text FROM journal_entries WHERE fund_id = $1
       UNION ALL SELECT id::text FROM subscription_lots WHERE fund_id = $1`,
            [fundId],
          )
        ).map((r: { id: string }) => r.id),
      );
    const demoIds = await idsOf(demoId);
    const otherIds = await idsOf(otherId);
    expect(otherIds.size).toBeGreaterThan(50);
    const otherDates = (await get(app, '/api/v1/fund/pnl/attribution-dates', otherKey)).json;
    expect(otherDates.dates.length).toBeGreaterThan(10);
    const demoDates = (await get(app, '/api/v1/fund/pnl/attribution-dates', demoKey)).json;
    expect(demoDates.latest).not.toBe(otherDates.latest);

    for (const [key, mine, theirs, fundId, attributionDate] of [
      [demoKey, demoIds, otherIds, demoId, demoDates.latest],
      [otherKey, otherIds, demoIds, otherId, otherDates.latest],
    ] as const) {
      for (const url of allEndpoints({ attributionDate, journalFrom: '2023-11-01', journalTo: '2023-12-01' })) {
        const res = await get(app, url, key);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        const uuids = res.body.match(UUID) ?? [];
        const leaked = uuids.filter((u: string) => theirs.has(u));
        expect({ url, leaked }).toEqual({ url, leaked: [] });
        for (const u of uuids) if (mine.has(u) || theirs.has(u)) expect(mine.has(u)).toBe(true);
        if (url.endsWith('/trades')) {
          const ids = res.json.items.map((t: { id: string }) => t.id);
          const owners = await db.query(`SELECT DISTINCT fund_id FROM trades WHERE id = ANY($1::bigint[])`, [ids]);
          expect(owners.map((o: { fund_id: string }) => o.fund_id)).toEqual([fundId]);
        }
      }
    }
    // The other fund's NAV on a date it has runs but the demo fund's key asks: the demo's own run answers.
    const otherAttr = await get(app, `/api/v1/fund/pnl/attribution?date=${otherDates.latest}`, otherKey);
    const demoAttr = await get(app, `/api/v1/fund/pnl/attribution?date=${otherDates.latest}`, demoKey);
    expect(otherAttr.json.navRunId).not.toBe(demoAttr.json.navRunId);
    // A date only the demo fund has a run for is not found for the other fund.
    expect((await get(app, `/api/v1/fund/pnl/attribution?date=${demoDates.latest}`, otherKey)).status).toBe(404);
  });
  it('attribution keeps its identities when a manual journal entry is booked and the run is redone', async () => {
    const db = dbOf(app);
    const last = (await get(app, '/api/v1/fund/pnl/attribution-dates', otherKey)).json.latest as string;
    const before = (await get(app, `/api/v1/fund/pnl/attribution?date=${last}`, otherKey)).json;
    const entryId = '6b1f3c52-0d7e-4c1a-9a55-000000000001';
    await db.query(
      `INSERT INTO journal_entries (id, fund_id, entry_number, entry_date, posted_at, description, source, source_ref, nav_run_id, status)
       VALUES ($1, $2, (SELECT COALESCE(max(entry_number), 0) + 1 FROM journal_entries WHERE fund_id = $2), $3, now(), 'manual: consultant invoice', 'manual', 'TEST-1', NULL, 'posted')`,
      [entryId, otherId, last],
    );
    await db.query(
      `INSERT INTO journal_lines (fund_id, entry_id, line_no, entry_date, account_code, debit, credit, currency, description)
       VALUES ($1, $2, 1, $3, '5600', 1234.56, 0, 'USD', 'consultant'), ($1, $2, 2, $3, '1000', 0, 1234.56, 'USD', 'consultant')`,
      [otherId, entryId, last],
    );
    await new NavRunService(db).runNavRange(otherId, { from: last, to: last, clock: demoClock(9) });
    const after = (await get(app, `/api/v1/fund/pnl/attribution?date=${last}`, otherKey)).json;
    expect(after.navRunId).not.toBe(before.navRunId); // the redone run, not a cached answer
    const manual = after.byAsset.find((r: { asset: string }) => r.asset === 'MANUAL-ENTRIES');
    expect(manual.pnl).toBe('-1234.56');
    const D = (v: string) => new Decimal(v);
    const pnlSum = after.byAsset.reduce((a: Decimal, r: { pnl: string }) => a.plus(r.pnl), new Decimal(0));
    expect(D(after.totalPnl).toFixed(2)).toBe(
      pnlSum.minus(after.fees.management).minus(after.fees.performance).minus(after.fees.expenses).toFixed(2),
    );
    expect(D(after.closingNav).minus(after.openingNav).toFixed(2)).toBe(
      D(after.totalPnl).plus(after.flows.subscriptions).minus(after.flows.redemptions).toFixed(2),
    );
    expect(D(before.closingNav).minus(after.closingNav).toFixed(2)).toBe('1234.56');
  });
  it('positions are live: a trade after the latest run moves the asset and the venue cash at once', async () => {
    const db = dbOf(app);
    const pos = async () => (await get(app, '/api/v1/fund/positions', otherKey)).json;
    const before = await pos();
    const held = before.positions.find(
      (p: { asset: string; quantity: string }) => p.asset === 'BTC' && new Decimal(p.quantity).gt(0),
    );
    const conn = (
      await db.query(`SELECT id FROM connections WHERE fund_id = $1 AND venue = $2 AND mode = 'live'`, [
        otherId,
        held.venue,
      ])
    )[0].id;
    const btc = (await db.query(`SELECT id FROM instruments WHERE fund_id = $1 AND symbol = 'BTC'`, [otherId]))[0].id;
    await db.query(
      `INSERT INTO trades (fund_id, external_id, executed_at, trade_date, connection_id, instrument_id, side, quantity, price, fee, fee_currency)
       VALUES ($1, 'live-book-test', now(), CURRENT_DATE, $2, $3, 'buy', 0.5, 40000, 12.5, 'USD')`,
      [otherId, conn, btc],
    );
    const after = await pos();
    const row = (body: ResponseJson, asset: string) =>
      body.positions.find((p: { asset: string; venue: string }) => p.asset === asset && p.venue === held.venue);
    expect(new Decimal(row(after, 'BTC').quantity).minus(row(before, 'BTC').quantity).toString()).toBe('0.5');
    const cashBefore = row(before, 'USD') ? new Decimal(row(before, 'USD').marketValue) : new Decimal(0);
    expect(new Decimal(row(after, 'USD').marketValue).minus(cashBefore).toFixed(2)).toBe('-20012.50');
    const e = (await get(app, '/api/v1/fund/exposure', otherKey)).json;
    expect(new Decimal(e.netExposure).plus(e.cashExposure).toFixed(2)).toBe(after.totalMarketValue);
  });
});
