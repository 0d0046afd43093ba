import Decimal from 'decimal.js';
import { bootApp, dbOf, type TestApp } from '../utils/app';
import { DEMO_SLUG, fundKey, get, seedFundsOnce } from '../fund-data/fixtures';

jest.setTimeout(240_000);
const D = (v: string | number) => new Decimal(v);

/**
 * What a fund administrator checks before signing the books (issue 13), against the demo fund's
 * own books: investor-basis performance, LP report returns, capital account figures, stablecoins
 * in the cash accounts and failed runs with their reasons.
 */
describe('books a fund administrator would sign (e2e)', () => {
  let app: TestApp;
  let key: string;
  let fundId: string;

  /** An inception lot of the class whose investor never redeemed: its value per original unit on each run date. */
  async function leadLotValues(className: string): Promise<Map<string, Decimal>> {
    const rows: { d: string; v: string }[] = await dbOf(app).query(
      `WITH lead AS (
         SELECT l.id, l.units_issued, l.share_class_id FROM subscription_lots l JOIN share_classes sc ON sc.id = l.share_class_id
          WHERE l.fund_id = $1 AND sc.name = $2 AND l.issue_date = sc.launch_date
            AND NOT EXISTS (SELECT 1 FROM capital_activity ca WHERE ca.fund_id = $1 AND ca.investor_id = l.investor_id
                               AND ca.share_class_id = l.share_class_id AND ca.type = 'redemption' AND ca.status IN ('executed', 'settled'))
          ORDER BY l.units_issued DESC, l.id LIMIT 1)
       SELECT to_char(r.valuation_date, 'YYYY-MM-DD') AS d, ((nl.units * c.gross_nav_per_unit - nl.accrued_performance_fee) / lead.units_issued)::text AS v
         FROM lead JOIN nav_run_lots nl ON nl.lot_id = lead.id
         JOIN nav_runs r ON r.id = nl.nav_run_id AND r.status = 'complete'
         JOIN nav_run_classes c ON c.nav_run_id = r.id AND c.share_class_id = lead.share_class_id
        WHERE nl.fund_id = $1 ORDER BY r.valuation_date`,
      [fundId, className],
    );
    return new Map(rows.map((r) => [r.d, D(r.v)]));
  }

  beforeAll(async () => {
    app = await bootApp();
    fundId = (await seedFundsOnce(app)).demoId;
    key = await fundKey(app, DEMO_SLUG);
  });
  afterAll(() => app.close());

  it("performance is an investor's return: the inception lot's value per original unit, net of crystallized fees", async () => {
    const values = await leadLotValues('Class A');
    const res = await get(app, '/api/v1/fund/performance?shareClass=Class%20A', key);
    expect(res.status).toBe(200);
    const last = [...values.keys()].pop()!;
    expect(res.json.asOf).toBe(last);
    const itd = values.get(last)!.dividedBy(1000).minus(1);
    expect(D(res.json.returns.itd).minus(itd).abs().toNumber()).toBeLessThan(2e-8);
    // Every month, crystallization months included, chains the lot's value from month end to month end.
    const monthEnds = [...values.keys()].filter((d, i, all) => all[i + 1]?.slice(0, 7) !== d.slice(0, 7));
    const byMonth = new Map(res.json.monthly.map((m: { month: string; return: string }) => [m.month, D(m.return)]));
    let previous = D(1000);
    for (const d of monthEnds) {
      const expected = values.get(d)!.dividedBy(previous).minus(1);
      expect({
        month: d.slice(0, 7),
        diff: (byMonth.get(d.slice(0, 7)) as Decimal).minus(expected).abs().lt(2e-8),
      }).toEqual({ month: d.slice(0, 7), diff: true });
      previous = values.get(d)!;
    }
    // The class NAV per unit is gross of crystallized fees: it must not be what performance answers.
    const [cls] = await dbOf(app).query(
      `SELECT c.nav_per_unit::text AS npu FROM nav_run_classes c JOIN nav_runs r ON r.id = c.nav_run_id AND r.status = 'complete'
         JOIN share_classes sc ON sc.id = c.share_class_id WHERE c.fund_id = $1 AND sc.name = 'Class A' AND r.valuation_date = $2`,
      [fundId, last],
    );
    expect(D(cls.npu).dividedBy(1000).minus(1).minus(itd).abs().toNumber()).toBeGreaterThan(0.001);
  });

  it("LP reports state the quarter's return from the previous quarter end, on the same investor basis", async () => {
    const values = await leadLotValues('Class A');
    const res = await get(app, '/api/v1/fund/lp-reports', key);
    const reports = [...res.json.items].sort((a: { periodEnd: string }, b: { periodEnd: string }) =>
      a.periodEnd < b.periodEnd ? -1 : 1,
    );
    expect(reports.length).toBeGreaterThan(8);
    let previous = D(1000);
    for (const r of reports) {
      const stated = /returned (-?\d+\.\d{2})%/.exec(r.preview)![1];
      const expected = values.get(r.periodEnd)!.dividedBy(previous).minus(1).times(100).toFixed(2);
      expect({ period: r.periodEnd, stated }).toEqual({ period: r.periodEnd, stated: expected });
      previous = values.get(r.periodEnd)!;
    }
  });

  it('capital accounts: units × investorNavPerUnit = closingCapital to the cent, beside the class NAV per unit', async () => {
    const res = await get(app, '/api/v1/fund/capital-accounts', key);
    expect(res.status).toBe(200);
    const history = await get(
      app,
      `/api/v1/fund/nav/history?from=${res.json.valuationDate}&to=${res.json.valuationDate}`,
      key,
    );
    const classNpu = new Map(
      history.json.items
        .find((i: { status: string }) => i.status === 'complete')
        .shareClasses.map((c: { name: string; navPerUnit: string }) => [c.name, c.navPerUnit]),
    );
    let checked = 0;
    for (const a of res.json.accounts) {
      expect(a.classNavPerUnit).toBe(classNpu.get(a.shareClass));
      if (D(a.units).isZero()) {
        expect(a.investorNavPerUnit).toBeNull();
        continue;
      }
      expect(D(a.units).times(a.investorNavPerUnit).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)).toBe(
        a.closingCapital,
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(res.json.accounts[0]).not.toHaveProperty('navPerUnit');
  });

  it('stablecoins are booked in 1100 with cash; exposure cash equals the cash accounts', async () => {
    const db = dbOf(app);
    const [onInvestments] = await db.query(
      `SELECT count(*)::int AS n FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
         JOIN trades t ON t.fund_id = e.fund_id AND t.external_id = e.source_ref JOIN instruments i ON i.id = t.instrument_id
        WHERE l.fund_id = $1 AND e.source = 'trade' AND i.asset_class = 'stablecoin' AND l.account_code IN ('1200', '1250')`,
      [fundId],
    );
    expect(onInvestments.n).toBe(0);
    // Every complete run: cash and stablecoin market values = balances of 1000 + 1100 at the run date.
    const breaks = await db.query(
      `WITH cashlike AS (
         SELECT r.valuation_date, sum(p.market_value) AS mv FROM nav_runs r
           JOIN nav_run_positions p ON p.nav_run_id = r.id JOIN instruments i ON i.id = p.instrument_id AND i.asset_class IN ('cash', 'stablecoin')
          WHERE r.fund_id = $1 AND r.status = 'complete' GROUP BY r.valuation_date),
       daily AS (SELECT entry_date, sum(debit - credit) AS net FROM journal_lines WHERE fund_id = $1 AND account_code IN ('1000', '1100') GROUP BY entry_date),
       running AS (SELECT entry_date, sum(net) OVER (ORDER BY entry_date) AS balance FROM daily)
       SELECT c.valuation_date::text, c.mv::text, (SELECT balance FROM running WHERE entry_date <= c.valuation_date ORDER BY entry_date DESC LIMIT 1)::text AS ledger
         FROM cashlike c WHERE c.mv IS DISTINCT FROM (SELECT balance FROM running WHERE entry_date <= c.valuation_date ORDER BY entry_date DESC LIMIT 1)`,
      [fundId],
    );
    expect(breaks).toEqual([]);
    const [exposure, tb] = await Promise.all([
      get(app, '/api/v1/fund/exposure', key),
      get(app, '/api/v1/fund/trial-balance', key),
    ]);
    const cashAccounts = tb.json.accounts.filter((a: { accountCode: string }) =>
      ['1000', '1100'].includes(a.accountCode),
    );
    const ledgerCash = cashAccounts.reduce(
      (s: Decimal, a: { debit: string; credit: string }) => s.plus(a.debit).minus(a.credit),
      D(0),
    );
    expect(exposure.json.cashExposure).toBe(ledgerCash.toFixed(2));
  });

  it("NAV history shows a failed run's reason, and the failed run and its replacement have distinct timestamps", async () => {
    const [failed] = await dbOf(app).query(
      `SELECT valuation_date::text AS d FROM nav_runs WHERE fund_id = $1 AND status = 'failed' ORDER BY valuation_date LIMIT 1`,
      [fundId],
    );
    const res = await get(app, `/api/v1/fund/nav/history?from=${failed.d}&to=${failed.d}`, key);
    expect(res.json.items.map((i: { status: string }) => i.status)).toEqual(['complete', 'failed']);
    const [complete, fail] = res.json.items;
    expect(fail.failureReason).toBe(`missing price for SOL on ${failed.d}`);
    expect(complete.failureReason).toBeNull();
    expect(new Date(complete.createdAt).getTime()).toBeGreaterThan(new Date(fail.createdAt).getTime());
    expect(complete.completedAt).not.toBeNull();
  });
});
