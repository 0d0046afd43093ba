import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';

export interface ExposureSeriesRow {
  date: string;
  nav: string;
  long: string;
  short: string;
  cash: string;
}

@Injectable()
export class PositionsRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  /** Exposure per complete run in the trailing `days` ending at the latest complete run (live connections only). */
  exposureByCompleteRun(fundId: string, days: number): Promise<ExposureSeriesRow[]> {
    return this.q.query(
      `WITH runs AS MATERIALIZED (
         -- a scalar subquery (one InitPlan), so the latest date is computed once whatever the estimates
         SELECT r.id, r.valuation_date, r.net_asset_value FROM nav_runs r
          WHERE r.fund_id = $1 AND r.status = 'complete'
            AND r.valuation_date > (SELECT valuation_date FROM nav_runs WHERE fund_id = $1 AND status = 'complete'
                                     ORDER BY valuation_date DESC LIMIT 1) - $2::int
       )
       SELECT to_char(r.valuation_date, 'YYYY-MM-DD') AS date, r.net_asset_value::text AS nav,
              COALESCE(sum(p.market_value) FILTER (WHERE i.asset_class NOT IN ('cash', 'stablecoin') AND p.market_value > 0), 0)::text AS long,
              COALESCE(-sum(p.market_value) FILTER (WHERE i.asset_class NOT IN ('cash', 'stablecoin') AND p.market_value < 0), 0)::text AS short,
              COALESCE(sum(p.market_value) FILTER (WHERE i.asset_class IN ('cash', 'stablecoin')), 0)::text AS cash
         FROM runs r
         LEFT JOIN (nav_run_positions p
                    JOIN connections c ON c.id = p.connection_id AND c.fund_id = $1 AND c.mode = 'live'
                    JOIN instruments i ON i.id = p.instrument_id AND i.fund_id = $1)
           ON p.nav_run_id = r.id AND p.fund_id = $1
        GROUP BY r.id, r.valuation_date, r.net_asset_value
        ORDER BY r.valuation_date`,
      [fundId, days],
    );
  }
}
