import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';
import { utcMicros } from '../../database/sql-fragments';

@Injectable()
export class NavRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  /** One keyset page, latest first: (valuation_date, started_at, id) desc, on the index of that order. */
  runsForFund(
    fundId: string,
    from: string | null,
    to: string | null,
    after: { valuationDate: string; startedAt: string; id: string } | null,
    limit: number,
  ) {
    return this.q.query(
      `SELECT r.id, to_char(r.valuation_date, 'YYYY-MM-DD') AS valuation_date, r.status, r.failure_reason, r.started_at, r.completed_at,
              ${utcMicros('r.started_at')} AS started_key,
              r.gross_asset_value::text, r.net_asset_value::text,
              coalesce(r.valuation_date >= f.nav_restart_from, false) AS stale,
              COALESCE((
                SELECT json_agg(json_build_object('name', sc.name, 'navPerUnit', c.nav_per_unit::text, 'units', c.units::text,
                                                  'netAssetValue', c.net_asset_value::text) ORDER BY sc.sort_order)
                  FROM nav_run_classes c JOIN share_classes sc ON sc.id = c.share_class_id AND sc.fund_id = $1
                 WHERE c.nav_run_id = r.id AND c.fund_id = $1
              ), '[]'::json) AS classes
         FROM nav_runs r
         JOIN funds f ON f.id = r.fund_id
        WHERE r.fund_id = $1 AND ($2::date IS NULL OR r.valuation_date >= $2::date) AND ($3::date IS NULL OR r.valuation_date <= $3::date)
          AND ($4::date IS NULL OR (r.valuation_date, r.started_at, r.id) < ($4::date, $5::timestamptz, $6::uuid))
        ORDER BY r.valuation_date DESC, r.started_at DESC, r.id DESC
        LIMIT $7`,
      [fundId, from, to, after?.valuationDate ?? null, after?.startedAt ?? null, after?.id ?? null, limit],
    ) as Promise<
      {
        id: string;
        valuation_date: string;
        started_key: string;
        status: string;
        /** dated on or after funds.nav_restart_from: a complete one is served stale */
        stale: boolean;
        failure_reason: string | null;
        started_at: Date;
        completed_at: Date | null;
        gross_asset_value: string | null;
        net_asset_value: string | null;
        classes: { name: string; navPerUnit: string | null; units: string; netAssetValue: string }[];
      }[]
    >;
  }

  async runCount(fundId: string, from: string | null, to: string | null): Promise<number> {
    const rows = await this.q.query(
      `SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = $1 AND ($2::date IS NULL OR valuation_date >= $2::date) AND ($3::date IS NULL OR valuation_date <= $3::date)`,
      [fundId, from, to],
    );
    return rows[0].n;
  }

  /** One keyset page of administrator NAVs, latest first, on the (fund_id, valuation_date) primary key. */
  administratorVsShadow(fundId: string, before: string | null, limit: number) {
    return this.q.query(
      `SELECT to_char(a.valuation_date, 'YYYY-MM-DD') AS valuation_date, a.net_asset_value::text AS administrator_nav,
              r.net_asset_value::text AS shadow_nav, coalesce(a.valuation_date >= f.nav_restart_from, false) AS stale
         FROM admin_navs a
         JOIN funds f ON f.id = a.fund_id
         LEFT JOIN nav_runs r ON r.fund_id = a.fund_id AND r.valuation_date = a.valuation_date AND r.status = 'complete'
        WHERE a.fund_id = $1 AND ($2::date IS NULL OR a.valuation_date < $2::date)
        ORDER BY a.valuation_date DESC
        LIMIT $3`,
      [fundId, before, limit],
    ) as Promise<{ valuation_date: string; administrator_nav: string; shadow_nav: string | null; stale: boolean }[]>;
  }
}
