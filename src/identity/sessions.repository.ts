import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Plan } from '../config/config';
import { SqlRepository } from '../database/sql-repository';

export interface SessionRow {
  id: Buffer;
  user_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  totp_verified_at: Date | null;
  email: string;
  display_name: string;
  plan: Plan;
  totp_enabled_at: Date | null;
  account_id: string;
  account_name: string;
}

/** Console sessions: looked up by the SHA-256 of the cookie value; never cached (sign-out is immediate). */
@Injectable()
export class SessionsRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  async insert(s: {
    id: Buffer;
    userId: string;
    csrfToken: string;
    idleSeconds: number;
    absoluteSeconds: number;
    totpVerified: boolean;
    clientIp: string | null;
    userAgent: string | null;
  }): Promise<void> {
    await this.q.query(
      `INSERT INTO console_sessions (id, user_id, csrf_token, idle_expires_at, absolute_expires_at, totp_verified_at, client_ip, user_agent)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), now() + make_interval(secs => $5), CASE WHEN $6 THEN now() END, $7, $8)`,
      [s.id, s.userId, s.csrfToken, s.idleSeconds, s.absoluteSeconds, s.totpVerified, s.clientIp, s.userAgent],
    );
  }

  /** A live session of an active person (not revoked, neither idle nor absolute expiry passed). */
  async findLive(id: Buffer): Promise<SessionRow | null> {
    const rows = await this.q.query(
      `SELECT s.id, s.user_id, s.csrf_token, s.created_at, s.last_seen_at, s.totp_verified_at,
              u.email, u.display_name, u.plan, u.totp_enabled_at, a.id AS account_id, a.name AS account_name
         FROM console_sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.user_id = u.id
        WHERE s.id = $1 AND s.revoked_at IS NULL AND s.idle_expires_at > now() AND s.absolute_expires_at > now()
          AND u.status = 'active'`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Slides the idle expiry (never past the absolute one); written at most every 30 s per session. */
  async touch(id: Buffer, idleSeconds: number): Promise<void> {
    await this.q.query(
      `UPDATE console_sessions SET last_seen_at = now(),
              idle_expires_at = least(now() + make_interval(secs => $2), absolute_expires_at)
        WHERE id = $1 AND last_seen_at < now() - interval '30 seconds'`,
      [id, idleSeconds],
    );
  }

  async revoke(id: Buffer): Promise<void> {
    await this.q.query(`UPDATE console_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
  }

  /** Every live session of a person, except (optionally) one. */
  async revokeAllOf(userId: string, except: Buffer | null = null): Promise<number> {
    const [rows] = await this.q.query(
      `UPDATE console_sessions SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::bytea IS NULL OR id <> $2) RETURNING user_id`,
      [userId, except],
    );
    return rows.length;
  }

  async markTotpVerified(id: Buffer): Promise<void> {
    await this.q.query(`UPDATE console_sessions SET totp_verified_at = now() WHERE id = $1`, [id]);
  }
}
