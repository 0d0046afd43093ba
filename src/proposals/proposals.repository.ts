import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../common/auth/scopes';
import type { ProposalKind, ProposalStatus } from './dto/proposal.dto';
import type { KindedPayload, ProposalPayload } from './kinds';
import { SqlRepository } from '../database/sql-repository';
import { utcMicros } from '../database/sql-fragments';

/** A proposal row; `kind` and `payload` are the discriminated pair of its kind. */
export type ProposalRow = ProposalRowBase & KindedPayload;

interface ProposalRowBase {
  id: string;
  fund_id: string;
  status: ProposalStatus;
  proposed_by_account_id: string;
  proposed_by_key_id: string;
  /** The person behind the proposing account (null: a service identity). */
  proposed_by_user_id: string | null;
  /** That person's display name (null: a service identity). */
  proposed_by_display_name: string | null;
  /** The person who minted the proposing key (a service key's admin; null: unknown, minted before this was recorded). */
  proposing_key_minted_by: string | null;
  created_at: Date;
  created_key: string;
  decided_at: Date | null;
  decided_by_account_id: string | null;
  decided_by_key_id: string | null;
  decided_by_user_id: string | null;
  decided_by_display_name: string | null;
  decision_note: string | null;
  execution_ref: string | null;
  /** The maker's withdrawal (status withdrawn): when, by which account, key (null: a console session) and person. */
  withdrawn_at: Date | null;
  withdrawn_by_account_id: string | null;
  withdrawn_by_key_id: string | null;
  withdrawn_by_user_id: string | null;
  withdrawn_by_display_name: string | null;
  withdrawal_note: string | null;
}

const COLUMNS = `id, fund_id, kind, status, payload, proposed_by_account_id, proposed_by_key_id,
  (SELECT a.user_id FROM accounts a WHERE a.id = proposed_by_account_id) AS proposed_by_user_id,
  (SELECT k.created_by_user_id FROM api_keys k WHERE k.id = proposed_by_key_id) AS proposing_key_minted_by, created_at, ${utcMicros('created_at')} AS created_key,
  (SELECT u.display_name FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.id = proposed_by_account_id) AS proposed_by_display_name,
  decided_at, decided_by_account_id, decided_by_key_id, decided_by_user_id,
  (SELECT u.display_name FROM users u WHERE u.id = decided_by_user_id) AS decided_by_display_name, decision_note, execution_ref,
  withdrawn_at, withdrawn_by_account_id, withdrawn_by_key_id, withdrawn_by_user_id,
  (SELECT u.display_name FROM users u WHERE u.id = withdrawn_by_user_id) AS withdrawn_by_display_name, withdrawal_note`;

/** Fund-scoped proposal queries. */
@Injectable()
export class ProposalsRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  async insert(p: {
    id: string;
    fundId: string;
    kind: ProposalKind;
    payload: ProposalPayload;
    accountId: string;
    keyId: string;
  }): Promise<ProposalRow> {
    const rows = await this.q.query(
      `INSERT INTO proposals (id, fund_id, kind, status, payload, proposed_by_account_id, proposed_by_key_id, created_at)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, clock_timestamp()) RETURNING ${COLUMNS}`,
      [p.id, p.fundId, p.kind, JSON.stringify(p.payload), p.accountId, p.keyId],
    );
    return rows[0];
  }

  async ofFund(fundId: string, id: string): Promise<ProposalRow | null> {
    const rows = await this.q.query(`SELECT ${COLUMNS} FROM proposals WHERE fund_id = $1 AND id = $2`, [fundId, id]);
    return rows[0] ?? null;
  }

  async lockOfFund(fundId: string, id: string): Promise<ProposalRow | null> {
    const rows = await this.q.query(`SELECT ${COLUMNS} FROM proposals WHERE fund_id = $1 AND id = $2 FOR UPDATE`, [
      fundId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Most recent first, keyset on (created_at, id): a page costs the same at any depth. `by`: only
   * those staged by that account or by any account of that person.
   */
  async pageOfFund(
    fundId: string,
    status: string | null,
    limit: number,
    after: { createdAt: string; id: string } | null,
    by: { accountId: string; userId: string | null } | null = null,
  ): Promise<ProposalRow[]> {
    return this.q.query(
      `SELECT ${COLUMNS} FROM proposals
        WHERE fund_id = $1 AND ($2::text IS NULL OR status = $2)
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
          AND ($6::uuid IS NULL OR proposed_by_account_id = $6
               OR proposed_by_account_id IN (SELECT a.id FROM accounts a WHERE a.user_id = $7::uuid))
        ORDER BY created_at DESC, id DESC LIMIT $5`,
      [fundId, status, after?.createdAt ?? null, after?.id ?? null, limit, by?.accountId ?? null, by?.userId ?? null],
    );
  }

  /** Records the decision on a pending proposal of `fundId` (fund again in the WHERE: defence in depth). */
  async decide(
    fundId: string,
    id: string,
    d: {
      status: 'approved' | 'rejected';
      accountId: string;
      keyId: string | null;
      userId: string | null;
      note: string | null;
      executionRef: string | null;
    },
  ): Promise<ProposalRow> {
    const [rows] = await this.q.query(
      `UPDATE proposals SET status = $2, decided_at = clock_timestamp(), decided_by_account_id = $3, decided_by_key_id = $4,
              decided_by_user_id = $7, decision_note = $5, execution_ref = $6
        WHERE id = $1 AND fund_id = $8 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, d.status, d.accountId, d.keyId, d.note, d.executionRef, d.userId, fundId],
    );
    return rows[0];
  }

  /** Records the maker's withdrawal of a pending proposal of `fundId` (the caller checked it is theirs). */
  async withdraw(
    fundId: string,
    id: string,
    w: { accountId: string; keyId: string | null; userId: string | null; note: string | null },
  ): Promise<ProposalRow> {
    const [rows] = await this.q.query(
      `UPDATE proposals SET status = 'withdrawn', withdrawn_at = clock_timestamp(), withdrawn_by_account_id = $3,
              withdrawn_by_key_id = $4, withdrawn_by_user_id = $5, withdrawal_note = $6
        WHERE id = $1 AND fund_id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, fundId, w.accountId, w.keyId, w.userId, w.note],
    );
    return rows[0];
  }

  /** The checker's standing NOW: role on the fund (membership row held) and whether the fund wants TOTP. */
  async checkerFacts(fundId: string, userId: string): Promise<{ role: Role | null; requiresTotp: boolean }> {
    const [fund] = await this.q.query(`SELECT approval_requires_totp FROM funds WHERE id = $1`, [fundId]);
    const member = await this.q.query(`SELECT role FROM fund_members WHERE fund_id = $1 AND user_id = $2 FOR SHARE`, [
      fundId,
      userId,
    ]);
    return { role: member[0]?.role ?? null, requiresTotp: fund?.approval_requires_totp === true };
  }
}
