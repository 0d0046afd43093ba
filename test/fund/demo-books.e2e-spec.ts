import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { daysBetween } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { type SeedDemoReport, seedDemoFund } from '../../src/fund/import/seed-demo-fund';
import { NavRunRepository } from '../../src/fund/nav/nav-run.repository';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { reconciliationForFund } from '../../src/fund/nav/reconciliation';

const SECOND_FUND_TO = '2024-03-31';

/** Invariants over the whole demo fund, every date; the fund is seeded once for this file. */
describe('demo fund books', () => {
  let ds: DataSource;
  let report: SeedDemoReport;
  let fundId: string;

  beforeAll(async () => {
    ds = createDataSource(process.env.DATABASE_URL!, 4);
    await ds.initialize();
    report = await seedDemoFund(ds, { slug: 'demo', workDir: join(tmpdir(), `fundgate-demo-e2e-${process.pid}`) });
    fundId = report.fundId;
  }, 300_000);

  afterAll(async () => {
    await ds?.destroy();
  });

  it('ran every date, with three failed runs (late prices) and two superseded runs', async () => {
    const rows = await ds.query(
      `SELECT status, count(*)::int AS n FROM nav_runs WHERE fund_id = $1 GROUP BY status ORDER BY status`,
      [fundId],
    );
    expect(rows).toEqual([
      { status: 'complete', n: 1097 },
      { status: 'failed', n: 3 },
      { status: 'superseded', n: 2 },
    ]);
    const failed = await ds.query(
      `SELECT failure_reason FROM nav_runs WHERE fund_id = $1 AND status = 'failed' ORDER BY valuation_date`,
      [fundId],
    );
    expect(failed.map((f: { failure_reason: string }) => f.failure_reason)).toEqual([
      'missing price for SOL on 2024-03-09',
      'missing price for SOL on 2025-01-18',
      'missing price for SOL on 2026-06-07',
    ]);
  });

  it('every journal entry balances exactly, so the trial balance balances at every date', async () => {
    const unbalanced = await ds.query(
      `SELECT entry_id FROM journal_lines WHERE fund_id = $1 GROUP BY entry_id HAVING sum(debit) <> sum(credit)`,
      [fundId],
    );
    expect(unbalanced).toEqual([]);
    const [totals] = await ds.query(
      `SELECT sum(debit)::text AS d, sum(credit)::text AS c, count(*)::int AS n FROM journal_lines WHERE fund_id = $1`,
      [fundId],
    );
    expect(totals.d).toBe(totals.c);
    expect(totals.n).toBeGreaterThan(50_000);
  });

  it('NAV = assets − liabilities (ledger) = Σ class NAV = Σ investor closing capital, for every complete run', async () => {
    const mismatches = await ds.query(
      `WITH daily AS (
         SELECT l.entry_date,
                sum(CASE WHEN a.account_type = 'asset' THEN l.debit - l.credit WHEN a.account_type = 'liability' THEN l.debit - l.credit ELSE 0 END) AS net_assets
           FROM journal_lines l JOIN chart_of_accounts a ON a.fund_id = l.fund_id AND a.code = l.account_code
          WHERE l.fund_id = $1 GROUP BY l.entry_date),
       cumulative AS (SELECT entry_date, sum(net_assets) OVER (ORDER BY entry_date) AS net_assets FROM daily)
       SELECT r.valuation_date::text, r.net_asset_value::text AS nav, c.net_assets::text AS ledger,
              (SELECT sum(net_asset_value) FROM nav_run_classes WHERE nav_run_id = r.id)::text AS classes,
              (SELECT sum(closing_capital) FROM nav_run_capital_accounts WHERE nav_run_id = r.id)::text AS investors
         FROM nav_runs r LEFT JOIN cumulative c ON c.entry_date = (SELECT max(entry_date) FROM daily WHERE entry_date <= r.valuation_date)
        WHERE r.fund_id = $1 AND r.status = 'complete'
          AND (c.net_assets IS DISTINCT FROM r.net_asset_value
               OR (SELECT sum(net_asset_value) FROM nav_run_classes WHERE nav_run_id = r.id) IS DISTINCT FROM r.net_asset_value
               OR (SELECT coalesce(sum(closing_capital), 0) FROM nav_run_capital_accounts WHERE nav_run_id = r.id) <> r.net_asset_value)`,
      [fundId],
    );
    expect(mismatches).toEqual([]);
  });

  it('NAV rolls forward each date: opening + subscriptions − redemptions + P&L − fees − expenses = closing', async () => {
    const breaks = await ds.query(
      `SELECT r.valuation_date::text FROM nav_runs r
         LEFT JOIN nav_runs p ON p.fund_id = r.fund_id AND p.status = 'complete' AND p.valuation_date = r.valuation_date - 1
        WHERE r.fund_id = $1 AND r.status = 'complete'
          AND (r.opening_nav <> coalesce(p.net_asset_value, 0)
           OR r.opening_nav + r.subscriptions - r.redemptions + r.investment_pnl - r.management_fee - r.performance_fee - r.expenses <> r.net_asset_value)`,
      [fundId],
    );
    expect(breaks).toEqual([]);
    const accountBreaks = await ds.query(
      `SELECT nav_run_id FROM nav_run_capital_accounts WHERE fund_id = $1
          AND opening_capital + contributions - redemptions + pnl - management_fee - performance_fee <> closing_capital LIMIT 5`,
      [fundId],
    );
    expect(accountBreaks).toEqual([]);
  });

  it('performance fees are never negative and some were crystallized', async () => {
    const [row] = await ds.query(
      `SELECT min(accrued_performance_fee)::text AS min_accrued, min(crystallized_performance_fee)::text AS min_crystallized,
              sum(crystallized_performance_fee)::text AS crystallized
         FROM nav_run_lots l JOIN nav_runs r ON r.id = l.nav_run_id WHERE l.fund_id = $1 AND r.status = 'complete'`,
      [fundId],
    );
    expect(Number(row.min_accrued)).toBeGreaterThanOrEqual(0);
    expect(Number(row.min_crystallized)).toBeGreaterThanOrEqual(0);
    expect(Number(row.crystallized)).toBeGreaterThan(0);
    const [balance] = await ds.query(
      `SELECT min(b)::text AS min FROM (SELECT sum(credit - debit) OVER (ORDER BY entry_date) AS b FROM journal_lines WHERE fund_id = $1 AND account_code = '2010') x`,
      [fundId],
    );
    expect(Number(balance.min)).toBeGreaterThanOrEqual(0);
  });

  it('paper-connection trades and holdings never reach the books', async () => {
    const [paper] = await ds.query(
      `SELECT count(*)::int AS n FROM trades t JOIN connections c ON c.id = t.connection_id WHERE t.fund_id = $1 AND c.mode = 'paper'`,
      [fundId],
    );
    expect(paper.n).toBeGreaterThan(0);
    const [inLedger] = await ds.query(
      `SELECT count(*)::int AS n FROM journal_entries e JOIN trades t ON t.fund_id = e.fund_id AND t.external_id = e.source_ref
         JOIN connections c ON c.id = t.connection_id WHERE e.fund_id = $1 AND e.source = 'trade' AND c.mode = 'paper'`,
      [fundId],
    );
    expect(inLedger.n).toBe(0);
    const [positions] = await ds.query(
      `SELECT count(*)::int AS n FROM nav_run_positions p JOIN connections c ON c.id = p.connection_id WHERE p.fund_id = $1 AND c.mode = 'paper'`,
      [fundId],
    );
    expect(positions.n).toBe(0);
  });

  it('has the demo content: a short, 3 classes, ~50 investors, flows in all six statuses, breaks vs the administrator', async () => {
    const last = await ds.query(
      `SELECT i.symbol, p.quantity::text FROM nav_run_positions p JOIN nav_runs r ON r.id = p.nav_run_id JOIN instruments i ON i.id = p.instrument_id
        WHERE p.fund_id = $1 AND r.status = 'complete' AND r.valuation_date = '2026-10-31' AND p.quantity < 0`,
      [fundId],
    );
    expect(last.map((r: { symbol: string }) => r.symbol)).toContain('QQQ');
    const statuses = await ds.query(`SELECT DISTINCT status FROM capital_activity WHERE fund_id = $1 ORDER BY status`, [
      fundId,
    ]);
    expect(statuses.map((s: { status: string }) => s.status)).toEqual([
      'cancelled',
      'executed',
      'failed',
      'pending',
      'running',
      'settled',
    ]);
    const [investors] = await ds.query(`SELECT count(*)::int AS n FROM investors WHERE fund_id = $1`, [fundId]);
    expect(investors.n).toBe(50);
    const breaks = await ds.query(
      `SELECT a.valuation_date FROM admin_navs a JOIN nav_runs r ON r.fund_id = a.fund_id AND r.valuation_date = a.valuation_date AND r.status = 'complete'
        WHERE a.fund_id = $1 AND abs(r.net_asset_value - a.net_asset_value) / a.net_asset_value > 0.0005`,
      [fundId],
    );
    expect(breaks.length).toBe(3);
    const reconciliation = await reconciliationForFund(new NavRunRepository(ds), fundId, '0.0005', 100);
    expect(reconciliation).toHaveLength(37);
    expect(reconciliation.filter((r) => !r.withinTolerance).map((r) => r.valuationDate)).toEqual([
      '2026-02-28',
      '2025-03-31',
      '2024-05-31',
    ]);
  });

  it('superseded runs are fully reversed: their entries and the reversals net to zero', async () => {
    const [net] = await ds.query(
      `SELECT coalesce(sum(l.debit - l.credit), 0)::text AS net, count(*)::int AS n FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
         JOIN nav_runs r ON r.id = e.nav_run_id OR r.superseded_by_run_id = e.nav_run_id
        WHERE l.fund_id = $1 AND r.status = 'superseded' AND (e.nav_run_id = r.id OR e.status = 'reversal') AND l.account_code = '1250'`,
      [fundId],
    );
    expect(net.net).toBe('0.00');
    await expect(ds.query(`UPDATE journal_lines SET debit = debit + 1 WHERE fund_id = $1`, [fundId])).rejects.toThrow(
      /immutable/,
    );
  });

  it('the seed labels its deliberate failed-then-fixed runs as a scenario, not as errors', () => {
    expect(report).not.toHaveProperty('failedRuns');
    expect(report.scenario.name).toBe('late-prices');
    expect(report.scenario.description).toMatch(/deliberate/);
    expect(report.scenario.failedThenFixed.map((f) => f.date)).toEqual(['2024-03-09', '2025-01-18', '2026-06-07']);
    expect(report.scenario.failedThenFixed[0].reason).toBe('missing price for SOL on 2024-03-09');
  });

  it('running a new date is incremental and a re-run supersedes; a second fund from its own folder stays separate', async () => {
    const before = await ds.query(`SELECT count(*)::int AS n FROM journal_lines WHERE fund_id = $1`, [fundId]);
    const dir = join(tmpdir(), `fundgate-second-e2e-${process.pid}`);
    generateDemoFund({ seed: 99, outDir: dir, trades: 1500, through: SECOND_FUND_TO });
    const second = await importFundFolder(ds, 'second-fund', dir);
    await importFundFolder(ds, 'second-fund', join(dir, 'late-prices', '2024-03-09'));
    // the second fund's first five months (its first late price included): the whole range is the demo's own test above
    const outcome = await new NavRunService(ds).runNavRange(second.fundId, { to: SECOND_FUND_TO });
    expect(outcome.failed).toBeNull();
    expect(second.fundId).not.toBe(fundId);
    const after = await ds.query(`SELECT count(*)::int AS n FROM journal_lines WHERE fund_id = $1`, [fundId]);
    expect(after).toEqual(before);
    const crossed = await ds.query(
      `SELECT count(*)::int AS n FROM journal_lines l JOIN share_classes s ON s.id = l.share_class_id WHERE l.fund_id <> s.fund_id`,
    );
    expect(crossed[0].n).toBe(0);
    const [secondNav] = await ds.query(
      `SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = $1 AND status = 'complete'`,
      [second.fundId],
    );
    expect(secondNav.n).toBe(daysBetween(DEMO_INCEPTION_DATE, SECOND_FUND_TO) + 1);
    // Re-running the second fund's last date supersedes exactly one run.
    const rerun = await new NavRunService(ds).runNavForDate(second.fundId, SECOND_FUND_TO);
    expect(rerun.superseded).toBe(1);
  }, 240_000);
});
