import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Activity retention (ACTIVITY_RETENTION_DAYS): rows of activity_log older than the retention become
 * daily counts in activity_daily, per UTC day and everything /usage filters and groups by — the key,
 * the person (console requests are the rows without a key), method and route — so /usage answers the
 * same over its 366-day window once the rows are gone. One row per (key, day, person, method, route):
 * the unique index, NULLS NOT DISTINCT (a console request has no key), is what the sweep's upsert adds
 * to; it leads with the key so a key's usage is an index range, and console requests have their own.
 *
 * The sweep finds the oldest rows by primary key (ids follow the order rows are written in), so no
 * index on occurred_at is added to the hot write path. The down migration drops the daily counts:
 * the days they held are then missing from /usage.
 */
export class ActivityDaily1763801800000 implements MigrationInterface {
  name = 'ActivityDaily1763801800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS activity_daily (
        day date NOT NULL,
        key_id uuid,
        user_id uuid,
        method text NOT NULL,
        route text NOT NULL,
        requests bigint NOT NULL CHECK (requests > 0),
        errors bigint NOT NULL CHECK (errors BETWEEN 0 AND requests),
        CHECK (key_id IS NOT NULL OR user_id IS NOT NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS activity_daily_key_day_idx
                     ON activity_daily (key_id, day, user_id, method, route) NULLS NOT DISTINCT`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS activity_daily_console_day_idx ON activity_daily (user_id, day) WHERE key_id IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE activity_daily`);
  }
}
