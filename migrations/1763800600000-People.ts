import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * People, roles and console sessions. Every key belongs to an account that is either a person
 * (accounts.user_id) or a fund-owned service identity (accounts.owner_fund_id). Today's accounts and
 * keys are carried over by `LEGACY_SQL`: no key is invalidated (each legacy person gets a membership
 * whose role covers the scopes its keys already hold).
 */
export class People1763800600000 implements MigrationInterface {
  name = 'People1763800600000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of SCHEMA_SQL) await q.query(sql);
    for (const sql of LEGACY_SQL) await q.query(sql);
    await q.query(`ALTER TABLE accounts ADD CONSTRAINT accounts_identity_kind CHECK (
      (kind = 'person' AND user_id IS NOT NULL AND owner_fund_id IS NULL) OR (kind = 'service' AND user_id IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE accounts DROP CONSTRAINT accounts_identity_kind');
    await q.query('ALTER TABLE nav_runs DROP COLUMN published_by_user_id');
    await q.query('ALTER TABLE proposals DROP COLUMN decided_by_user_id');
    await q.query('DELETE FROM webhook_subscriptions WHERE created_by_key_id IS NULL');
    await q.query(
      'ALTER TABLE webhook_subscriptions DROP COLUMN created_by_user_id, ALTER COLUMN created_by_key_id SET NOT NULL',
    );
    await q.query('ALTER TABLE activity_log DROP COLUMN user_id');
    await q.query('ALTER TABLE funds DROP COLUMN approval_requires_totp');
    await q.query('DROP TABLE invitations');
    await q.query('DROP TABLE console_sessions');
    await q.query('DROP TABLE fund_members');
    await q.query('ALTER TABLE accounts DROP COLUMN owner_fund_id, DROP COLUMN user_id');
    await q.query('DROP TABLE user_recovery_codes');
    await q.query('DROP TABLE users');
  }
}

export const SCHEMA_SQL = [
  `CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
    display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
    password_hash text,
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'developer', 'platform')),
    totp_secret text,
    totp_enabled_at timestamptz,
    totp_last_step bigint,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `COMMENT ON COLUMN users.password_hash IS 'secret: scrypt hash, never served'`,
  `COMMENT ON COLUMN users.totp_secret IS 'secret: sealed with SecretSealer, never served after enrolment'`,
  `CREATE TABLE user_recovery_codes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash bytea NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    used_at timestamptz
  )`,
  `CREATE INDEX user_recovery_codes_user_idx ON user_recovery_codes (user_id)`,
  `ALTER TABLE accounts ADD COLUMN user_id uuid UNIQUE REFERENCES users(id),
                       ADD COLUMN owner_fund_id uuid REFERENCES funds(id)`,
  `CREATE TABLE fund_members (
    fund_id uuid NOT NULL REFERENCES funds(id),
    user_id uuid NOT NULL REFERENCES users(id),
    role text NOT NULL CHECK (role IN ('viewer', 'analyst', 'manager', 'admin')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (fund_id, user_id)
  )`,
  `CREATE INDEX fund_members_user_idx ON fund_members (user_id)`,
  `CREATE TABLE console_sessions (
    id bytea PRIMARY KEY CHECK (length(id) = 32),
    user_id uuid NOT NULL REFERENCES users(id),
    csrf_token text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    idle_expires_at timestamptz NOT NULL,
    absolute_expires_at timestamptz NOT NULL,
    totp_verified_at timestamptz,
    revoked_at timestamptz,
    client_ip text,
    user_agent text
  )`,
  `COMMENT ON COLUMN console_sessions.id IS 'SHA-256 of the cookie value; the value itself is never stored'`,
  `CREATE INDEX console_sessions_user_idx ON console_sessions (user_id) WHERE revoked_at IS NULL`,
  `CREATE TABLE invitations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    fund_id uuid NOT NULL REFERENCES funds(id),
    email text NOT NULL CHECK (email = lower(email)),
    role text NOT NULL CHECK (role IN ('viewer', 'analyst', 'manager', 'admin')),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    invited_by uuid NOT NULL REFERENCES users(id),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    accepted_by uuid REFERENCES users(id)
  )`,
  `CREATE INDEX invitations_fund_idx ON invitations (fund_id, created_at DESC)`,
  `ALTER TABLE funds ADD COLUMN approval_requires_totp boolean NOT NULL DEFAULT false`,
  `ALTER TABLE activity_log ADD COLUMN user_id uuid`,
  `CREATE INDEX activity_log_user_time_idx ON activity_log (user_id, occurred_at DESC, id DESC) WHERE user_id IS NOT NULL`,
  `ALTER TABLE webhook_subscriptions ALTER COLUMN created_by_key_id DROP NOT NULL,
                                    ADD COLUMN created_by_user_id uuid REFERENCES users(id)`,
  `ALTER TABLE proposals ADD COLUMN decided_by_user_id uuid REFERENCES users(id)`,
  `ALTER TABLE nav_runs ADD COLUMN published_by_user_id uuid REFERENCES users(id)`,
];

