import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Plan } from '../config/config';
import type { Scope } from '../common/auth/scopes';

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
  fund_id: string | null;
  fund_slug: string | null;
  fund_name: string | null;
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
}

const KEY_SELECT = `
  SELECT k.id, k.name, k.display_prefix, k.last_four, k.key_hash, k.scopes, k.plan, k.is_demo,
         k.created_at, k.expires_at, k.revoked_at, k.last_used_at,
         a.id AS account_id, a.name AS account_name, f.id AS fund_id, f.slug AS fund_slug, f.name AS fund_name
    FROM api_keys k
    JOIN accounts a ON a.id = k.account_id
    LEFT JOIN funds f ON f.id = k.fund_id`;

@Injectable()
export class KeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async keyByHash(hash: Buffer): Promise<KeyRow | null> {
    const rows: KeyRow[] = await this.db.query(`${KEY_SELECT} WHERE k.key_hash = $1`, [hash]);
    return rows[0] ?? null;
  }

  async keyById(id: string): Promise<KeyRow | null> {
    const rows: KeyRow[] = await this.db.query(`${KEY_SELECT} WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Keys a manager may see: those bound to the manager's fund, or (no fund) those its account created. */
  async keysVisibleTo(fundId: string | null, accountId: string): Promise<KeyRow[]> {
    if (fundId) return this.db.query(`${KEY_SELECT} WHERE k.fund_id = $1 ORDER BY k.created_at DESC, k.id`, [fundId]);
    return this.db.query(
      `${KEY_SELECT} WHERE k.fund_id IS NULL AND (k.account_id = $1 OR k.created_by_key_id IN
         (SELECT id FROM api_keys WHERE account_id = $1)) ORDER BY k.created_at DESC, k.id`,
      [accountId],
    );
  }

  async allKeys(): Promise<KeyRow[]> {
    return this.db.query(`${KEY_SELECT} ORDER BY k.created_at DESC, k.id`);
  }

  async fundBySlug(slug: string): Promise<{ id: string; slug: string; name: string } | null> {
    const rows = await this.db.query('SELECT id, slug, name FROM funds WHERE slug = $1', [slug]);
    return rows[0] ?? null;
  }

  /** Creates the account if needed and the key, in one transaction. */
  async createKeyForAccount(accountName: string, k: Omit<NewKey, 'accountId'>): Promise<{ id: string; accountId: string }> {
    return this.db.transaction(async (m) => {
      const accountId = await this.upsertAccount(accountName, m);
      const id = await this.insertKey({ ...k, accountId }, m);
      return { id, accountId };
    });
  }

  async upsertAccount(name: string, manager: EntityManager = this.db.manager): Promise<string> {
    const rows = await manager.query(
      `INSERT INTO accounts (name) VALUES ($1)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [name],
    );
    return rows[0].id;
  }

  async insertKey(k: NewKey, manager: EntityManager = this.db.manager): Promise<string> {
    const rows = await manager.query(
      `INSERT INTO api_keys (account_id, fund_id, name, key_hash, display_prefix, last_four, scopes, plan,
                             expires_at, created_by_key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [k.accountId, k.fundId, k.name, k.keyHash, k.displayPrefix, k.lastFour, k.scopes, k.plan, k.expiresAt,
       k.createdByKeyId],
    );
    return rows[0].id;
  }

  async revokeKey(id: string): Promise<boolean> {
    // TypeORM answers UPDATE with [rows, affectedCount].
    const [rows] = await this.db.query(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING id`,
      [id],
    );
    return rows.length > 0;
  }

  /** Written at most once a minute per key, whichever instance gets there first. */
  async touchLastUsed(id: string): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
