import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The built-in OAuth 2.1 authorization server for MCP clients. A client is registered dynamically
 * (RFC 7591) or identified by the URL of its metadata document; an authorization request waits for
 * the person's consent in the console and then carries a single-use code (stored hashed); a grant
 * (connected app) is a person's consent for one client on one fund with some scopes, backed by an
 * api_keys row minted through the one minting function (so scopes, rate limits, activity log and
 * maker-checker are those of a key); tokens are opaque and stored hashed.
 */
export class OAuth1763800700000 implements MigrationInterface {
  name = 'OAuth1763800700000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of OAUTH_SQL) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_tokens');
    await q.query('DROP TABLE oauth_authorizations');
    await q.query('DROP TABLE oauth_grants');
    await q.query('DROP TABLE oauth_clients');
  }
}

const OAUTH_SQL = [
  `CREATE TABLE oauth_clients (
    client_id text PRIMARY KEY CHECK (length(client_id) BETWEEN 1 AND 2048),
    kind text NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
    client_name text NOT NULL CHECK (length(client_name) BETWEEN 1 AND 200),
    redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
    token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
    client_secret_hash bytea,
    client_uri text,
    created_at timestamptz NOT NULL DEFAULT now(),
    fetched_at timestamptz
  )`,
  `CREATE TABLE oauth_grants (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    client_id text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    fund_id uuid NOT NULL REFERENCES funds(id) ON DELETE CASCADE,
    key_id uuid NOT NULL UNIQUE REFERENCES api_keys(id) ON DELETE CASCADE,
    scopes text[] NOT NULL,
    resource text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE INDEX oauth_grants_user ON oauth_grants (user_id, created_at DESC)`,
  `CREATE TABLE oauth_authorizations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    client_id text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    state text,
    scope text[] NOT NULL DEFAULT '{}',
    resource text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    decided_at timestamptz,
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    grant_id uuid REFERENCES oauth_grants(id) ON DELETE CASCADE,
    code_hash bytea UNIQUE,
    code_expires_at timestamptz,
    code_used_at timestamptz
  )`,
  `CREATE TABLE oauth_tokens (
    token_hash bytea PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    family_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE INDEX oauth_tokens_family ON oauth_tokens (family_id)`,
  `CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)`,
];
