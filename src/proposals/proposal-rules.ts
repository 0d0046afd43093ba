import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { FieldError, ProblemError, unprocessable } from '../common/errors/problem';
import { todayUtc } from '../common/validation/calendar-date';
import { describeCalendar, DealingFrequency, isDealingDate, noticeDays } from '../fund/reporting/dealing-calendar';
import type { ProposalKind } from './dto/proposal.dto';
import type { CapitalActivityProposalDto, ExpenseProposalDto, JournalEntryProposalDto, LpReportProposalDto } from './dto/propose.dto';
import { EntryBuilder, UnbalancedEntryError } from '../fund/ledger/journal-entry';
import { JournalRepository } from '../fund/ledger/journal.repository';

/** Anything that runs SQL: the DataSource (proposal time) or a transaction's manager (approval). */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface JournalPayload { entryDate: string; description: string; lines: { accountCode: string; debit: string; credit: string; description: string | null }[] }
export interface ExpensePayload { category: string; vendor: string; amount: string; accrualDate: string; periodEnd: string; description: string }
export interface CapitalPayload { investorId: string; type: string; shareClass: string; shareClassId?: string; amount: string | null; fraction: string | null; dealingDate: string }
export interface LpReportPayload { lpReportId: string | null; periodStart?: string; periodEnd?: string; narrative?: string }
export type ProposalPayload = JournalPayload | ExpensePayload | CapitalPayload | LpReportPayload;

export const EXPENSE_ACCOUNT: Record<string, string> = { administration: '5300', audit: '5400', legal: '5500', other: '5600' };
export const ACCRUED_EXPENSES = '2100';

