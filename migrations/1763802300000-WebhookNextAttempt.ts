import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `webhook_deliveries.next_attempt_at`: when the next automatic attempt of a pending delivery whose
 * last attempt failed is due (the end of that attempt plus the WEBHOOK_RETRY_DELAYS step BullMQ waits;
 * the worker starts it then or a little later). Null while a delivery has not been attempted, while
 * an attempt is in flight, and once it has ended; a manual retry or a re-enqueue clears it.
 *
 * Existing rows stay null: a delivery pending at the time shows its next attempt once that attempt
 * has been made and failed (the delay of its current step lives only in its BullMQ job).
 * down drops the column.
 */
export class WebhookNextAttempt1763802300000 implements MigrationInterface {
  name = 'WebhookNextAttempt1763802300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN next_attempt_at`);
  }
}
