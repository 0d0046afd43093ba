import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Deliveries travel in batch jobs (issue 17: one BullMQ job per subscription and batch of its
 * deliveries): each delivery row names the job that carries it, so the lost-job sweeper can ask
 * BullMQ about that job. NULL for rows enqueued before this (their job id is `<id>-g<generation>`).
 */
export class WebhookDeliveryJobs1763800800000 implements MigrationInterface {
  name = 'WebhookDeliveryJobs1763800800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN job_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN job_id`);
  }
}
