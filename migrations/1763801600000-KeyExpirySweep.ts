import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * When a key's expiry was acted on: the webhook subscriptions it created are disabled once, as a
 * revocation disables them (an admin may re-enable one, and it then stays on). The partial index
 * holds only the keys still waiting for that, so the sweep reads a handful of rows.
 */
export class KeyExpirySweep1763801600000 implements MigrationInterface {
  name = 'KeyExpirySweep1763801600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN expiry_swept_at timestamptz`);
    await q.query(`CREATE INDEX api_keys_expiry_unswept_idx ON api_keys (expires_at)
                    WHERE expires_at IS NOT NULL AND expiry_swept_at IS NULL AND revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_keys_expiry_unswept_idx`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN expiry_swept_at`);
  }
}
