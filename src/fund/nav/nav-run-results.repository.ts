import { type Decimal } from '../money';
import { type DayValuation } from './engine-types';
import { SqlRepository } from '../../database/sql-repository';

const LINE_BATCH = 20_000;
const m = (d: Decimal) => d.toFixed(2);

/** A run whose results are written: its id and the day it valued. */
export type ResultRun = { id: string; day: DayValuation };

/** Writes a NAV run's result tables (one `unnest` insert per table) and the outcome of its capital activity. */
export class NavRunResultsRepository extends SqlRepository {
  /** Writes every result table of the runs, then marks their capital activity executed or failed. */
  async insertResults(
    fundId: string,
    runs: ResultRun[],
    symbolIds: Map<string, string>,
    connectionIds: Map<string, string>,
  ): Promise<void> {
    await this.insertClassResults(fundId, runs);
    await this.insertCapitalAccountResults(fundId, runs);
    await this.insertNewLots(fundId, runs);
    await this.insertLotResults(fundId, runs);
    await this.insertPositionResults(fundId, runs, symbolIds, connectionIds);
    await this.insertAssetResults(fundId, runs, symbolIds);
    await this.insertFlowResults(fundId, runs);
    await this.markFlowOutcomes(fundId, runs);
  }

  /** One `unnest` insert: `$1` is the fund, each further array holds one column of `items`. */
  private async insertColumns<T>(
    sql: string,
    fundId: string,
    items: T[],
    columns: ((item: T) => unknown)[],
  ): Promise<void> {
    await this.q.query(sql, [fundId, ...columns.map((column) => items.map(column))]);
  }

  /** `insertColumns` in slices of LINE_BATCH rows (nothing written when there are no rows). */
  private async insertColumnsBatched<T>(
    sql: string,
    fundId: string,
    items: T[],
    columns: ((item: T) => unknown)[],
  ): Promise<void> {
    for (let i = 0; i < items.length; i += LINE_BATCH) {
      await this.insertColumns(sql, fundId, items.slice(i, i + LINE_BATCH), columns);
    }
  }

  private async insertClassResults(fundId: string, runs: ResultRun[]): Promise<void> {
    const cls = runs.flatMap((r) => r.day.classes.map((c) => ({ run: r.id, c })));
    await this.insertColumns(
      `INSERT INTO nav_run_classes (fund_id, nav_run_id, share_class_id, opening_nav, pnl, expenses, management_fee, performance_fee,
                                    performance_fee_crystallized, subscriptions, redemptions, net_asset_value, units, nav_per_unit, gross_nav_per_unit)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[],
                                $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[], $15::numeric[])`,
      fundId,
      cls,
      [
        (x) => x.run,
        (x) => x.c.classId,
        (x) => m(x.c.openingNav),
        (x) => m(x.c.pnl),
        (x) => m(x.c.expenses),
        (x) => m(x.c.managementFee),
        (x) => m(x.c.performanceFee),
        (x) => m(x.c.performanceFeeCrystallized),
        (x) => m(x.c.subscriptions),
        (x) => m(x.c.redemptions),
        (x) => m(x.c.nav),
        (x) => x.c.units.toFixed(8),
        (x) => x.c.navPerUnit?.toFixed(6) ?? null,
        (x) => x.c.grossNavPerUnit?.toDecimalPlaces(10).toString() ?? null,
      ],
    );
  }

  private async insertCapitalAccountResults(fundId: string, runs: ResultRun[]): Promise<void> {
    const acc = runs.flatMap((r) => r.day.capitalAccounts.map((a) => ({ run: r.id, a })));
    await this.insertColumnsBatched(
      `INSERT INTO nav_run_capital_accounts (fund_id, nav_run_id, investor_id, share_class_id, opening_capital, contributions, redemptions,
                                             pnl, management_fee, performance_fee, closing_capital, units, nav_per_unit, ownership_ratio)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[],
                                $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[])`,
      fundId,
      acc,
      [
        (x) => x.run,
        (x) => x.a.investorId,
        (x) => x.a.classId,
        (x) => m(x.a.openingCapital),
        (x) => m(x.a.contributions),
        (x) => m(x.a.redemptions),
        (x) => m(x.a.pnl),
        (x) => m(x.a.managementFee),
        (x) => m(x.a.performanceFee),
        (x) => m(x.a.closingCapital),
        (x) => x.a.units.toFixed(8),
        (x) => x.a.navPerUnit?.toFixed(6) ?? null,
        (x) => x.a.ownershipRatio.toFixed(8),
      ],
    );
  }

