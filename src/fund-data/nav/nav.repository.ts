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

  /**
   * The reconciliation's two lists in one statement, so one snapshot (an import committing meanwhile
   * is in both or in neither, never in one list only — two queries on two pooled connections would not
   * agree, and a replica read stays one statement on one source):
   * - `items`: one keyset page of administrator NAVs, latest first, on the (fund_id, valuation_date)
   *   primary key, each with every figure the administrator sent for its date (oldest first; the last
   *   is the current one);
   * - `awaiting`: month-ends (the day before a 1st) from the administrator's first NAV through `through`
   *   that have a complete run and no administrator NAV, latest first (none while it has sent nothing).
   */
  async reconciliation(fundId: string, before: string | null, limit: number, through: string) {
    const rows = (await this.q.query(RECONCILIATION_SQL, [
      fundId,
      before,
      limit,
      through,
    ])) as (ReconciliationItemRow & {
      kind: 'item' | 'awaiting';
    })[];
    return {
      items: rows.filter((r) => r.kind === 'item'),
      awaiting: rows.filter((r) => r.kind === 'awaiting') as AwaitingRow[],
    };
  }
}

export interface ReconciliationItemRow {
  valuation_date: string;
  administrator_nav: string;
  shadow_nav: string | null;
  stale: boolean;
  /** every figure sent for the date, oldest first, and when each was imported (null: before history was kept) */
  version_navs: string[];
  version_imported_at: (Date | null)[];
}

export interface AwaitingRow {
  valuation_date: string;
  shadow_nav: string;
  stale: boolean;
}

/**
 * $1 fund, $2 keyset position (items before this date), $3 page size, $4 last due month-end date.
 * Awaited month-ends start at the administrator's earliest valuation date (its primary key's first
 * entry for the fund): before its first figure there is no reporting relationship to check.
 */
const RECONCILIATION_SQL = `
  WITH page AS (
    SELECT a.valuation_date, a.net_asset_value::text AS administrator_nav,
           r.net_asset_value::text AS shadow_nav, coalesce(a.valuation_date >= f.nav_restart_from, false) AS stale
      FROM admin_navs a
      JOIN funds f ON f.id = a.fund_id
      LEFT JOIN nav_runs r ON r.fund_id = a.fund_id AND r.valuation_date = a.valuation_date AND r.status = 'complete'
     WHERE a.fund_id = $1 AND ($2::date IS NULL OR a.valuation_date < $2::date)
     ORDER BY a.valuation_date DESC
     LIMIT $3)
  SELECT 'item' AS kind, p.valuation_date AS d, to_char(p.valuation_date, 'YYYY-MM-DD') AS valuation_date,
         p.administrator_nav, p.shadow_nav, p.stale,
         coalesce(h.navs, '{}') AS version_navs, coalesce(h.imported, '{}') AS version_imported_at
    FROM page p
    LEFT JOIN LATERAL (
         SELECT array_agg(v.net_asset_value::text ORDER BY v.version) AS navs,
                array_agg(v.imported_at ORDER BY v.version) AS imported
           FROM admin_nav_versions v WHERE v.fund_id = $1 AND v.valuation_date = p.valuation_date) h ON true
  UNION ALL
  SELECT 'awaiting', r.valuation_date, to_char(r.valuation_date, 'YYYY-MM-DD'),
         NULL, r.net_asset_value::text, coalesce(r.valuation_date >= f.nav_restart_from, false),
         NULL::text[], NULL::timestamptz[]
    FROM nav_runs r
    JOIN funds f ON f.id = r.fund_id
   WHERE r.fund_id = $1 AND r.status = 'complete' AND r.valuation_date <= $4::date
     AND r.valuation_date >= (SELECT min(a.valuation_date) FROM admin_navs a WHERE a.fund_id = $1)
     AND extract(day FROM r.valuation_date + 1) = 1
     AND NOT EXISTS (SELECT 1 FROM admin_navs a WHERE a.fund_id = r.fund_id AND a.valuation_date = r.valuation_date)
  ORDER BY kind DESC, d DESC`;
