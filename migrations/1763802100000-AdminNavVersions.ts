import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Every figure the administrator sent for a date, kept: `admin_nav_versions` holds one row per
 * figure (version 1, 2, … per fund and date) with the time of the import that wrote it. A trigger on
 * `admin_navs` appends a version when a row is inserted and when a re-import changes its
 * `net_asset_value` (the same figure again adds nothing), so no writer can skip the history;
 * `admin_navs` keeps the current figure the reconciliation compares. Versions are append-only: an
 * update or a delete is refused, except a delete in a purge of a synthetic fund (`fundgate.purge`);
 * TRUNCATE (which fires no row trigger) is refused by a statement trigger, always — directly or by
 * `TRUNCATE admin_navs CASCADE`, purge or not: a purge deletes one synthetic fund's rows, a TRUNCATE
 * would empty every fund's history.
 *
 * Existing rows become version 1 with no import time (`imported_at` null: not recorded before this
 * migration); every later version has one.
 *
 * down drops the history: the current figures stay in `admin_navs`, the replaced ones are gone (the
 * schema before this migration has nowhere to keep them).
 */
export class AdminNavVersions1763802100000 implements MigrationInterface {
  name = 'AdminNavVersions1763802100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_nav_versions (
        fund_id uuid NOT NULL,
        valuation_date date NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        net_asset_value numeric(20,2) NOT NULL,
        administrator text NOT NULL,
        imported_at timestamptz CHECK (imported_at IS NOT NULL OR version = 1),
        PRIMARY KEY (fund_id, valuation_date, version),
        FOREIGN KEY (fund_id, valuation_date) REFERENCES admin_navs (fund_id, valuation_date)
      )`);
    await q.query(`
      INSERT INTO admin_nav_versions (fund_id, valuation_date, version, net_asset_value, administrator, imported_at)
      SELECT fund_id, valuation_date, 1, net_asset_value, administrator, NULL FROM admin_navs`);
    // now(): the writing transaction's start, i.e. the import's time, the same for all its rows
    await q.query(`
      CREATE FUNCTION admin_nav_append_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO admin_nav_versions (fund_id, valuation_date, version, net_asset_value, administrator, imported_at)
        SELECT NEW.fund_id, NEW.valuation_date, coalesce(max(v.version), 0) + 1, NEW.net_asset_value, NEW.administrator, now()
          FROM admin_nav_versions v WHERE v.fund_id = NEW.fund_id AND v.valuation_date = NEW.valuation_date;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER admin_navs_version_inserted AFTER INSERT ON admin_navs FOR EACH ROW EXECUTE FUNCTION admin_nav_append_version()`,
    );
    await q.query(`
      CREATE TRIGGER admin_navs_version_restated AFTER UPDATE OF net_asset_value ON admin_navs FOR EACH ROW
        WHEN (OLD.net_asset_value IS DISTINCT FROM NEW.net_asset_value) EXECUTE FUNCTION admin_nav_append_version()`);
    await q.query(`
      CREATE FUNCTION admin_nav_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('fundgate.purge', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'admin_nav_versions is append-only: a restated administrator NAV is a new version (% refused)', TG_OP;
      END $$`);
    await q.query(
      `CREATE TRIGGER admin_nav_versions_append_only BEFORE UPDATE OR DELETE ON admin_nav_versions FOR EACH ROW EXECUTE FUNCTION admin_nav_versions_append_only()`,
    );
    // row triggers do not fire on TRUNCATE (TG_OP 'TRUNCATE' always reaches the RAISE)
    await q.query(
      `CREATE TRIGGER admin_nav_versions_no_truncate BEFORE TRUNCATE ON admin_nav_versions FOR EACH STATEMENT EXECUTE FUNCTION admin_nav_versions_append_only()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER admin_navs_version_restated ON admin_navs`);
    await q.query(`DROP TRIGGER admin_navs_version_inserted ON admin_navs`);
    await q.query(`DROP FUNCTION admin_nav_append_version()`);
    await q.query(`DROP TRIGGER admin_nav_versions_no_truncate ON admin_nav_versions`);
    await q.query(`DROP TRIGGER admin_nav_versions_append_only ON admin_nav_versions`);
    await q.query(`DROP TABLE admin_nav_versions`);
    await q.query(`DROP FUNCTION admin_nav_versions_append_only()`);
  }
}
