import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';

export interface RunRow {
  id: string;
  valuation_date: string;
  net_asset_value: string;
}

export interface RunAssetRow {
  symbol: string;
  quantity: string;
  price: string;
  market_value: string;
}

export interface ShareClassRow {
  id: string;
  name: string;
  initial_nav_per_unit: string;
  launch_date: string;
  perf_fee_rate: string;
  hurdle_annual_rate: string | null;
  crystallization_frequency: string;
  fee_exempt: boolean;
}

export interface WindowTotals {
  investment_pnl: string;
  management_fee: string;
  performance_fee: string;
  expenses: string;
  subscriptions: string;
  redemptions: string;
}

@Injectable()
export class RiskRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  /** Closes of the given symbols on or before `asOf`, for at most `days` calendar days back. */
  closesForSymbols(fundId: string, symbols: string[], asOf: string, days: number) {
    return this.q.query(
      `SELECT i.symbol, to_char(p.price_date, 'YYYY-MM-DD') AS price_date, p.close::text
         FROM prices p JOIN instruments i ON i.id = p.instrument_id AND i.fund_id = $1
        WHERE p.fund_id = $1 AND i.symbol = ANY($2::text[]) AND p.price_date <= $3::date AND p.price_date > $3::date - $4::int
        ORDER BY p.price_date`,
      [fundId, symbols, asOf, days],
    ) as Promise<{ symbol: string; price_date: string; close: string }[]>;
  }

  stressPresets(fundId: string, presetId: string | null) {
    return this.q.query(
      `SELECT p.preset_id AS id, p.name, p.description, to_char(p.window_start, 'YYYY-MM-DD') AS window_start,
              to_char(p.window_end, 'YYYY-MM-DD') AS window_end, p.source,
              COALESCE((SELECT json_object_agg(r.key, r.return_ratio::text ORDER BY r.key) FROM stress_preset_returns r
                         WHERE r.fund_id = p.fund_id AND r.preset_id = p.preset_id AND r.kind = 'asset'), '{}'::json) AS returns,
              COALESCE((SELECT json_object_agg(r.key, r.return_ratio::text ORDER BY r.key) FROM stress_preset_returns r
                         WHERE r.fund_id = p.fund_id AND r.preset_id = p.preset_id AND r.kind = 'asset_class'), '{}'::json) AS fallbacks
         FROM stress_presets p
        WHERE p.fund_id = $1 AND ($2::text IS NULL OR p.preset_id = $2)
        ORDER BY p.window_start, p.preset_id`,
      [fundId, presetId],
    ) as Promise<
      {
        id: string;
        name: string;
        description: string;
        window_start: string;
        window_end: string;
        source: string;
        returns: Record<string, string>;
        fallbacks: Record<string, string>;
      }[]
    >;
  }

  async completeRunOn(fundId: string, date: string): Promise<RunRow | null> {
    const rows = await this.q.query(
      `SELECT id, to_char(valuation_date, 'YYYY-MM-DD') AS valuation_date, net_asset_value::text
         FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2::date AND status = 'complete'`,
      [fundId, date],
    );
    return rows[0] ?? null;
  }

  async completeRunBefore(fundId: string, date: string): Promise<RunRow | null> {
    // ORDER BY the column, not the to_char output of the same name: a walk of (fund_id, valuation_date), not a sort of every run
    const rows = await this.q.query(
      `SELECT id, to_char(valuation_date, 'YYYY-MM-DD') AS valuation_date, net_asset_value::text
         FROM nav_runs WHERE fund_id = $1 AND valuation_date < $2::date AND status = 'complete'
        ORDER BY nav_runs.valuation_date DESC LIMIT 1`,
      [fundId, date],
    );
    return rows[0] ?? null;
  }

  runAssets(fundId: string, runId: string): Promise<RunAssetRow[]> {
    return this.q.query(
      `SELECT i.symbol, a.quantity::text, a.price::text, a.market_value::text
         FROM nav_run_assets a JOIN instruments i ON i.id = a.instrument_id AND i.fund_id = $1
        WHERE a.nav_run_id = $2 AND a.fund_id = $1`,
      [fundId, runId],
    );
  }

  /** Net trades per asset over the complete runs in (after, upTo]. */
  netTradesBetween(fundId: string, after: string, upTo: string) {
    return this.q.query(
      `SELECT i.symbol, sum(a.net_trades)::text AS net_trades
         FROM nav_run_assets a
         JOIN nav_runs r ON r.id = a.nav_run_id AND r.fund_id = $1 AND r.status = 'complete'
         JOIN instruments i ON i.id = a.instrument_id AND i.fund_id = $1
        WHERE a.fund_id = $1 AND r.valuation_date > $2::date AND r.valuation_date <= $3::date
        GROUP BY i.symbol`,
      [fundId, after, upTo],
    ) as Promise<{ symbol: string; net_trades: string }[]>;
  }

  async runTotalsBetween(fundId: string, after: string, upTo: string): Promise<WindowTotals> {
    const rows = await this.q.query(
      `SELECT COALESCE(sum(investment_pnl), 0)::text AS investment_pnl, COALESCE(sum(management_fee), 0)::text AS management_fee, COALESCE(sum(performance_fee), 0)::text AS performance_fee,
              COALESCE(sum(expenses), 0)::text AS expenses, COALESCE(sum(subscriptions), 0)::text AS subscriptions,
              COALESCE(sum(redemptions), 0)::text AS redemptions
         FROM nav_runs WHERE fund_id = $1 AND status = 'complete' AND valuation_date > $2::date AND valuation_date <= $3::date`,
      [fundId, after, upTo],
    );
    return rows[0];
  }

  /**
   * P&L booked by manual journal entries (income − expense) dated in (after, upTo], as the NAV
   * engine defines it: lines of entries that no NAV run posted.
   */
  async manualPnlBetween(fundId: string, after: string, upTo: string): Promise<string> {
    const rows = await this.q.query(
      `SELECT COALESCE(sum(l.credit - l.debit), 0)::text AS pnl
         FROM journal_lines l
         JOIN journal_entries e ON e.id = l.entry_id AND e.fund_id = $1
         JOIN chart_of_accounts a ON a.fund_id = $1 AND a.code = l.account_code
        WHERE l.fund_id = $1 AND l.entry_date > $2::date AND l.entry_date <= $3::date
          AND e.nav_run_id IS NULL AND a.account_type IN ('income', 'expense')`,
      [fundId, after, upTo],
    );
    return rows[0].pnl;
  }

  async closeOn(fundId: string, symbol: string, date: string): Promise<string | null> {
    const rows = await this.q.query(
      `SELECT p.close::text FROM prices p JOIN instruments i ON i.id = p.instrument_id AND i.fund_id = $1
        WHERE p.fund_id = $1 AND i.symbol = $2 AND p.price_date <= $3::date ORDER BY p.price_date DESC LIMIT 1`,
      [fundId, symbol, date],
    );
    return rows[0]?.close ?? null;
  }

  completeRunDates(fundId: string): Promise<{ d: string }[]> {
    return this.q.query(
      `SELECT to_char(valuation_date, 'YYYY-MM-DD') AS d FROM nav_runs WHERE fund_id = $1 AND status = 'complete' ORDER BY valuation_date`,
      [fundId],
    );
  }

  async shareClass(fundId: string, name: string | null) {
    const rows = await this.q.query(
      `SELECT id, name, initial_nav_per_unit::text, to_char(launch_date, 'YYYY-MM-DD') AS launch_date,
              perf_fee_rate::text, hurdle_annual_rate::text, crystallization_frequency, fee_exempt
         FROM share_classes WHERE fund_id = $1 AND ($2::text IS NULL OR name = $2) ORDER BY sort_order, name LIMIT 1`,
      [fundId, name],
    );
    return (rows[0] ?? null) as ShareClassRow | null;
  }

  /** The class's GNAV (NAV per unit after management fee, before performance fee) on each complete run where it has units. */
  /**
   * The class's GNAV per unit on each complete run; null on a day it had no units all day. The day
   * everyone redeems has no NAV per unit at its close, but its GNAV is the price they were paid.
   */
  classGrossNavPerUnitSeries(fundId: string, classId: string) {
    return this.q.query(
      `SELECT to_char(r.valuation_date, 'YYYY-MM-DD') AS d,
              CASE WHEN c.nav_per_unit IS NOT NULL OR c.opening_nav > 0 THEN c.gross_nav_per_unit::text END AS gnav
         FROM nav_run_classes c JOIN nav_runs r ON r.id = c.nav_run_id AND r.fund_id = $1 AND r.status = 'complete'
        WHERE c.fund_id = $1 AND c.share_class_id = $2
        ORDER BY r.valuation_date`,
      [fundId, classId],
    ) as Promise<{ d: string; gnav: string | null }[]>;
  }
}