  /** Lots issued by the runs' subscriptions (a re-run issues the same lot ids again: kept as they are). */
  private async insertNewLots(fundId: string, runs: ResultRun[]): Promise<void> {
    const newLots = runs.flatMap((r) => r.day.newLots);
    if (!newLots.length) return;
    await this.insertColumns(
      `INSERT INTO subscription_lots (fund_id, id, investor_id, share_class_id, capital_activity_id, issue_date, issue_nav_per_unit, units_issued)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::date[], $7::numeric[], $8::numeric[]) ON CONFLICT DO NOTHING`,
      fundId,
      newLots,
      [
        (l) => l.lotId,
        (l) => l.investorId,
        (l) => l.classId,
        (l) => l.flowId,
        (l) => l.issueDate,
        (l) => l.issueNavPerUnit.toDecimalPlaces(10).toString(),
        (l) => l.unitsIssued.toFixed(8),
      ],
    );
  }

  private async insertLotResults(fundId: string, runs: ResultRun[]): Promise<void> {
    const lots = runs.flatMap((r) => r.day.lots.map((l) => ({ run: r.id, l })));
    await this.insertColumnsBatched(
      `INSERT INTO nav_run_lots (fund_id, nav_run_id, lot_id, units, hwm_per_unit, hwm_date, accrued_performance_fee, crystallized_performance_fee, units_cancelled)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::numeric[], $5::numeric[], $6::date[], $7::numeric[], $8::numeric[], $9::numeric[])`,
      fundId,
      lots,
      [
        (x) => x.run,
        (x) => x.l.lotId,
        (x) => x.l.units.toFixed(8),
        (x) => x.l.hwmPerUnit.toDecimalPlaces(10).toString(),
        (x) => x.l.hwmDate,
        (x) => m(x.l.accrued),
        (x) => m(x.l.crystallized),
        (x) => x.l.unitsCancelled.toFixed(8),
      ],
    );
  }

  private async insertPositionResults(
    fundId: string,
    runs: ResultRun[],
    symbolIds: Map<string, string>,
    connectionIds: Map<string, string>,
  ): Promise<void> {
    const pos = runs.flatMap((r) => r.day.positions.map((p) => ({ run: r.id, p })));
    await this.insertColumnsBatched(
      `INSERT INTO nav_run_positions (fund_id, nav_run_id, connection_id, instrument_id, quantity, cost_basis, price, market_value)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[])`,
      fundId,
      pos,
      [
        (x) => x.run,
        (x) => connectionIds.get(x.p.connection)!,
        (x) => symbolIds.get(x.p.symbol)!,
        (x) => x.p.quantity.toString(),
        (x) => m(x.p.cost),
        (x) => x.p.price.toString(),
        (x) => m(x.p.marketValue),
      ],
    );
  }

  private async insertAssetResults(fundId: string, runs: ResultRun[], symbolIds: Map<string, string>): Promise<void> {
    const assets = runs.flatMap((r) => r.day.assets.map((a) => ({ run: r.id, a })));
    await this.insertColumnsBatched(
      `INSERT INTO nav_run_assets (fund_id, nav_run_id, instrument_id, quantity, price, market_value, net_trades, realized_pnl)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[])`,
      fundId,
      assets,
      [
        (x) => x.run,
        (x) => symbolIds.get(x.a.symbol)!,
        (x) => x.a.quantity.toString(),
        (x) => x.a.price.toString(),
        (x) => m(x.a.marketValue),
        (x) => m(x.a.netTrades),
        (x) => m(x.a.realizedPnl),
      ],
    );
  }

  private async insertFlowResults(fundId: string, runs: ResultRun[]): Promise<void> {
    const flows = runs.flatMap((r) =>
      r.day.flows.filter((f) => f.outcome === 'executed').map((f) => ({ run: r.id, f })),
    );
    if (!flows.length) return;
    await this.insertColumns(
      `INSERT INTO nav_run_flows (fund_id, nav_run_id, capital_activity_id, amount, units, nav_per_unit, performance_fee_crystallized)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[])`,
      fundId,
      flows,
      [
        (x) => x.run,
        (x) => x.f.flowId,
        (x) => m(x.f.amount),
        (x) => x.f.units.toFixed(8),
        (x) => x.f.navPerUnit.toDecimalPlaces(10).toString(),
        (x) => m(x.f.performanceFeeCrystallized),
      ],
    );
  }

  /** The runs' executed flows become executed, their failed flows failed. */
  private async markFlowOutcomes(fundId: string, runs: ResultRun[]): Promise<void> {
    const withOutcome = (outcome: 'executed' | 'failed') =>
      runs.flatMap((r) => r.day.flows.filter((f) => f.outcome === outcome).map((f) => f.flowId));
    await this.q.query(
      `UPDATE capital_activity SET status = 'executed' WHERE fund_id = $1 AND id = ANY($2::uuid[]) AND status IN ('pending', 'running')`,
      [fundId, withOutcome('executed')],
    );
    await this.q.query(
      `UPDATE capital_activity SET status = 'failed' WHERE fund_id = $1 AND id = ANY($2::uuid[]) AND status IN ('pending', 'running', 'executed')`,
      [fundId, withOutcome('failed')],
    );
  }
}
