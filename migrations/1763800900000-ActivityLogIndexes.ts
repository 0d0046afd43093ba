import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Two fewer index entries for every request the activity log records (issue 17 item 1). Every
 * request writes a row, so each index on activity_log costs on the hot path's write side.
 *
 * - activity_log_time_idx (occurred_at, id) served no query: every read of the log names its keys
 *   (key_id) or a person's console requests (key_id IS NULL AND user_id), and those have their own
 *   indexes. Dropped.
 * - activity_log_user_time_idx held every row with a user_id, which is also every request made
 *   with a person's key; the only query that reads it asks for console requests (key_id IS NULL).
 *   Rebuilt as a partial index over those rows, which the same query plan uses.
 *
 * Built and dropped CONCURRENTLY, outside a transaction (`transaction = false`): every request
 * writes a row, and a plain CREATE INDEX would hold back the activity writer's COPYs (and a plain
 * DROP INDEX usage reads) for the whole build. The new index is built before the old ones go; a
 * build that failed half-way leaves an invalid index, which a rerun drops first. The down migration
 * runs in TypeORM's transaction, so it uses the plain forms.
 */
export class ActivityLogIndexes1763800900000 implements MigrationInterface {
  name = 'ActivityLogIndexes1763800900000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS activity_log_console_time_idx`);
    await q.query(
      `CREATE INDEX CONCURRENTLY activity_log_console_time_idx ON activity_log (user_id, occurred_at DESC, id DESC) WHERE key_id IS NULL`,
    );
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS activity_log_user_time_idx`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS activity_log_time_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX activity_log_time_idx ON activity_log (occurred_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX activity_log_user_time_idx ON activity_log (user_id, occurred_at DESC, id DESC) WHERE user_id IS NOT NULL`,
    );
    await q.query(`DROP INDEX activity_log_console_time_idx`);
  }
}
