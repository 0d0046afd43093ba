import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Plan } from '../config/config';
import type { Role, Scope } from '../common/auth/scopes';
import { utcMicros } from '../database/sql-fragments';
import { SqlRepository } from '../database/sql-repository';

export interface KeyRow {
  id: string;
  name: string;
  display_prefix: string;
  last_four: string;
  key_hash: Buffer;
  scopes: Scope[];
  plan: Plan;
  is_demo: boolean;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  account_id: string;
  account_name: string;
  account_kind: 'person' | 'service';
  owner_fund_id: string | null;
  user_id: string | null;
  user_status: 'active' | 'disabled' | null;
  owner_display_name: string;
  /** The owning person's CURRENT role on the key's fund (null: none, or a service identity). */
  role: Role | null;
  fund_id: string | null;
  fund_slug: string | null;
  fund_name: string | null;
  /** The key it was minted with (null: minted in the console or by the CLI). */
  created_by_key_id: string | null;
  /** The person who minted it, directly or through the chain of keys it was minted with (null: unknown, minted before this was recorded). */
  created_by_user_id: string | null;
  minted_by_display_name: string;
  /** That person's CURRENT role on the key's fund: a service key never does more than its minter now may. */
  minter_role: Role | null;
}

export interface NewKey {
  accountId: string;
  fundId: string | null;
  name: string;
  keyHash: Buffer;
  displayPrefix: string;
  lastFour: string;
  scopes: readonly Scope[];
  plan: Plan;
  expiresAt: Date | null;
  createdByKeyId: string | null;
  createdByUserId: string | null;
}

export interface IdentityRow {
  account_id: string;
  account_name: string;
  kind: 'person' | 'service';
  owner_fund_id: string | null;
  user_id: string | null;
  plan: Plan | null;
  status: 'active' | 'disabled' | null;
}

const KEY_SELECT = `
  SELECT k.id, k.name, k.display_prefix, k.last_four, k.key_hash, k.scopes, k.plan, k.is_demo,
         k.created_at, k.expires_at, k.revoked_at, k.last_used_at,
         a.id AS account_id, a.name AS account_name, a.kind AS account_kind, a.owner_fund_id, a.user_id,
         u.status AS user_status, coalesce(u.display_name, a.name) AS owner_display_name, m.role,
         f.id AS fund_id, f.slug AS fund_slug, f.name AS fund_name, k.created_by_key_id, k.created_by_user_id,
         (SELECT mu.display_name FROM users mu WHERE mu.id = k.created_by_user_id) AS minted_by_display_name,
         mr.role AS minter_role
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    LEFT JOIN users u ON u.id = a.user_id
    LEFT JOIN fund_members m ON m.fund_id = k.fund_id AND m.user_id = a.user_id
    LEFT JOIN fund_members mr ON mr.fund_id = k.fund_id AND mr.user_id = k.created_by_user_id
    LEFT JOIN funds f ON f.id = k.fund_id`;

/** What a revocation ended: live keys, and enabled webhook subscriptions those keys held. */
export interface Revoked {
  keys: number;
  /** Of `keys`, those minted from the roots (not the roots themselves). */
  derived: number;
  webhooks: number;
}

const KEY_REVOKED_REASON =
  'a key that created it, changed its URL, re-enabled it or rotated its secret was revoked: check the URL, rotate the secret, then re-enable it';
const KEY_EXPIRED_REASON =
  'a key that created it, changed its URL, re-enabled it or rotated its secret expired: check the URL, rotate the secret, then re-enable it';
/** The subscriptions these keys hold (created, redirected, re-enabled or re-keyed): `keys` is a subquery of ids. */
const heldBy = (keys: string) =>
  `id IN (SELECT subscription_id FROM webhook_subscription_holders WHERE key_id IN (${keys}))`;

/**
 * The shared demo key's identity (seed:demo) is public: nobody mints into it or sees it offered
 * among the fund's service identities (`a` is the accounts row).
 */
export const NOT_DEMO_IDENTITY = 'NOT EXISTS (SELECT 1 FROM api_keys dk WHERE dk.account_id = a.id AND dk.is_demo)';

/** A connected OAuth app's key is listed (and revoked) as the app, not among the keys. */
const NOT_OAUTH = 'AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.key_id = k.id)';

