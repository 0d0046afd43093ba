import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Indexes in the exact keyset order of the paged fund-data listings (issue 14), so each page is
 * an index seek to the cursor's position plus `limit` rows, whatever its depth:
 * - expenses by (accrual_date, external_id) desc;
 * - lp_reports by (period_end, period_start, id) desc;
 * - investors by (display_name, id);
 * - capital_activity by (dealing_date, created_at, id) desc, with and without the status filter
 *   (the status one replaces capital_activity_fund_status_idx, a prefix of it);
 * - nav_runs by (valuation_date, started_at, id) desc (replaces nav_runs_fund_date_idx, a prefix).
 * Journal lines (fund_id, entry_date, id), gl-detail (fund_id, account_code, entry_date, id) and
 * admin_navs (primary key fund_id, valuation_date) already have theirs.
 */
export class ListingKeysetIndexes1763800750000 implements MigrationInterface {
  name = 'ListingKeysetIndexes1763800750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX expenses_fund_keyset_idx ON expenses (fund_id, accrual_date DESC, external_id DESC)`);
    await q.query(
      `CREATE INDEX lp_reports_fund_keyset_idx ON lp_reports (fund_id, period_end DESC, period_start DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX investors_fund_name_idx ON investors (fund_id, display_name, id)`);
    await q.query(
      `CREATE INDEX capital_activity_fund_keyset_idx ON capital_activity (fund_id, dealing_date DESC, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX capital_activity_fund_status_keyset_idx ON capital_activity (fund_id, status, dealing_date DESC, created_at DESC, id DESC)`,
    );
    await q.query(`DROP INDEX capital_activity_fund_status_idx`);
    await q.query(
      `CREATE INDEX nav_runs_fund_keyset_idx ON nav_runs (fund_id, valuation_date DESC, started_at DESC, id DESC)`,
    );
    await q.query(`DROP INDEX nav_runs_fund_date_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX nav_runs_fund_date_idx ON nav_runs (fund_id, valuation_date DESC, started_at DESC)`);
    await q.query(`DROP INDEX nav_runs_fund_keyset_idx`);
    await q.query(
      `CREATE INDEX capital_activity_fund_status_idx ON capital_activity (fund_id, status, dealing_date DESC)`,
    );
    await q.query(`DROP INDEX capital_activity_fund_status_keyset_idx`);
    await q.query(`DROP INDEX capital_activity_fund_keyset_idx`);
    await q.query(`DROP INDEX investors_fund_name_idx`);
    await q.query(`DROP INDEX lp_reports_fund_keyset_idx`);
    await q.query(`DROP INDEX expenses_fund_keyset_idx`);
  }
}
