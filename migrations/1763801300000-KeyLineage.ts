import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `api_keys.created_by_user_id`: the person who minted a key (in the console, or with a key of theirs,
 * or with a service key they minted — the person behind the chain). Before, a service key carried no
 * trace of the admin who minted it: one admin could mint a service key with fund:propose, stage a
 * proposal with it and approve it themselves, and a removed admin's service keys (whose secrets they
 * had seen) lived on. Backfilled: a person's keys are theirs; a key minted by a key inherits that
 * key's person (service keys minted in a session before this migration stay unknown). Service keys
 * whose person has already left the fund are revoked, as a removal now does (down() does not revive
 * them).
 */
export class KeyLineage1763801300000 implements MigrationInterface {
  name = 'KeyLineage1763801300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN created_by_user_id uuid REFERENCES users(id)`);
    await q.query(`UPDATE api_keys k SET created_by_user_id = a.user_id FROM accounts a
                    WHERE a.id = k.account_id AND a.user_id IS NOT NULL`);
    await q.query(`WITH RECURSIVE chain AS (
                     SELECT id, created_by_user_id AS person FROM api_keys WHERE created_by_user_id IS NOT NULL
                     UNION
                     SELECT k.id, c.person FROM api_keys k JOIN chain c ON k.created_by_key_id = c.id
                      WHERE k.created_by_user_id IS NULL)
                   UPDATE api_keys k SET created_by_user_id = c.person FROM chain c
                    WHERE k.id = c.id AND k.created_by_user_id IS NULL`);
    await q.query(`CREATE INDEX api_keys_created_by_user_idx ON api_keys (created_by_user_id)
                    WHERE created_by_user_id IS NOT NULL`);
    await q.query(`CREATE INDEX api_keys_created_by_key_idx ON api_keys (created_by_key_id)
                    WHERE created_by_key_id IS NOT NULL`);
    await q.query(`CREATE INDEX webhook_subscriptions_created_by_key_idx ON webhook_subscriptions (created_by_key_id)
                    WHERE enabled AND deleted_at IS NULL`);
    // service keys whose minter has left the fund: what removal now revokes (they saw the secret)
    await q.query(`UPDATE api_keys k SET revoked_at = now()
                     FROM accounts a
                    WHERE a.id = k.account_id AND a.kind = 'service' AND k.revoked_at IS NULL
                      AND k.created_by_user_id IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM fund_members m
                                       WHERE m.fund_id = k.fund_id AND m.user_id = k.created_by_user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_subscriptions_created_by_key_idx`);
    await q.query(`DROP INDEX api_keys_created_by_key_idx`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN created_by_user_id`);
  }
}
