import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Scope } from '../common/auth/scopes';
import { SqlRepository } from '../database/sql-repository';

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface ClientRow {
  client_id: string;
  kind: 'registered' | 'metadata_document';
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  client_secret_hash: Buffer | null;
  client_uri: string | null;
  created_at: Date;
  fetched_at: Date | null;
}

export interface AuthorizationRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  scope: string[];
  resource: string;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  user_id: string | null;
  grant_id: string | null;
  code_expires_at: Date | null;
  code_used_at: Date | null;
  /** SHA-256 of the token cookie of the browser that started the request. */
  browser_hash: Buffer | null;
}

export interface GrantView {
  id: string;
  client_id: string;
  client_name: string;
  client_kind: 'registered' | 'metadata_document';
  redirect_uris: string[];
  fund_slug: string;
  fund_name: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface TokenRow {
  kind: 'access' | 'refresh';
  grant_id: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  /** From the grant: */
  key_id: string;
  client_id: string;
  client_name: string;
  resource: string;
  grant_revoked_at: Date | null;
  grant_created_at: Date;
  token_hash: Buffer;
}

const TOKEN_SELECT = `
  SELECT t.token_hash, t.kind, t.grant_id, t.family_id, t.expires_at, t.used_at, t.revoked_at,
         g.key_id, g.client_id, c.client_name, g.resource, g.revoked_at AS grant_revoked_at,
         g.created_at AS grant_created_at
    FROM oauth_tokens t
    JOIN oauth_grants g ON g.id = t.grant_id
    JOIN oauth_clients c ON c.client_id = g.client_id`;

/** SQL of the authorization server: clients, pending authorizations, grants (connected apps), tokens. */
@Injectable()
export class OAuthRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async client(clientId: string): Promise<ClientRow | null> {
    const rows: ClientRow[] = await this.q.query('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]);
    return rows[0] ?? null;
  }

  async insertClient(c: Omit<ClientRow, 'created_at' | 'fetched_at'>, fetched: boolean): Promise<void> {
    await this.q.query(
      `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, token_endpoint_auth_method, client_secret_hash, client_uri, fetched_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8 THEN now() END)
       ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris,
         token_endpoint_auth_method = EXCLUDED.token_endpoint_auth_method, client_uri = EXCLUDED.client_uri, fetched_at = EXCLUDED.fetched_at
       WHERE oauth_clients.kind = 'metadata_document'`,
      [
        c.client_id,
        c.kind,
        c.client_name,
        c.redirect_uris,
        c.token_endpoint_auth_method,
        c.client_secret_hash,
        c.client_uri,
        fetched,
      ],
    );
  }

  async insertAuthorization(a: {
    clientId: string;
    redirectUri: string;
    codeChallenge: string;
    state: string | null;
    scope: string[];
    resource: string;
    ttlSeconds: number;
    browserHash: Buffer;
  }): Promise<string> {
    const rows = await this.q.query(
      `INSERT INTO oauth_authorizations (client_id, redirect_uri, code_challenge, state, scope, resource, expires_at, browser_hash)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8) RETURNING id`,
      [a.clientId, a.redirectUri, a.codeChallenge, a.state, a.scope, a.resource, a.ttlSeconds, a.browserHash],
    );
    return rows[0].id;
  }

  /** The pending request, row-locked when `m` is a transaction (a consent decides it once). */
  async authorization(id: string, lock = false): Promise<AuthorizationRow | null> {
    const rows: AuthorizationRow[] = await this.q.query(
      `SELECT id, client_id, redirect_uri, code_challenge, state, scope, resource, created_at, expires_at, decided_at, user_id, grant_id,
              code_expires_at, code_used_at, browser_hash
         FROM oauth_authorizations WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  }

  async decide(
    id: string,
    d: { userId: string; grantId: string | null; codeHash: Buffer | null; codeTtlSeconds: number },
  ): Promise<void> {
    await this.q.query(
      `UPDATE oauth_authorizations SET decided_at = now(), user_id = $2, grant_id = $3, code_hash = $4,
              code_expires_at = CASE WHEN $4::bytea IS NULL THEN NULL ELSE now() + make_interval(secs => $5) END
        WHERE id = $1`,
      [id, d.userId, d.grantId, d.codeHash, d.codeTtlSeconds],
    );
  }

  /** The authorization a code belongs to, locked; the caller marks the code used in the same transaction. */
  async authorizationByCode(codeHash: Buffer): Promise<(AuthorizationRow & { code_hash: Buffer }) | null> {
    const rows = await this.q.query(
      `SELECT id, client_id, redirect_uri, code_challenge, resource, grant_id, code_hash, code_expires_at, code_used_at
         FROM oauth_authorizations WHERE code_hash = $1 FOR UPDATE`,
      [codeHash],
    );
    return rows[0] ?? null;
  }

  async markCodeUsed(id: string): Promise<void> {
    await this.q.query('UPDATE oauth_authorizations SET code_used_at = now() WHERE id = $1', [id]);
  }

  async insertGrant(g: {
    clientId: string;
    userId: string;
    fundId: string;
    keyId: string;
    scopes: readonly Scope[];
    resource: string;
  }): Promise<string> {
    const rows = await this.q.query(
      `INSERT INTO oauth_grants (client_id, user_id, fund_id, key_id, scopes, resource) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [g.clientId, g.userId, g.fundId, g.keyId, g.scopes, g.resource],
    );
    return rows[0].id;
  }

