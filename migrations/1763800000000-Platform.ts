import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Accounts, funds, API keys and the per-request activity log. */
export class Platform1763800000000 implements MigrationInterface {
  name = 'Platform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
        kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'service')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE funds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL,
        base_currency char(3) NOT NULL DEFAULT 'USD',
        is_synthetic boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        fund_id uuid REFERENCES funds(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        key_hash bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
        display_prefix text NOT NULL,
        last_four text NOT NULL,
        scopes text[] NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'developer', 'platform')),
        is_demo boolean NOT NULL DEFAULT false,
        created_by_key_id uuid REFERENCES api_keys(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE activity_log (
        id bigserial PRIMARY KEY,
        occurred_at timestamptz NOT NULL,
        request_id text NOT NULL,
        key_id uuid,
        account_id uuid,
        fund_id uuid,
        method text NOT NULL,
        route text NOT NULL,
        tool text,
        status smallint NOT NULL,
        duration_ms numeric(12,3) NOT NULL,
        client_ip text,
        user_agent text
      )`);
    await q.query(`CREATE INDEX activity_log_key_time_idx ON activity_log (key_id, occurred_at DESC, id DESC)`);
    await q.query(`CREATE INDEX activity_log_time_idx ON activity_log (occurred_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE activity_log');
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE funds');
    await q.query('DROP TABLE accounts');
  }
}
