import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { fundIdOf, keyIdOf, type Principal } from '../common/auth/principal';
import { notFound, ProblemError } from '../common/errors/problem';
import { CursorCodec } from '../common/pagination/cursor';
import { EventOutbox } from '../webhooks/event-outbox';
import { ProposalDto, ProposalListDto } from './dto/proposal.dto';
import { IdempotencyService, requestFingerprint } from './idempotency.service';
import { type KindedInput, executeProposal, validateProposal } from './kinds';
import { ProposalBooksRepository } from './proposal-books.repository';
import { proposalView } from './proposal-views';
import { ProposalRow, ProposalsRepository } from './proposals.repository';

/** How long a console TOTP check counts for approvals on funds that require it. */
export const TOTP_STEP_UP_MS = 10 * 60 * 1000;

export interface ProposeOutcome {
  record: ProposalDto;
  replayed: boolean;
}

/**
 * Maker-checker proposals: staged by an agent (fund:propose), decided by a different person
 * (proposals:review, role manager or admin). Nothing executes at proposal time; approval re-validates, executes the
 * effect, records the decision and writes the events to the outbox in one transaction.
 */
@Injectable()
export class ProposalsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ProposalsRepository,
    private readonly books: ProposalBooksRepository,
    private readonly idempotency: IdempotencyService,
    private readonly outbox: EventOutbox,
    private readonly cursors: CursorCodec,
  ) {}

  async propose(
    p: Principal,
    request: KindedInput,
    idempotency: { key: string | string[] | undefined; field: string },
  ): Promise<ProposeOutcome> {
    const fundId = fundIdOf(p);
    const keyId = keyIdOf(p);
    const key = this.idempotency.parseKey(idempotency.key, idempotency.field);
    if (key === null) return { record: await this.stage(p, fundId, request, null), replayed: false };
    const { kind, input } = request;

    const route = `POST proposals/${kind}`;
    const claim = await this.idempotency.begin(keyId, key, route, requestFingerprint(kind, input), idempotency.field);
    if (!claim.fresh)
      return { record: { ...NOT_WITHDRAWN, ...this.idempotency.replay<ProposalDto>(claim) }, replayed: true };
    try {
      const record = await this.stage(p, fundId, request, (m, rec) =>
        this.idempotency.complete(m, keyId, key, claim.token, 201, rec),
      );
      return { record, replayed: false };
    } catch (err) {
      if (
        err instanceof ProblemError &&
        err.status >= 400 &&
        err.status < 500 &&
        err.code !== 'idempotency_in_progress'
      ) {
        await this.idempotency.completeWithProblem(keyId, key, claim.token, err);
      } else {
        await this.idempotency.release(keyId, key, claim.token);
      }
      throw err;
    }
  }

  private async stage(
    p: Principal,
    fundId: string,
    request: KindedInput,
    record: ((m: EntityManager, rec: ProposalDto) => Promise<void>) | null,
  ): Promise<ProposalDto> {
    const payload = await validateProposal(this.books, fundId, request);
    return this.db.transaction(async (m) => {
      const row = await this.repo
        .with(m)
        .insert({ id: randomUUID(), fundId, kind: request.kind, payload, accountId: p.accountId, keyId: keyIdOf(p) });
      const view = proposalView(row);
      if (record) await record(m, view);
      return view;
    });
  }

  async get(p: Principal, id: string): Promise<ProposalDto> {
    const row = await this.repo.ofFund(fundIdOf(p), id); // a UUID: the route's uuidParam checked it
    const mine = proposerOnly(p);
    if (!row || (mine && !proposedBy(row, mine))) throw notFound(`proposal ${id}`);
    return proposalView(row);
  }

  /** The fund's proposals, or only the caller's own for a caller who may neither read the fund nor review. */
  async list(p: Principal, q: { status?: string; limit?: number; cursor?: string }): Promise<ProposalListDto> {
    const fundId = fundIdOf(p);
    const limit = q.limit ?? 100;
    const mine = proposerOnly(p);
    const cursorKind = `proposals:${fundId}:${q.status ?? '*'}${mine ? `:own:${mine.accountId}` : ''}`;
    const after = q.cursor ? this.cursors.decode(cursorKind, q.cursor, { createdAt: 'timestamp', id: 'uuid' }) : null;
    const rows = await this.repo.pageOfFund(fundId, q.status ?? null, limit + 1, after, mine);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const last = page[page.length - 1];
    return {
      items: page.map(proposalView),
      hasMore,
      nextCursor:
        hasMore && last ? this.cursors.encode(cursorKind, { createdAt: last.created_key, id: last.id }) : null,
    };
  }

  private async lockForDecision(m: EntityManager, p: Principal, id: string, approving: boolean): Promise<ProposalRow> {
    const row = await this.repo.with(m).lockOfFund(fundIdOf(p), id);
    if (!row) throw notFound(`proposal ${id}`);
    await this.assertChecker(m, p, row, approving);
    if (row.status !== 'pending') throw new ProblemError('invalid_state', `proposal ${id} was already ${row.status}`);
    return row;
  }

  /**
   * Maker-checker between people: the checker is a person, not the person (or identity) who staged
   * the proposal nor the person who minted the key it was staged with (an admin's service key), holds
   * manager or admin on the fund NOW, and, when the fund requires it, passed a TOTP check in their
   * console session within the last 10 minutes (approval only).
   */
  private async assertChecker(m: EntityManager, p: Principal, row: ProposalRow, approving: boolean): Promise<void> {
    const refuse = (why: string) => {
      throw new ProblemError('maker_checker_violation', why);
    };
    if (!p.userId) refuse('a service identity cannot decide proposals: the checker must be a person');
    if (row.proposed_by_account_id === p.accountId || row.proposed_by_user_id === p.userId) {
      refuse('you staged this proposal (with one of your keys): another person must approve or reject it');
    }
    if (row.proposing_key_minted_by === p.userId) {
      refuse('this proposal was staged with a key you minted: another person must approve or reject it');
    }
    const facts = await this.repo.with(m).checkerFacts(row.fund_id, p.userId!);
    if (facts.role !== 'manager' && facts.role !== 'admin') {
      refuse(`deciding proposals needs the manager or admin role on this fund; your role is ${facts.role ?? 'none'}`);
    }
    if (approving && facts.requiresTotp) {
      if (p.via !== 'session')
        refuse('this fund requires a TOTP check to approve: approve in the console after entering a code');
      const at = p.totpVerifiedAt?.getTime() ?? 0;
      if (Date.now() - at > TOTP_STEP_UP_MS)
        refuse(
          'this fund requires a TOTP check in the last 10 minutes: enter a code from your authenticator app, then approve',
        );
    }
  }

  async approve(p: Principal, id: string, note: string | null): Promise<ProposalDto> {
    return this.db.transaction(async (m) => {
      const row = await this.lockForDecision(m, p, id, true);
      const execution = await executeProposal(this.books.with(m), row.fund_id, row.id, row);
      const decided = await this.repo.with(m).decide(row.fund_id, row.id, {
        status: 'approved',
        accountId: p.accountId,
        keyId: p.keyId,
        userId: p.userId,
        note,
        executionRef: execution.executionRef,
      });
      const view = proposalView(decided);
      await this.outbox.emit(m, row.fund_id, 'proposal.approved', {
        proposalId: view.id,
        kind: view.kind,
        status: view.status,
        payload: view.payload,
        proposedBy: view.proposedBy,
        decidedAt: view.decidedAt,
        decidedBy: view.decidedBy,
        note,
        executionRef: view.executionRef,
      });
      if (execution.distributedReport) {
        await this.outbox.emit(m, row.fund_id, 'report.distributed', {
          lpReportId: execution.distributedReport.id,
          periodStart: execution.distributedReport.periodStart,
          periodEnd: execution.distributedReport.periodEnd,
          distributedAt: execution.distributedReport.distributedAt,
          proposalId: view.id,
        });
      }
      return view;
    });
  }

  /**
   * The maker takes back their own pending proposal: whoever staged it (the same account, or the same
   * person through another key or the console), with the row locked, so an approval or rejection in
   * flight commits wholly before (then 409 naming its outcome) or after (it finds it withdrawn). Someone
   * else's is 404, as GET answers a propose-only key. A second withdrawal by its maker answers the
   * record as it is (a retry after a lost answer). No webhook event: the interface names
   * proposal.approved and proposal.rejected only.
   */
  async withdraw(p: Principal, id: string, note: string | null): Promise<ProposalDto> {
    const fundId = fundIdOf(p);
    return this.db.transaction(async (m) => {
      const row = await this.repo.with(m).lockOfFund(fundId, id);
      if (!row || !proposedBy(row, { accountId: p.accountId, userId: p.userId })) throw notFound(`proposal ${id}`);
      if (row.status === 'withdrawn') return proposalView(row);
      if (row.status !== 'pending') {
        throw new ProblemError(
          'invalid_state',
          `proposal ${id} is ${row.status}: only a pending proposal can be withdrawn`,
        );
      }
      const withdrawn = await this.repo
        .with(m)
        .withdraw(fundId, id, { accountId: p.accountId, keyId: p.keyId, userId: p.userId, note });
      return proposalView(withdrawn);
    });
  }

  async reject(p: Principal, id: string, reason: string): Promise<ProposalDto> {
    return this.db.transaction(async (m) => {
      const row = await this.lockForDecision(m, p, id, false);
      const decided = await this.repo.with(m).decide(row.fund_id, row.id, {
        status: 'rejected',
        accountId: p.accountId,
        keyId: p.keyId,
        userId: p.userId,
        note: reason,
        executionRef: null,
      });
      const view = proposalView(decided);
      await this.outbox.emit(m, row.fund_id, 'proposal.rejected', {
        proposalId: view.id,
        kind: view.kind,
        status: view.status,
        payload: view.payload,
        proposedBy: view.proposedBy,
        decidedAt: view.decidedAt,
        decidedBy: view.decidedBy,
        reason,
      });
      return view;
    });
  }
}

/**
 * An answer stored for an Idempotency-Key before withdrawal existed (kept 24 h) has no withdrawal
 * members; a staged record was pending, so they are null.
 */
const NOT_WITHDRAWN = { withdrawnAt: null, withdrawnBy: null, withdrawalNote: null } as const;

/** A proposer: an account, and the person behind it (null: a service identity). */
export interface Proposer {
  accountId: string;
  userId: string | null;
}

/**
 * Whose proposals a caller may read: everyone's with fund:read or proposals:review (the fund's data
 * and the review queue are theirs to see); otherwise (a fund:propose-only key) only their own — those
 * staged by the same account or by any account of the same person. Null: everyone's.
 */
export function proposerOnly(p: Principal): Proposer | null {
  if (p.scopes.includes('fund:read') || p.scopes.includes('proposals:review')) return null;
  return { accountId: p.accountId, userId: p.userId };
}

/** Whether `row` was staged by the proposer (the same account, or the same person with another of their keys). */
export function proposedBy(row: ProposalRow, who: Proposer): boolean {
  return (
    row.proposed_by_account_id === who.accountId || (who.userId !== null && row.proposed_by_user_id === who.userId)
  );
}
