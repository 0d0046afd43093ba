import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlRepository } from '../database/sql-repository';

export interface PasswordResetRow {
  id: string;
  user_id: string;
  email: string;
  user_status: 'active' | 'disabled';
  expires_at: Date;
  used_at: Date | null;
  superseded_at: Date | null;
}

/** The person a reset link was issued to, as the mail needs them. */
export interface IssuedReset {
  user_id: string;
  email: string;
  expires_at: Date;
}

/**
 * Password resets by email, found by the SHA-256 of their token (the token is only in the mail).
 * Lock order, as everywhere a person's account changes: the person's row, then their reset rows.
 */
@Injectable()
export class PasswordResetsRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  /** Locks the active person with this (lower-cased) email; null for an unknown or disabled one. */
  async lockActivePerson(email: string): Promise<{ id: string; email: string } | null> {
    const rows = await this.q.query(
      `SELECT id, email FROM users WHERE email = lower($1) AND status = 'active' FOR UPDATE`,
      [email],
    );
    return rows[0] ?? null;
  }

  /**
   * A new reset for the person (their row locked by `lockActivePerson` in this transaction): their
   * open ones are superseded and their rows a day past expiry deleted, in one statement.
   */
  async issue(userId: string, tokenHash: Buffer, minutes: number): Promise<{ expires_at: Date }> {
    const [row] = await this.q.query(
      `WITH closed AS (
         UPDATE password_resets SET superseded_at = now()
          WHERE user_id = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > now()
       ), pruned AS (
         DELETE FROM password_resets WHERE user_id = $1 AND expires_at < now() - interval '1 day'
       )
       INSERT INTO password_resets (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING expires_at`,
      [userId, tokenHash, minutes],
    );
    return row;
  }

  /** The reset and its person, row-locked when bound to a transaction and `lock` is set. */
  async byTokenHash(hash: Buffer, lock = false): Promise<PasswordResetRow | null> {
    const rows = await this.q.query(
      `SELECT r.id, r.user_id, u.email, u.status AS user_status, r.expires_at, r.used_at, r.superseded_at
         FROM password_resets r JOIN users u ON u.id = r.user_id
        WHERE r.token_hash = $1${lock ? ' FOR UPDATE OF r' : ''}`,
      [hash],
    );
    return rows[0] ?? null;
  }

  /** Marks this reset used and closes every other open one of the person. */
  async consume(id: string, userId: string): Promise<void> {
    await this.q.query(`UPDATE password_resets SET used_at = now() WHERE id = $1`, [id]);
    await this.closeOpenOf(userId);
  }

  /**
   * Closes every open reset link of the person (they answer 410 "replaced"): a password change, an
   * operator's new password, disabling or enabling the person — a link mailed before must not outlive
   * them. In the transaction that changes the person (their row locked first, as everywhere).
   */
  async closeOpenOf(userId: string): Promise<void> {
    await this.q.query(
      `UPDATE password_resets SET superseded_at = now()
        WHERE user_id = $1 AND used_at IS NULL AND superseded_at IS NULL`,
      [userId],
    );
  }
}