const badShape = (errors: FieldError[]) =>
  new ProblemError('invalid_parameter', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
const cents = (s: string) => new Decimal(s).toFixed(2);

export interface Execution {
  executionRef: string;
  distributedReport?: { id: string; periodStart: string; periodEnd: string; distributedAt: string };
}

/**
 * What each kind of proposal must satisfy to be executable, checked when it is proposed and again
 * (inside the approval transaction, with the rows it depends on locked) when it is approved; and
 * the effect approval has on the books.
 */
@Injectable()
export class ProposalRules {
  /** Structural rules the DTO cannot express (one of two members, date order): 400 naming the fields. */
  normalize(kind: ProposalKind, input: unknown): ProposalPayload {
    switch (kind) {
      case 'journal-entry': {
        const b = input as JournalEntryProposalDto;
        const errors: FieldError[] = [];
        const lines = b.lines.map((l, i) => {
          const debit = l.debit !== undefined ? new Decimal(l.debit) : new Decimal(0);
          const credit = l.credit !== undefined ? new Decimal(l.credit) : new Decimal(0);
          if (debit.isZero() === credit.isZero()) errors.push({ field: `lines.${i}`, message: 'must have exactly one of debit and credit, positive' });
          return { accountCode: l.accountCode, debit: debit.toFixed(2), credit: credit.toFixed(2), description: l.description ?? null };
        });
        if (errors.length) throw badShape(errors);
        return { entryDate: b.entryDate, description: b.description, lines };
      }
      case 'expense': {
        const b = input as ExpenseProposalDto;
        const periodEnd = b.periodEnd ?? b.accrualDate;
        if (new Decimal(b.amount).isZero()) throw badShape([{ field: 'amount', message: 'must be positive' }]);
        if (periodEnd < b.accrualDate) throw badShape([{ field: 'periodEnd', message: 'must not be before accrualDate' }]);
        return { category: b.category, vendor: b.vendor, amount: cents(b.amount), accrualDate: b.accrualDate, periodEnd, description: b.description };
      }
      case 'capital-activity': {
        const b = input as CapitalActivityProposalDto;
        const errors: FieldError[] = [];
        if ((b.amount === undefined) === (b.fraction === undefined)) {
          errors.push({ field: 'amount', message: 'exactly one of amount and fraction is required' }, { field: 'fraction', message: 'exactly one of amount and fraction is required' });
        } else if (b.type === 'subscription' && b.fraction !== undefined) {
          errors.push({ field: 'fraction', message: 'a subscription is an amount, not a fraction' });
        }
        if (b.amount !== undefined && new Decimal(b.amount).isZero()) errors.push({ field: 'amount', message: 'must be positive' });
        if (b.fraction !== undefined && new Decimal(b.fraction).isZero()) errors.push({ field: 'fraction', message: 'must be positive' });
        if (errors.length) throw badShape(errors);
        return { investorId: b.investorId.toLowerCase(), type: b.type, shareClass: b.shareClass, amount: b.amount !== undefined ? cents(b.amount) : null,
          fraction: b.fraction !== undefined ? new Decimal(b.fraction).toString() : null, dealingDate: b.dealingDate };
      }
      case 'lp-report': {
        const b = input as LpReportProposalDto;
        const fresh = [b.periodStart, b.periodEnd, b.narrative];
        if (b.lpReportId !== undefined) {
          if (fresh.some((v) => v !== undefined)) throw badShape([{ field: 'lpReportId', message: 'give either lpReportId or periodStart, periodEnd and narrative, not both' }]);
          return { lpReportId: b.lpReportId.toLowerCase() };
        }
        const missing = (['periodStart', 'periodEnd', 'narrative'] as const).filter((k) => b[k] === undefined);
        if (missing.length) throw new ProblemError('missing_parameter', `${missing.join(', ')} required for a new report (or give lpReportId)`, missing.map((field) => ({ field, message: 'is required' })));
        if (b.periodEnd! < b.periodStart!) throw badShape([{ field: 'periodEnd', message: 'must not be before periodStart' }]);
        return { lpReportId: null, periodStart: b.periodStart, periodEnd: b.periodEnd, narrative: b.narrative };
      }
    }
  }

  /** Semantic rules against the books: 422 naming the rule. With `lock`, the rows relied on are locked. */
  async check(q: Queryable, fundId: string, kind: ProposalKind, payload: ProposalPayload, lock = false): Promise<ProposalPayload> {
    switch (kind) {
      case 'journal-entry':
        return this.checkJournal(q, fundId, payload as JournalPayload);
      case 'expense':
        return this.checkExpense(q, fundId, payload as ExpensePayload);
      case 'capital-activity':
        return this.checkCapital(q, fundId, payload as CapitalPayload, lock);
      case 'lp-report':
        return this.checkLpReport(q, fundId, payload as LpReportPayload, lock);
    }
  }

  private async unknownAccounts(q: Queryable, fundId: string, codes: string[]): Promise<string[]> {
    const rows: { code: string }[] = await q.query(`SELECT code FROM chart_of_accounts WHERE fund_id = $1 AND code = ANY ($2::text[])`, [fundId, codes]);
    const known = new Set(rows.map((r) => r.code));
    return [...new Set(codes)].filter((c) => !known.has(c));
  }

  private async checkJournal(q: Queryable, fundId: string, p: JournalPayload): Promise<JournalPayload> {
    const debit = p.lines.reduce((a, l) => a.plus(l.debit), new Decimal(0));
    const credit = p.lines.reduce((a, l) => a.plus(l.credit), new Decimal(0));
    if (!debit.equals(credit)) {
      throw new ProblemError('unbalanced_entry', `unbalanced entry: debits ${debit.toFixed(2)} ≠ credits ${credit.toFixed(2)}`,
        [{ field: 'lines', message: `debits ${debit.toFixed(2)} must equal credits ${credit.toFixed(2)}` }]);
    }
    const unknown = await this.unknownAccounts(q, fundId, p.lines.map((l) => l.accountCode));
    if (unknown.length) {
      throw unprocessable(`unknown account: ${unknown.join(', ')} is not in the fund's chart of accounts`,
        p.lines.flatMap((l, i) => (unknown.includes(l.accountCode) ? [{ field: `lines.${i}.accountCode`, message: `unknown account ${l.accountCode}` }] : [])));
    }
    return p;
  }

  private async checkExpense(q: Queryable, fundId: string, p: ExpensePayload): Promise<ExpensePayload> {
    const unknown = await this.unknownAccounts(q, fundId, [EXPENSE_ACCOUNT[p.category], ACCRUED_EXPENSES]);
    if (unknown.length) {
      throw unprocessable(`unknown account: the fund's chart of accounts lacks ${unknown.join(', ')}, needed to book a ${p.category} expense`,
        [{ field: 'category', message: `unknown account ${unknown.join(', ')}` }]);
    }
    return p;
  }

  private async checkCapital(q: Queryable, fundId: string, p: CapitalPayload, lock: boolean): Promise<CapitalPayload> {
    const investors = await q.query(`SELECT id, status FROM investors WHERE fund_id = $1 AND id = $2${lock ? ' FOR SHARE' : ''}`, [fundId, p.investorId]);
    if (investors.length === 0) throw unprocessable(`unknown investor ${p.investorId}`, [{ field: 'investorId', message: 'unknown investor' }]);
    const classes: { id: string; name: string; status: string }[] = await q.query(
      `SELECT id, name, status FROM share_classes WHERE fund_id = $1 AND (name = $2 OR id::text = lower($2))${lock ? ' FOR SHARE' : ''}`,
      [fundId, p.shareClass],
    );
    if (classes.length === 0) throw unprocessable(`unknown share class "${p.shareClass}"`, [{ field: 'shareClass', message: 'unknown share class' }]);
    const shareClass = classes[0];
    if (p.type === 'subscription' && shareClass.status === 'closed') {
      throw unprocessable(`share class "${shareClass.name}" is closed to subscriptions`, [{ field: 'shareClass', message: 'closed to subscriptions' }]);
    }
    const [terms] = await q.query(
      `SELECT dealing_frequency, subscription_notice_days, redemption_notice_days FROM funds WHERE id = $1`, [fundId]);
    const frequency = terms.dealing_frequency as DealingFrequency;
    if (!isDealingDate(p.dealingDate, frequency)) {
      throw unprocessable(`dealing date ${p.dealingDate} is not on the dealing calendar (${frequency}: ${describeCalendar(frequency)})`,
        [{ field: 'dealingDate', message: 'not on the dealing calendar' }]);
    }
    const notice = p.type === 'subscription' ? terms.subscription_notice_days : terms.redemption_notice_days;
    if (noticeDays(todayUtc(), p.dealingDate) < notice) {
      throw unprocessable(`dealing date ${p.dealingDate} is inside the ${notice}-day ${p.type} notice period`,
        [{ field: 'dealingDate', message: `needs ${notice} days of notice` }]);
    }
    return { ...p, shareClass: shareClass.name, shareClassId: shareClass.id };
  }

  private async checkLpReport(q: Queryable, fundId: string, p: LpReportPayload, lock: boolean): Promise<LpReportPayload> {
    if (p.lpReportId) {
      const rows = await q.query(`SELECT status FROM lp_reports WHERE fund_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [fundId, p.lpReportId]);
      if (rows.length === 0) throw unprocessable(`unknown LP report ${p.lpReportId}`, [{ field: 'lpReportId', message: 'unknown LP report' }]);
      if (rows[0].status === 'distributed') {
        throw unprocessable(`report already distributed: LP report ${p.lpReportId}`, [{ field: 'lpReportId', message: 'already distributed' }]);
      }
      return p;
    }
    const dup = await q.query(`SELECT id FROM lp_reports WHERE fund_id = $1 AND period_start = $2 AND period_end = $3 AND status = 'distributed'`,
      [fundId, p.periodStart, p.periodEnd]);
    if (dup.length) {
      throw unprocessable(`report already distributed for ${p.periodStart}..${p.periodEnd} (LP report ${dup[0].id})`, [{ field: 'periodEnd', message: 'a report for this period was already distributed' }]);
    }
    return p;
  }

  /** The effect of approval, inside the approval transaction (after check with lock). */
  async execute(m: EntityManager, fundId: string, proposalId: string, kind: ProposalKind, payload: ProposalPayload): Promise<Execution> {
    const ref = `proposal:${proposalId}`;
    switch (kind) {
      case 'journal-entry': {
        const p = payload as JournalPayload;
        const builder = new EntryBuilder(p.entryDate, 'manual', ref, p.description);
        for (const l of p.lines) builder.post(l.accountCode, new Decimal(l.debit).minus(l.credit), l.description ?? p.description);
        let draft;
        try {
          draft = builder.build();
        } catch (err) {
          if (err instanceof UnbalancedEntryError) throw new ProblemError('unbalanced_entry', err.message);
          throw err;
        }
        if (!draft) throw new ProblemError('unbalanced_entry', 'the entry has no non-zero line');
        const entry = await new JournalRepository(m).postEntry(fundId, draft);
        return { executionRef: `journal-entry:${entry.id}` };
      }
      case 'expense': {
        const p = payload as ExpensePayload;
        const id = randomUUID();
        await m.query(
          `INSERT INTO expenses (id, fund_id, external_id, category, vendor, description, accrual_date, period_end, amount, currency, status)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, base_currency, 'accrued' FROM funds WHERE id = $2`,
          [id, fundId, ref, p.category, p.vendor, p.description, p.accrualDate, p.periodEnd, p.amount],
        );
        // No posting here: the books accrue every expense row day by day in their NAV runs
        // (expense_accrual entries, src/fund/nav/expense-accrual.ts); a second posting would count it twice.
        return { executionRef: `expense:${id}` };
      }
      case 'capital-activity': {
        const p = payload as CapitalPayload;
        const id = randomUUID();
        await m.query(
          `INSERT INTO capital_activity (id, fund_id, external_id, investor_id, share_class_id, type, requested_amount, requested_fraction, dealing_date, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', now())`,
          [id, fundId, ref, p.investorId, p.shareClassId, p.type, p.amount, p.fraction, p.dealingDate],
        );
        return { executionRef: `capital-activity:${id}` };
      }
      case 'lp-report': {
        const p = payload as LpReportPayload;
        let rows: { id: string; period_start: string; period_end: string; distributed_at: Date }[];
        if (p.lpReportId) {
          [rows] = await m.query(
            `UPDATE lp_reports SET status = 'distributed', distributed_at = now() WHERE fund_id = $1 AND id = $2 AND status = 'draft'
             RETURNING id, period_start::text, period_end::text, distributed_at`, [fundId, p.lpReportId]);
          if (rows.length !== 1) throw unprocessable(`report already distributed: LP report ${p.lpReportId}`);
        } else {
          rows = await m.query(
            `INSERT INTO lp_reports (id, fund_id, external_id, period_start, period_end, status, preview, distributed_at)
             VALUES ($1, $2, $3, $4, $5, 'distributed', $6, now()) RETURNING id, period_start::text, period_end::text, distributed_at`,
            [randomUUID(), fundId, ref, p.periodStart, p.periodEnd, p.narrative!.slice(0, 1000)]);
        }
        const r = rows[0];
        return {
          executionRef: `lp-report:${r.id}`,
          distributedReport: { id: r.id, periodStart: r.period_start, periodEnd: r.period_end, distributedAt: new Date(r.distributed_at).toISOString() },
        };
      }
    }
  }
}
