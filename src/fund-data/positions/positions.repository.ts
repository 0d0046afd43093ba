import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface ExposureSeriesRow {
  date: string;
  nav: string;
  long: string;
  short: string;
  cash: string;
}

@Injectable()
export class PositionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Exposure per complete run in the trailing `days` ending at the latest complete run (live connections only). */
  exposureByCompleteRun(fundId: string, days: number): Promise<ExposureSeriesRow[]> {
    return this.db.query(
      `WITH latest AS (
         SELECT max(valuation_date) AS d FROM nav_runs WHERE fund_id = $1 AND status = 'complete'
       ),
       runs AS (
         SELECT r.id, r.valuation_date, r.net_asset_value FROM nav_runs r, latest
          WHERE r.fund_id = $1 AND r.status = 'complete' AND r.valuation_date > latest.d - $2::int
       ),
       marks AS (
         SELECT p.nav_run_id, p.market_value, (i.asset_class IN ('cash', 'stablecoin')) AS cash_like
           FROM nav_run_positions p
           JOIN runs ON runs.id = p.nav_run_id
           JOIN connections c ON c.id = p.connection_id AND c.fund_id = $1 AND c.mode = 'live'
           JOIN instruments i ON i.id = p.instrument_id AND i.fund_id = $1
          WHERE p.fund_id = $1
       )
       SELECT to_char(r.valuation_date, 'YYYY-MM-DD') AS date, r.net_asset_value::text AS nav,
              COALESCE(sum(m.market_value) FILTER (WHERE NOT m.cash_like AND m.market_value > 0), 0)::text AS long,
              COALESCE(-sum(m.market_value) FILTER (WHERE NOT m.cash_like AND m.market_value < 0), 0)::text AS short,
              COALESCE(sum(m.market_value) FILTER (WHERE m.cash_like), 0)::text AS cash
         FROM runs r LEFT JOIN marks m ON m.nav_run_id = r.id
        GROUP BY r.id, r.valuation_date, r.net_asset_value
        ORDER BY r.valuation_date`,
      [fundId, days],
    );
  }
}