/**
 * Whose keys a listing covers: every key bound to a fund (what keys:manage on it sees), or one
 * identity's own keys on a fund (or its fund-less calculator keys, `fundId` null).
 */
export type KeyScope = { fundId: string } | { accountId: string; fundId: string | null };

function scopeWhere(scope: KeyScope): { sql: string; params: unknown[] } {
  return 'accountId' in scope
    ? {
        sql: `k.account_id = $1 AND k.fund_id IS NOT DISTINCT FROM $2 ${NOT_OAUTH}`,
        params: [scope.accountId, scope.fundId],
      }
    : { sql: `k.fund_id = $1 ${NOT_OAUTH}`, params: [scope.fundId] };
}

@Injectable()
export class KeysRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  async keyByHash(hash: Buffer): Promise<KeyRow | null> {
    const rows: KeyRow[] = await this.q.query(`${KEY_SELECT} WHERE k.key_hash = $1`, [hash]);
    return rows[0] ?? null;
  }

  async keyById(id: string): Promise<KeyRow | null> {
    const rows: KeyRow[] = await this.q.query(`${KEY_SELECT} WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The keys a scope holds, newest first. */
  async keysOf(scope: KeyScope): Promise<KeyRow[]> {
    const where = scopeWhere(scope);
    return this.q.query(`${KEY_SELECT} WHERE ${where.sql} ORDER BY k.created_at DESC, k.id DESC`, where.params);
  }

  /** One keyset page of a scope's keys by (created_at, id) descending; `created_key` is the exact position. */
  async keysPageOf(
    scope: KeyScope,
    after: { createdAt: string; id: string } | null,
    limit: number,
  ): Promise<(KeyRow & { created_key: string })[]> {
    const where = scopeWhere(scope);
    const n = where.params.length;
    return this.q.query(
      `SELECT page.*, ${utcMicros('page.created_at')} AS created_key
         FROM (${KEY_SELECT}
                WHERE ${where.sql}
                  AND ($${n + 1}::timestamptz IS NULL OR (k.created_at, k.id) < ($${n + 1}::timestamptz, $${n + 2}::uuid))
                ORDER BY k.created_at DESC, k.id DESC LIMIT $${n + 3}) page
        ORDER BY page.created_at DESC, page.id DESC`,
      [...where.params, after?.createdAt ?? null, after?.id ?? null, limit],
    );
  }

  async countOf(scope: KeyScope): Promise<number> {
    const where = scopeWhere(scope);
    const [row] = await this.q.query(`SELECT count(*)::int AS n FROM api_keys k WHERE ${where.sql}`, where.params);
    return row.n;
  }

  /** A key of the scope, or null (not there, or not the scope's). */
  async keyOf(scope: KeyScope, id: string): Promise<KeyRow | null> {
    const where = scopeWhere(scope);
    const rows: KeyRow[] = await this.q.query(
      `${KEY_SELECT} WHERE ${where.sql} AND k.id = $${where.params.length + 1}`,
      [...where.params, id],
    );
    return rows[0] ?? null;
  }

  async allKeys(): Promise<KeyRow[]> {
    return this.q.query(`${KEY_SELECT} ORDER BY k.created_at DESC, k.id`);
  }

  async fundBySlug(slug: string): Promise<{ id: string; slug: string; name: string } | null> {
    const rows = await this.q.query('SELECT id, slug, name FROM funds WHERE slug = $1', [slug]);
    return rows[0] ?? null;
  }

  async slugOf(fundId: string): Promise<string | null> {
    const rows = await this.q.query('SELECT slug FROM funds WHERE id = $1', [fundId]);
    return rows[0]?.slug ?? null;
  }

  /**
   * The shared demo key (seed:demo): owned by the service identity "demo" of the demo fund (never a
   * person, never a reviewer), fund:read on that fund only, plan free. Returns the key's id.
   */
  async upsertDemoKey(fundId: string, k: { hash: Buffer; displayPrefix: string; lastFour: string }): Promise<string> {
    const account = await this.q.query(
      `INSERT INTO accounts (name, kind, owner_fund_id) VALUES ('demo', 'service', $1)
       ON CONFLICT (name) DO UPDATE SET kind = 'service', owner_fund_id = EXCLUDED.owner_fund_id, user_id = NULL RETURNING id`,
      [fundId],
    );
    const rows = await this.q.query(
      `INSERT INTO api_keys (account_id, fund_id, name, key_hash, display_prefix, last_four, scopes, plan, is_demo)
       VALUES ($1, $2, 'Shared demo key', $3, $4, $5, ARRAY['fund:read'], 'free', true)
       ON CONFLICT (key_hash) DO UPDATE SET account_id = EXCLUDED.account_id, fund_id = EXCLUDED.fund_id,
         scopes = ARRAY['fund:read'], plan = 'free', is_demo = true, revoked_at = NULL, expires_at = NULL
       RETURNING id`,
      [account[0].id, fundId, k.hash, k.displayPrefix, k.lastFour],
    );
    return rows[0].id as string;
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The identity behind an account (for minting); a person's plan and status come from users. */
  async identityOf(where: { accountId?: string; accountName?: string; email?: string }): Promise<IdentityRow | null> {
    if (!where.accountId && !where.accountName && !where.email)
      throw new Error('identityOf needs an account id, name or email');
    const rows = await this.q.query(
      `SELECT a.id AS account_id, a.name AS account_name, a.kind, a.owner_fund_id, a.user_id, u.plan, u.status
         FROM accounts a LEFT JOIN users u ON u.id = a.user_id
        WHERE ($1::uuid IS NULL OR a.id = $1) AND ($2::text IS NULL OR a.name = $2) AND ($3::text IS NULL OR u.email = lower($3))
        LIMIT 1`,
      [where.accountId ?? null, where.accountName ?? null, where.email ?? null],
    );
    return rows[0] ?? null;
  }

  /** A person's current role on a fund, the membership row held until the transaction ends. */
  async lockedRole(fundId: string, userId: string): Promise<Role | null> {
    const rows = await this.q.query(`SELECT role FROM fund_members WHERE fund_id = $1 AND user_id = $2 FOR SHARE`, [
      fundId,
      userId,
    ]);
    return rows[0]?.role ?? null;
  }

  /** A fund's service identity by its full account name or its short name (`<fund-slug>/<name>`). */
  async serviceAccountOfFund(fundId: string, name: string): Promise<IdentityRow | null> {
    const rows = await this.q.query(
      `SELECT a.id AS account_id, a.name AS account_name, a.kind, a.owner_fund_id, a.user_id, NULL AS plan, NULL AS status
         FROM accounts a JOIN funds f ON f.id = a.owner_fund_id
        WHERE a.kind = 'service' AND a.owner_fund_id = $1 AND (a.name = $2 OR a.name = f.slug || '/' || $2)
          AND ${NOT_DEMO_IDENTITY}`,
      [fundId, name],
    );
    return rows[0] ?? null;
  }

  /** Revokes every key an identity holds on a fund (member removal); returns how many. */
  /**
   * Revokes, on a fund, the keys a person holds and the keys they minted (they saw each secret once),
   * with every key minted from those.
   */
  revokeKeysOfPersonOnFund(accountId: string, userId: string, fundId: string): Promise<Revoked> {
    return this.revokeTree(
      `SELECT id FROM api_keys WHERE fund_id = $1 AND (account_id = $2 OR created_by_user_id = $3)`,
      [fundId, accountId, userId],
    );
  }

  /** Revokes a key and every key minted from it (a leaked key's offspring go with it). */
  revokeKeyAndDerived(id: string): Promise<Revoked> {
    return this.revokeKeysAndDerived([id]);
  }

  /** Revokes keys and every key minted from them (the keys behind a person's connected apps). */
  revokeKeysAndDerived(ids: string[]): Promise<Revoked> {
    return this.revokeTree(`SELECT id FROM api_keys WHERE id = ANY ($1::uuid[])`, [ids]);
  }

  /**
   * THE way keys are revoked: the roots and every key minted from them, recursively; the webhook
   * subscriptions any of them holds (created, redirected, re-enabled or re-keyed) are disabled with
   * them (whoever held the key chose the URL or saw the signing secret). A statement sees what was committed when it began, and a mint or a
   * subscription waiting on a root's lock (`lockLiveKey`) commits after that: the pass is repeated
   * until it finds nothing more. Keys revoked before this call disable nothing again. Answers live keys revoked (those other than the roots apart) and
   * enabled subscriptions disabled.
   */
  private async revokeTree(roots: string, params: unknown[]): Promise<Revoked> {
    const total: Revoked = { keys: 0, derived: 0, webhooks: 0 };
    // only keys this call revokes disable subscriptions: one an admin re-enabled after an earlier revocation stays on
    const [{ since }] = await this.q.query(`SELECT now() AS since`);
    const n = params.length;
    for (;;) {
      const [pass] = await this.q.query(
        `WITH RECURSIVE roots AS (${roots}),
         tree AS (
           SELECT id FROM roots
           UNION
           SELECT k.id FROM api_keys k JOIN tree t ON k.created_by_key_id = t.id),
         revoked AS (
           UPDATE api_keys SET revoked_at = now() WHERE id IN (SELECT id FROM tree) AND revoked_at IS NULL RETURNING id),
         now_revoked AS (
           SELECT id FROM revoked
           UNION
           SELECT id FROM api_keys WHERE id IN (SELECT id FROM tree) AND revoked_at >= $${n + 2}),
         hooks AS (
           UPDATE webhook_subscriptions SET enabled = false, disabled_reason = $${n + 1}, updated_at = now()
            WHERE ${heldBy('SELECT id FROM now_revoked')} AND enabled AND deleted_at IS NULL RETURNING id)
         SELECT (SELECT count(*) FROM revoked)::int AS keys,
                (SELECT count(*) FROM revoked WHERE id NOT IN (SELECT id FROM roots))::int AS derived,
                (SELECT count(*) FROM hooks)::int AS webhooks`,
        [...params, KEY_REVOKED_REASON, since],
      );
      total.keys += pass.keys;
      total.derived += pass.derived;
      total.webhooks += pass.webhooks;
      if (pass.keys === 0 && pass.webhooks === 0) return total;
    }
  }

  /**
   * Marks the keys that have expired since the last sweep, each once. The row lock waits for a
   * subscription being created with such a key (`lockLiveKey` holds a share lock) to commit, so
   * the caller's next statement, in the same transaction, sees it.
   */
  async markExpiredSwept(): Promise<string[]> {
    const [rows] = await this.q.query(
      `UPDATE api_keys SET expiry_swept_at = now()
        WHERE expires_at <= clock_timestamp() AND expiry_swept_at IS NULL AND revoked_at IS NULL RETURNING id`,
    ); // an UPDATE answers [rows, count]
    return (rows as { id: string }[]).map((r) => r.id);
  }

  /** Disables the enabled subscriptions these keys hold (created, redirected, re-enabled or re-keyed); answers how many. */
  async disableWebhooksOfExpiredKeys(keyIds: string[]): Promise<number> {
    const [rows] = await this.q.query(
      `UPDATE webhook_subscriptions SET enabled = false, disabled_reason = $2, updated_at = now()
        WHERE ${heldBy('SELECT unnest($1::uuid[])')} AND enabled AND deleted_at IS NULL RETURNING id`,
      [keyIds, KEY_EXPIRED_REASON],
    );
    return (rows as unknown[]).length;
  }

  /**
   * Whether a key is live (not revoked, not expired), holding a share lock on it until the caller's
   * transaction ends: a key minted or a subscription created with it then commits before any
   * revocation of it, which the revocation's next pass finds.
   */
  async lockLiveKey(id: string): Promise<boolean> {
    const rows = await this.q.query(
      // clock_timestamp, not the transaction's start: a check that waited behind the expiry sweep's row
      // lock is re-evaluated after it, and must then see the key expired
      `SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > clock_timestamp())
          FOR SHARE`,
      [id],
    );
    return rows.length > 0;
  }

  async insertKey(k: NewKey): Promise<string> {
    const rows = await this.q.query(
      `INSERT INTO api_keys (account_id, fund_id, name, key_hash, display_prefix, last_four, scopes, plan,
                             expires_at, created_by_key_id, created_by_user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        k.accountId,
        k.fundId,
        k.name,
        k.keyHash,
        k.displayPrefix,
        k.lastFour,
        k.scopes,
        k.plan,
        k.expiresAt,
        k.createdByKeyId,
        k.createdByUserId,
      ],
    );
    return rows[0].id;
  }

  /** Written at most once a minute per key, whichever instance gets there first. */
  async touchLastUsed(id: string): Promise<void> {
    await this.q.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
