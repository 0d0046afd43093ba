import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Webhook retention (WEBHOOK_RETENTION_DAYS): the hourly sweep deletes ended deliveries (succeeded,
 * failed, cancelled) whose last change (completed_at) is older than the cutoff, oldest first, and then
 * dispatched events older than the cutoff that no delivery references. These two partial indexes are
 * those orders: without them every run would scan both tables to find that nothing is old enough.
 * Each adds one entry when a delivery ends (an update that was never HOT: `status` is in an index
 * predicate already) or an event is dispatched (likewise `dispatched_at`).
 * Built CONCURRENTLY outside a transaction (deliveries are written all the time); a build that failed
 * half-way leaves an invalid index, which a rerun drops first. down runs in TypeORM's transaction.
 */
export class WebhookRetentionIndexes1763801900000 implements MigrationInterface {
  name = 'WebhookRetentionIndexes1763801900000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_ended_idx`);
    await q.query(
      `CREATE INDEX CONCURRENTLY webhook_deliveries_ended_idx ON webhook_deliveries (completed_at) WHERE status <> 'pending'`,
    );
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_events_dispatched_idx`);
    await q.query(
      `CREATE INDEX CONCURRENTLY webhook_events_dispatched_idx ON webhook_events (created_at) WHERE dispatched_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_events_dispatched_idx`);
    await q.query(`DROP INDEX webhook_deliveries_ended_idx`);
  }
}