/**
 * Carries today's accounts over. The demo key's account becomes a service identity of the demo
 * fund; every other account is a person (user id = account id, so the mapping needs no temp table),
 * email `<name-slug>@legacy.invalid` unless the name is an email, no password (an operator sets one),
 * plan = the highest plan of its keys, and a membership on each fund its keys are bound to with the
 * smallest role covering those keys' scopes. Idempotent on an already-migrated row set.
 */
export const LEGACY_SQL = [
  `UPDATE accounts a SET kind = 'service', owner_fund_id = k.fund_id
     FROM (SELECT DISTINCT ON (account_id) account_id, fund_id FROM api_keys WHERE is_demo ORDER BY account_id, created_at) k
    WHERE a.id = k.account_id AND a.user_id IS NULL`,
  `UPDATE accounts a SET owner_fund_id = (SELECT k.fund_id FROM api_keys k WHERE k.account_id = a.id AND k.fund_id IS NOT NULL LIMIT 1)
    WHERE a.kind = 'service' AND a.owner_fund_id IS NULL`,
  `WITH legacy AS (
     SELECT a.id, a.name,
            CASE WHEN a.name ~* '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$' THEN lower(a.name)
                 ELSE coalesce(nullif(trim(both '-' from regexp_replace(lower(a.name), '[^a-z0-9]+', '-', 'g')), ''), 'account')
                      || '@legacy.invalid' END AS email,
            (SELECT CASE max(CASE k.plan WHEN 'platform' THEN 2 WHEN 'developer' THEN 1 ELSE 0 END)
                      WHEN 2 THEN 'platform' WHEN 1 THEN 'developer' ELSE 'free' END
               FROM api_keys k WHERE k.account_id = a.id) AS plan,
            a.created_at
       FROM accounts a WHERE a.kind = 'person' AND a.user_id IS NULL),
   numbered AS (SELECT *, row_number() OVER (PARTITION BY email ORDER BY created_at, id) AS n FROM legacy)
   INSERT INTO users (id, email, display_name, plan, created_at)
   SELECT id, CASE WHEN n = 1 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = numbered.email) THEN email
                   ELSE split_part(email, '@', 1) || '-' || left(id::text, 8) || '@' || split_part(email, '@', 2) END,
          name, plan, created_at
     FROM numbered`,
  `UPDATE accounts SET user_id = id WHERE kind = 'person' AND user_id IS NULL`,
  `INSERT INTO fund_members (fund_id, user_id, role)
   SELECT k.fund_id, a.user_id,
          CASE WHEN bool_or(k.scopes && ARRAY['webhooks:manage', 'keys:manage']) THEN 'admin'
               WHEN bool_or(k.scopes && ARRAY['proposals:review', 'nav:publish']) THEN 'manager'
               WHEN bool_or(k.scopes && ARRAY['fund:propose']) THEN 'analyst'
               ELSE 'viewer' END
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE a.kind = 'person' AND k.fund_id IS NOT NULL
    GROUP BY k.fund_id, a.user_id
   ON CONFLICT (fund_id, user_id) DO NOTHING`,
];
