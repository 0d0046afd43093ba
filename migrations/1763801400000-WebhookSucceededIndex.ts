import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A subscription's latest successful delivery, found by index: a delivery that fails for good
 * disables its subscription when nothing reached the receiver for three days, and recording a batch
 * asks that for each subscription with such a failure (without it, a scan of all its deliveries).
 */
export class WebhookSucceededIndex1763801400000 implements MigrationInterface {
  name = 'WebhookSucceededIndex1763801400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_succeeded_idx ON webhook_deliveries (subscription_id, completed_at DESC)
                    WHERE status = 'succeeded'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_succeeded_idx`);
  }
}
