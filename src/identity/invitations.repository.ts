import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../common/auth/scopes';
import { SqlRepository } from '../database/sql-repository';

export interface InvitationRow {
  id: string;
  fund_id: string;
  fund_slug: string;
  fund_name: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  cancelled_at: Date | null;
  invited_by: string;
}

const SELECT = `SELECT i.id, i.fund_id, f.slug AS fund_slug, f.name AS fund_name, i.email, i.role, i.created_at, i.expires_at,
       i.accepted_at, i.cancelled_at, i.invited_by
  FROM invitations i JOIN funds f ON f.id = i.fund_id`;

/** Invitations are found by the SHA-256 of their token; the token itself is shown once and never stored. */
@Injectable()
export class InvitationsRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  async create(i: {
    fundId: string;
    email: string;
    role: Role;
    tokenHash: Buffer;
    invitedBy: string;
    days: number;
  }): Promise<InvitationRow> {
    const [row] = await this.q.query(
      `INSERT INTO invitations (fund_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, lower($2), $3, $4, $5, now() + make_interval(days => $6)) RETURNING id`,
      [i.fundId, i.email, i.role, i.tokenHash, i.invitedBy, i.days],
    );
    return (await this.q.query(`${SELECT} WHERE i.id = $1`, [row.id]))[0];
  }

  async byTokenHash(hash: Buffer, lock = false): Promise<InvitationRow | null> {
    const rows = await this.q.query(`${SELECT} WHERE i.token_hash = $1${lock ? ' FOR UPDATE OF i' : ''}`, [hash]);
    return rows[0] ?? null;
  }

  async pendingOf(fundId: string): Promise<InvitationRow[]> {
    return this.q.query(
      `${SELECT} WHERE i.fund_id = $1 AND i.accepted_at IS NULL AND i.cancelled_at IS NULL AND i.expires_at > now()
        ORDER BY i.created_at DESC`,
      [fundId],
    );
  }

  /** One invitation of the fund, row-locked when `m` is a transaction. */
  async ofFund(fundId: string, id: string, lock = false): Promise<InvitationRow | null> {
    const rows = await this.q.query(`${SELECT} WHERE i.fund_id = $1 AND i.id = $2${lock ? ' FOR UPDATE OF i' : ''}`, [
      fundId,
      id,
    ]);
    return rows[0] ?? null;
  }

  async cancel(id: string): Promise<void> {
    await this.q.query(`UPDATE invitations SET cancelled_at = now() WHERE id = $1 AND cancelled_at IS NULL`, [id]);
  }

  /** Cancels the invitations `userId` sent on the fund that are still open; answers how many. */
  async cancelSentBy(fundId: string, userId: string): Promise<number> {
    const [rows] = await this.q.query(
      // an UPDATE answers [rows, count]
      `UPDATE invitations SET cancelled_at = now()
        WHERE fund_id = $1 AND invited_by = $2 AND accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > now()
        RETURNING id`,
      [fundId, userId],
    );
    return rows.length;
  }

  async markAccepted(id: string, userId: string): Promise<void> {
    await this.q.query(`UPDATE invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1`, [id, userId]);
  }
}
