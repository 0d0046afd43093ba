import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlRepository } from '../database/sql-repository';

export interface IdempotencyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number;
  response_body: unknown;
}

/**
 * Idempotency-Key rows, unique per (API key, Idempotency-Key). Built over the DataSource; `complete`
 * runs in the transaction that produced the answer, so it takes that transaction's manager.
 */
@Injectable()
export class IdempotencyRepository extends SqlRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /**
   * Takes the key (a new row, an expired one, or one whose holder has held it `staleSeconds` with the
   * same request); answers whether `token` now holds it.
   */
  async claim(r: {
    keyId: string;
    key: string;
    route: string;
    fingerprint: string;
    token: string;
    ttlHours: number;
    staleSeconds: number;
  }): Promise<boolean> {
    const claimed: { lock_token: string }[] = await this.q.query(
      `INSERT INTO idempotency_keys AS k (key_id, idempotency_key, route, fingerprint, state, lock_token, locked_at, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_progress', $5, now(), now(), now() + make_interval(hours => $6))
       ON CONFLICT (key_id, idempotency_key) DO UPDATE
         SET route = EXCLUDED.route, fingerprint = EXCLUDED.fingerprint, state = 'in_progress', lock_token = EXCLUDED.lock_token,
             locked_at = now(), created_at = now(), expires_at = EXCLUDED.expires_at, response_status = NULL, response_body = NULL
       WHERE k.expires_at <= now()
          OR (k.state = 'in_progress' AND k.fingerprint = EXCLUDED.fingerprint AND k.locked_at < now() - make_interval(secs => $7))
       RETURNING lock_token`,
      [r.keyId, r.key, r.route, r.fingerprint, r.token, r.ttlHours, r.staleSeconds],
    );
    return claimed[0]?.lock_token === r.token;
  }

  async live(keyId: string, key: string): Promise<IdempotencyRow | null> {
    const rows: IdempotencyRow[] = await this.q.query(
      `SELECT fingerprint, state, response_status, response_body FROM idempotency_keys
        WHERE key_id = $1 AND idempotency_key = $2 AND expires_at > now()`,
      [keyId, key],
    );
    return rows[0] ?? null;
  }

  /** Stores the answer while `token` still holds the key; answers whether it did. */
  async complete(keyId: string, key: string, token: string, status: number, body: unknown): Promise<boolean> {
    const [, count]: [unknown, number] = await this.q.query(
      `UPDATE idempotency_keys SET state = 'completed', lock_token = NULL, response_status = $4, response_body = $5
        WHERE key_id = $1 AND idempotency_key = $2 AND lock_token = $3 AND state = 'in_progress'`,
      [keyId, key, token, status, JSON.stringify(body)],
    );
    return count === 1;
  }

  async release(keyId: string, key: string, token: string): Promise<void> {
    await this.q.query(`DELETE FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND lock_token = $3`, [
      keyId,
      key,
      token,
    ]);
  }

  async purgeExpired(): Promise<number> {
    const [, count]: [unknown, number] = await this.q.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
    return count;
  }
}
