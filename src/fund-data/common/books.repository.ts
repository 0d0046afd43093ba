import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';

export interface CompleteRunRow {
  id: string;
  valuation_date: string;
  status: string;
  gross_asset_value: string;
  net_asset_value: string;
  /** Dated on or after `funds.nav_restart_from`: a booking approved since (or a run cut short) means it must be run again. */
  stale: boolean;
}

export interface LiveHoldingRow {
  connection_id: string;
  venue: string;
  source_type: string;
  symbol: string;
  asset_class: string;
  quantity: string;
  price: string;
  price_date: string | null;
}

/** Fund-scoped reads shared by several read areas: the latest complete run and live holdings. */
@Injectable()
export class BooksRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  async baseCurrency(fundId: string): Promise<string | null> {
    const rows: { base_currency: string }[] = await this.q.query(`SELECT base_currency FROM funds WHERE id = $1`, [
      fundId,
    ]);
    return rows[0]?.base_currency ?? null;
  }

  async latestCompleteRun(fundId: string): Promise<CompleteRunRow | null> {
    // ORDER BY the column, not the to_char output of the same name: a walk of (fund_id, valuation_date), not a sort of every run
    const rows: CompleteRunRow[] = await this.q.query(
      `SELECT id, to_char(valuation_date, 'YYYY-MM-DD') AS valuation_date, status,
              gross_asset_value::text, net_asset_value::text,
              coalesce(valuation_date >= (SELECT f.nav_restart_from FROM funds f WHERE f.id = $1), false) AS stale
         FROM nav_runs
        WHERE fund_id = $1 AND status = 'complete'
        ORDER BY nav_runs.valuation_date DESC
        LIMIT 1`,
      [fundId],
    );
    return rows[0] ?? null;
  }

  /**
   * Live holdings per live connection and instrument: the latest complete run's positions plus
   * the trades and transfers dated after it (cash legs included, booked in cents as the books
   * book them), priced at each instrument's latest close. Paper connections never appear. Before
   * the first complete run there is no book: subscriptions reach cash only through the NAV engine,
   * so trades and transfers alone would show cash spent that never came in.
   */
  async liveHoldings(fundId: string): Promise<{ runDate: string | null; rows: LiveHoldingRow[] }> {
    const rows: (LiveHoldingRow & { run_date: string | null })[] = await this.q.query(
      `WITH run AS (
         SELECT id, valuation_date FROM nav_runs
          WHERE fund_id = $1 AND status = 'complete'
          ORDER BY valuation_date DESC LIMIT 1
       ),
       since AS (SELECT (SELECT valuation_date FROM run) AS d),
       cash AS (
         SELECT i.id FROM instruments i JOIN funds f ON f.id = i.fund_id
          WHERE i.fund_id = $1 AND i.symbol = f.base_currency
       ),
       moves AS (
         SELECT p.connection_id, p.instrument_id, p.quantity, p.price AS run_price
           FROM nav_run_positions p JOIN run ON p.nav_run_id = run.id
          WHERE p.fund_id = $1
         UNION ALL
         SELECT t.connection_id, t.instrument_id,
                CASE WHEN t.side = 'buy' THEN t.quantity ELSE -t.quantity END, NULL
           FROM trades t, since WHERE t.fund_id = $1 AND t.trade_date > since.d
         UNION ALL
         SELECT t.connection_id, cash.id,
                CASE WHEN t.side = 'buy' THEN -(round(t.quantity * t.price, 2) + round(t.fee, 2))
                     ELSE round(t.quantity * t.price, 2) - round(t.fee, 2) END, NULL
           FROM trades t, since, cash WHERE t.fund_id = $1 AND t.trade_date > since.d
         UNION ALL
         SELECT tr.from_connection_id, tr.instrument_id, -tr.quantity, NULL
           FROM transfers tr, since WHERE tr.fund_id = $1 AND tr.transfer_date > since.d
         UNION ALL
         SELECT tr.to_connection_id, tr.instrument_id, tr.quantity, NULL
           FROM transfers tr, since WHERE tr.fund_id = $1 AND tr.transfer_date > since.d
       ),
       held AS (
         SELECT connection_id, instrument_id, sum(quantity) AS quantity, max(run_price) AS run_price
           FROM moves GROUP BY connection_id, instrument_id
         HAVING sum(quantity) <> 0
       )
       SELECT h.connection_id, c.venue, c.source_type, i.symbol, i.asset_class, h.quantity::text AS quantity,
              (CASE WHEN i.asset_class = 'cash' THEN 1 ELSE COALESCE(pr.close, h.run_price) END)::text AS price,
              CASE WHEN i.asset_class = 'cash' THEN NULL ELSE to_char(pr.price_date, 'YYYY-MM-DD') END AS price_date,
              (SELECT to_char(d, 'YYYY-MM-DD') FROM since) AS run_date
         FROM held h
         JOIN connections c ON c.id = h.connection_id AND c.fund_id = $1 AND c.mode = 'live'
         JOIN instruments i ON i.id = h.instrument_id AND i.fund_id = $1
         LEFT JOIN LATERAL (
           SELECT close, price_date FROM prices
            WHERE fund_id = $1 AND instrument_id = h.instrument_id
            ORDER BY price_date DESC LIMIT 1
         ) pr ON true
        ORDER BY i.symbol, c.venue, h.connection_id`,
      [fundId],
    );
    const runDate = rows[0]?.run_date ?? (await this.latestCompleteRun(fundId))?.valuation_date ?? null;
    return { runDate, rows };
  }
}
