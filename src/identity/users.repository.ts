import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Role } from '../common/auth/scopes';
import { NOT_DEMO_IDENTITY } from '../keys/keys.repository';
import type { Plan } from '../config/config';
import { SqlRepository } from '../database/sql-repository';

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  status: 'active' | 'disabled';
  plan: Plan;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | null;
  created_at: Date;
  account_id: string;
  account_name: string;
}

export interface MembershipRow {
  fund_id: string;
  fund_slug: string;
  fund_name: string;
  role: Role;
  approval_requires_totp: boolean;
}

export interface MemberRow {
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: Date;
  account_id: string;
}

const USER_SELECT = `SELECT u.id, u.email, u.display_name, u.password_hash, u.status, u.plan, u.totp_secret, u.totp_enabled_at,
       u.totp_last_step, u.created_at, a.id AS account_id, a.name AS account_name
  FROM users u JOIN accounts a ON a.user_id = u.id`;

/** People, their accounts, memberships and a fund's service identities. */
@Injectable()
export class UsersRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async byEmail(email: string): Promise<UserRow | null> {
    const rows = await this.q.query(`${USER_SELECT} WHERE u.email = lower($1)`, [email]);
    return rows[0] ?? null;
  }

  async byId(id: string): Promise<UserRow | null> {
    const rows = await this.q.query(`${USER_SELECT} WHERE u.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The person's row, locked until the transaction ends (bind with `with(m)`): account changes one at a time. */
  async lockById(id: string): Promise<UserRow | null> {
    const rows = await this.q.query(`${USER_SELECT} WHERE u.id = $1 FOR UPDATE OF u`, [id]);
    return rows[0] ?? null;
  }

  async list(): Promise<(UserRow & { memberships: string | null })[]> {
    return this.q.query(
      `${USER_SELECT.replace(
        'SELECT',
        `SELECT (SELECT string_agg(f.slug || ':' || m.role, ',' ORDER BY f.slug)
           FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = u.id) AS memberships,`,
      )}
       ORDER BY u.created_at, u.email`,
    );
  }

  /** A person and their account (named by the email unless told otherwise), in the caller's transaction. */
  async createPerson(p: {
    email: string;
    displayName: string;
    passwordHash: string | null;
    plan: Plan;
    accountName?: string;
  }): Promise<{ userId: string; accountId: string }> {
    const [user] = await this.q.query(
      `INSERT INTO users (email, display_name, password_hash, plan) VALUES (lower($1), $2, $3, $4) RETURNING id`,
      [p.email, p.displayName, p.passwordHash, p.plan],
    );
    const [account] = await this.q.query(
      `INSERT INTO accounts (name, kind, user_id) VALUES ($1, 'person', $2) RETURNING id`,
      [p.accountName ?? p.email.toLowerCase(), user.id],
    );
    return { userId: user.id, accountId: account.id };
  }

  async setPassword(userId: string, hash: string): Promise<void> {
    await this.q.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [userId, hash]);
  }

  /** A fund's id by its slug (operator bootstrap names funds by slug). */
  async fundIdBySlug(slug: string): Promise<string | null> {
    const [fund] = await this.q.query(`SELECT id FROM funds WHERE slug = $1`, [slug]);
    return fund?.id ?? null;
  }

  async setStatus(userId: string, status: 'active' | 'disabled'): Promise<void> {
    await this.q.query(`UPDATE users SET status = $2 WHERE id = $1`, [userId, status]);
  }

  async setDisplayName(userId: string, displayName: string): Promise<void> {
    await this.q.query(`UPDATE users SET display_name = $2 WHERE id = $1`, [userId, displayName]);
  }

  async setPlan(userId: string, plan: Plan): Promise<void> {
    await this.q.query(`UPDATE users SET plan = $2 WHERE id = $1`, [userId, plan]);
  }

  async memberships(userId: string): Promise<MembershipRow[]> {
    return this.q.query(
      `SELECT f.id AS fund_id, f.slug AS fund_slug, f.name AS fund_name, m.role, f.approval_requires_totp
         FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = $1 ORDER BY f.slug`,
      [userId],
    );
  }

  async membershipBySlug(userId: string, slug: string): Promise<MembershipRow | null> {
    const rows = await this.q.query(
      `SELECT f.id AS fund_id, f.slug AS fund_slug, f.name AS fund_name, m.role, f.approval_requires_totp
         FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = $1 AND f.slug = $2`,
      [userId, slug],
    );
    return rows[0] ?? null;
  }

  async membersOf(fundId: string): Promise<MemberRow[]> {
    return this.q.query(
      `SELECT u.id AS user_id, u.email, u.display_name, m.role, m.created_at, a.id AS account_id
         FROM fund_members m JOIN users u ON u.id = m.user_id JOIN accounts a ON a.user_id = u.id
        WHERE m.fund_id = $1 ORDER BY m.created_at, u.email`,
      [fundId],
    );
  }

  /** Locks the fund's membership rows so "the last admin" cannot be raced away. */
  async lockMembers(fundId: string): Promise<MemberRow[]> {
    await this.q.query(`SELECT 1 FROM fund_members WHERE fund_id = $1 FOR UPDATE`, [fundId]);
    return this.membersOf(fundId);
  }

  /** Adds a membership, or raises the role to `role` when it is higher (never lowers). */
  /** Adds the membership, or raises an existing one to `role` (never lowers it); answers the role stored. */
  async grantAtLeast(fundId: string, userId: string, role: Role): Promise<Role> {
    const [row] = await this.q.query(
      `INSERT INTO fund_members (fund_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (fund_id, user_id) DO UPDATE SET role = CASE
         WHEN array_position(ARRAY['viewer','analyst','manager','admin'], EXCLUDED.role)
            > array_position(ARRAY['viewer','analyst','manager','admin'], fund_members.role) THEN EXCLUDED.role
         ELSE fund_members.role END
       RETURNING role`,
      [fundId, userId, role],
    );
    return row.role as Role;
  }

  async setRole(fundId: string, userId: string, role: Role): Promise<void> {
    await this.q.query(`UPDATE fund_members SET role = $3 WHERE fund_id = $1 AND user_id = $2`, [fundId, userId, role]);
  }

  async removeMember(fundId: string, userId: string): Promise<void> {
    await this.q.query(`DELETE FROM fund_members WHERE fund_id = $1 AND user_id = $2`, [fundId, userId]);
  }

  async fundBySlug(slug: string): Promise<{ id: string; slug: string; name: string } | null> {
    const rows = await this.q.query(`SELECT id, slug, name FROM funds WHERE slug = $1`, [slug]);
    return rows[0] ?? null;
  }

  async serviceAccounts(fundId: string): Promise<{ id: string; name: string; created_at: Date }[]> {
    return this.q.query(
      `SELECT a.id, a.name, a.created_at FROM accounts a
        WHERE a.kind = 'service' AND a.owner_fund_id = $1 AND ${NOT_DEMO_IDENTITY} ORDER BY a.name`,
      [fundId],
    );
  }

  /** Null when the name is taken. */
  async createServiceAccount(
    fundId: string,
    name: string,
  ): Promise<{ id: string; name: string; created_at: Date } | null> {
    const rows = await this.q.query(
      `INSERT INTO accounts (name, kind, owner_fund_id) VALUES ($1, 'service', $2)
       ON CONFLICT (name) DO NOTHING RETURNING id, name, created_at`,
      [name, fundId],
    );
    return rows[0] ?? null;
  }

  async setTotp(userId: string, sealedSecret: string | null, enabled: boolean): Promise<void> {
    await this.q.query(
      `UPDATE users SET totp_secret = $2, totp_enabled_at = CASE WHEN $3 THEN now() END, totp_last_step = NULL WHERE id = $1`,
      [userId, sealedSecret, enabled],
    );
  }

  /** Records a used TOTP step; false when this step (or a later one) was already used: no replay. */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const [rows] = await this.q.query(
      `UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [userId, step],
    );
    return rows.length > 0;
  }

  async replaceRecoveryCodes(userId: string, hashes: Buffer[]): Promise<void> {
    await this.q.query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [userId]);
    if (hashes.length > 0) {
      await this.q.query(`INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::bytea[])`, [
        userId,
        hashes,
      ]);
    }
  }

  /** Marks one unused recovery code used; false when it is unknown or spent. */
  async useRecoveryCode(userId: string, hash: Buffer): Promise<boolean> {
    const [rows] = await this.q.query(
      `UPDATE user_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [userId, hash],
    );
    return rows.length > 0;
  }
}
