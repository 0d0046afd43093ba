import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Everyone who chose where a subscription's events go or saw its signing secret: the key and/or
 * person that created it, changed its URL, re-enabled it or rotated its secret, one row per act
 * (append-only). Revoking or expiring such a key, and removing or demoting such a person below
 * webhooks:manage, disables the subscription; before, only its creator's did. Backfilled from the
 * creator columns.
 */
export class WebhookHolders1763801700000 implements MigrationInterface {
  name = 'WebhookHolders1763801700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_subscription_holders (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id),
        key_id uuid REFERENCES api_keys(id),
        user_id uuid REFERENCES users(id),
        act text NOT NULL CHECK (act IN ('created', 'url_changed', 'enabled', 'secret_rotated')),
        at timestamptz NOT NULL DEFAULT now(),
        CHECK (key_id IS NOT NULL OR user_id IS NOT NULL)
      )`);
    await q.query(
      `CREATE INDEX webhook_subscription_holders_key_idx ON webhook_subscription_holders (key_id) WHERE key_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX webhook_subscription_holders_user_idx ON webhook_subscription_holders (user_id) WHERE user_id IS NOT NULL`,
    );
    await q.query(`
      INSERT INTO webhook_subscription_holders (subscription_id, key_id, user_id, act, at)
      SELECT id, created_by_key_id, created_by_user_id, 'created', created_at FROM webhook_subscriptions
       WHERE created_by_key_id IS NOT NULL OR created_by_user_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_subscription_holders`);
  }
}
