import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';
import { utcMicros } from '../../database/sql-fragments';

export interface CapitalAccountRow {
  investor_id: string;
  display_name: string;
  share_class: string;
  opening_capital: string;
  contributions: string;
  redemptions: string;
  pnl: string;
  management_fee: string;
  performance_fee: string;
  closing_capital: string;
  units: string;
  nav_per_unit: string | null;
  ownership_ratio: string;
}

/** Investor reads. Only display columns are ever selected: PII columns stay in the database. */
@Injectable()
export class InvestorsRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  /**
   * One keyset page of the register by (display_name, id). The position is the last row's
   * (display_name, id), compared as a row value, so the (fund_id, display_name, id) index seeks
   * straight to it, and a position whose row has since gone or been renamed still resumes there.
   */
  investorsWithHoldings(
    fundId: string,
    runId: string | null,
    after: { displayName: string; id: string } | null,
    limit: number,
  ) {
    return this.q.query(
      `SELECT i.id AS investor_id, i.display_name, i.status, i.investor_type,
              COALESCE(h.open_lots, 0)::int AS open_lots, COALESCE(h.units, 0)::text AS units
         FROM investors i
         LEFT JOIN LATERAL (
           SELECT count(*) FILTER (WHERE l.units > 0) AS open_lots, sum(l.units) AS units
             FROM nav_run_lots l JOIN subscription_lots s ON s.id = l.lot_id AND s.fund_id = $1
            WHERE l.nav_run_id = $2::uuid AND l.fund_id = $1 AND s.investor_id = i.id
         ) h ON true
        WHERE i.fund_id = $1
          AND ($3::text IS NULL OR (i.display_name, i.id) > ($3::text, $4::uuid))
        ORDER BY i.display_name, i.id
        LIMIT $5`,
      [fundId, runId, after?.displayName ?? null, after?.id ?? null, limit],
    ) as Promise<
      {
        investor_id: string;
        display_name: string;
        status: string;
        investor_type: string;
        open_lots: number;
        units: string;
      }[]
    >;
  }

  async investorCount(fundId: string): Promise<number> {
    return (await this.q.query(`SELECT count(*)::int AS n FROM investors WHERE fund_id = $1`, [fundId]))[0].n;
  }

  capitalAccountsOfRun(fundId: string, runId: string): Promise<CapitalAccountRow[]> {
    return this.q.query(
      `SELECT a.investor_id, i.display_name, sc.name AS share_class,
              a.opening_capital::text, a.contributions::text, a.redemptions::text, a.pnl::text,
              a.management_fee::text, a.performance_fee::text, a.closing_capital::text, a.units::text,
              a.nav_per_unit::text, a.ownership_ratio::text
         FROM nav_run_capital_accounts a
         JOIN investors i ON i.id = a.investor_id AND i.fund_id = $1
         JOIN share_classes sc ON sc.id = a.share_class_id AND sc.fund_id = $1
        WHERE a.nav_run_id = $2 AND a.fund_id = $1
        ORDER BY sc.sort_order, i.display_name, a.investor_id`,
      [fundId, runId],
    );
  }

  /** One keyset page, latest dealing date first: (dealing_date, created_at, id) desc, on the index of that order. */
  capitalActivity(
    fundId: string,
    status: string | null,
    after: { dealingDate: string; createdAt: string; id: string } | null,
    limit: number,
  ) {
    return this.q.query(
      `SELECT ca.id, ca.investor_id, i.display_name, ca.type, sc.name AS share_class,
              ca.requested_amount::text, ca.requested_fraction::text,
              to_char(ca.dealing_date, 'YYYY-MM-DD') AS dealing_date, ca.status, ca.created_at,
              ${utcMicros('ca.created_at')} AS created_key,
              dealt.amount AS dealt_amount, dealt.units AS dealt_units, dealt.nav_per_unit AS dealt_nav_per_unit,
              dealt.fee AS dealt_fee
         FROM capital_activity ca
         JOIN investors i ON i.id = ca.investor_id AND i.fund_id = $1
         JOIN share_classes sc ON sc.id = ca.share_class_id AND sc.fund_id = $1
         -- what the complete NAV run of its dealing date dealt (the newest, should there be several)
         LEFT JOIN LATERAL (
               SELECT f.amount::text, f.units::text, f.nav_per_unit::text, f.performance_fee_crystallized::text AS fee
                 FROM nav_runs r
                 JOIN nav_run_flows f ON f.nav_run_id = r.id AND f.fund_id = $1 AND f.capital_activity_id = ca.id
                WHERE r.fund_id = $1 AND r.valuation_date = ca.dealing_date AND r.status = 'complete'
                ORDER BY r.started_at DESC
                LIMIT 1) dealt ON true
        WHERE ca.fund_id = $1 AND ($2::text IS NULL OR ca.status = $2)
          AND ($3::date IS NULL OR (ca.dealing_date, ca.created_at, ca.id) < ($3::date, $4::timestamptz, $5::uuid))
        ORDER BY ca.dealing_date DESC, ca.created_at DESC, ca.id DESC
        LIMIT $6`,
      [fundId, status, after?.dealingDate ?? null, after?.createdAt ?? null, after?.id ?? null, limit],
    ) as Promise<
      {
        id: string;
        investor_id: string;
        display_name: string;
        type: string;
        share_class: string;
        requested_amount: string | null;
        requested_fraction: string | null;
        dealing_date: string;
        status: string;
        created_at: Date;
        created_key: string;
        dealt_amount: string | null;
        dealt_units: string | null;
        dealt_nav_per_unit: string | null;
        dealt_fee: string | null;
      }[]
    >;
  }

  async capitalActivityCount(fundId: string, status: string | null): Promise<number> {
    const rows = await this.q.query(
      `SELECT count(*)::int AS n FROM capital_activity WHERE fund_id = $1 AND ($2::text IS NULL OR status = $2)`,
      [fundId, status],
    );
    return rows[0].n;
  }
}