  async grantKey(grantId: string): Promise<string> {
    const [grant] = await this.q.query('SELECT key_id FROM oauth_grants WHERE id = $1', [grantId]);
    return grant.key_id;
  }

  /** A token living `ttlSeconds`, but never past its grant's creation + `grantMaxSeconds`; answers its seconds to live. */
  async insertToken(t: {
    hash: Buffer;
    kind: 'access' | 'refresh';
    grantId: string;
    familyId: string;
    ttlSeconds: number;
    grantMaxSeconds: number;
  }): Promise<number> {
    const [row] = await this.q.query(
      `INSERT INTO oauth_tokens (token_hash, kind, grant_id, family_id, expires_at)
       SELECT $1, $2, g.id, $4, least(now() + make_interval(secs => $5), g.created_at + make_interval(secs => $6))
         FROM oauth_grants g WHERE g.id = $3
       RETURNING floor(extract(epoch FROM expires_at - now()))::int AS seconds`,
      [t.hash, t.kind, t.grantId, t.familyId, t.ttlSeconds, t.grantMaxSeconds],
    );
    return row.seconds;
  }

  async token(hash: Buffer, lock = false): Promise<TokenRow | null> {
    const rows: TokenRow[] = await this.q.query(
      `${TOKEN_SELECT} WHERE t.token_hash = $1 ${lock ? 'FOR UPDATE OF t' : ''}`,
      [hash],
    );
    return rows[0] ?? null;
  }

  async markTokenUsed(hash: Buffer): Promise<void> {
    await this.q.query('UPDATE oauth_tokens SET used_at = now() WHERE token_hash = $1', [hash]);
  }

  async revokeToken(hash: Buffer): Promise<void> {
    await this.q.query('UPDATE oauth_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_hash = $1', [
      hash,
    ]);
  }

  /**
   * Locks a token family's root (the authorization its code came from; the family id is its id) until
   * the transaction ends. Whatever issues tokens in a family or revokes it takes this lock first.
   */
  async lockFamily(familyId: string): Promise<void> {
    await this.q.query('SELECT 1 FROM oauth_authorizations WHERE id = $1 FOR UPDATE', [familyId]);
  }

  /** Every token of the family ends; call under `lockFamily` (OAuthService.revokeFamily). */
  async revokeFamily(familyId: string): Promise<void> {
    await this.q.query('UPDATE oauth_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE family_id = $1', [
      familyId,
    ]);
  }

  /** Written at most once a minute per grant. */
  async touchGrant(grantId: string): Promise<void> {
    await this.q.query(
      `UPDATE oauth_grants SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [grantId],
    );
  }

  /** The person's connected apps: grants not ended whose key is not revoked (member removal revokes it). */
  async grantsOfUser(userId: string): Promise<GrantView[]> {
    return this.q.query(
      `SELECT g.id, g.client_id, c.client_name, c.kind AS client_kind, c.redirect_uris, f.slug AS fund_slug, f.name AS fund_name,
              g.scopes, g.created_at, greatest(g.last_used_at, k.last_used_at) AS last_used_at, g.revoked_at
         FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id JOIN funds f ON f.id = g.fund_id
         JOIN api_keys k ON k.id = g.key_id
        WHERE g.user_id = $1 AND g.revoked_at IS NULL AND k.revoked_at IS NULL ORDER BY g.created_at DESC`,
      [userId],
    );
  }

  /** Ends a person's grant and its tokens; answers the grant's key (revoked by the caller, in its transaction), or null. */
  async revokeGrant(userId: string, grantId: string): Promise<string | null> {
    const [keyId] = await this.endGrants('id = $1 AND user_id = $2', [grantId, userId]);
    return keyId ?? null;
  }

  /** Ends every grant of a person and their tokens; answers the grants' keys (revoked by the caller, in its transaction). */
  revokeGrantsOfUser(userId: string): Promise<string[]> {
    return this.endGrants('user_id = $1', [userId]);
  }

  /** Ends a person's grants on one fund (their membership ended) and their tokens; answers the grants' keys. */
  revokeGrantsOfUserOnFund(userId: string, fundId: string): Promise<string[]> {
    return this.endGrants('user_id = $1 AND fund_id = $2', [userId, fundId]);
  }

  /** Ends the grant a token family belongs to (one code, one family) and its tokens; answers its key. */
  revokeGrantOfFamily(familyId: string): Promise<string[]> {
    return this.endGrants('id = (SELECT grant_id FROM oauth_authorizations WHERE id = $1)', [familyId]);
  }

  /**
   * Grants still in force, and every token of them, end; answers their keys. A grant already ended
   * answers nothing again.
   */
  private async endGrants(where: string, params: unknown[]): Promise<string[]> {
    const [rows] = (await this.q.query(
      `UPDATE oauth_grants SET revoked_at = now() WHERE ${where} AND revoked_at IS NULL RETURNING id, key_id`,
      params,
    )) as [{ id: string; key_id: string }[], number]; // an UPDATE answers [rows, count]
    if (rows.length === 0) return [];
    await this.q.query(
      'UPDATE oauth_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE grant_id = ANY ($1::uuid[])',
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => r.key_id);
  }
}
