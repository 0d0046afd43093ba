import { Injectable } from '@nestjs/common';
import { invalidParameter, notFound, ProblemError } from '../../common/errors/problem';
import { CursorCodec } from '../../common/pagination/cursor';
import { keysetPage } from '../../common/pagination/keyset-page';
import { daysBetween, todayUtc } from '../../common/validation/calendar-date';
import { ENGINE_CONTROLLED_ACCOUNTS } from '../../fund/ledger/chart-of-accounts';
import { AnswerCache } from '../common/answer-cache';
import { D, Dec, ZERO, money, sum } from '../common/decimals';
import { assertOrdered } from '../common/query-params';
import {
  GlDetailDto,
  GlDetailQueryDto,
  JournalEntriesDto,
  JournalEntriesQueryDto,
  LedgerAccountsDto,
  TrialBalanceDto,
} from './ledger.dto';
import { LedgerRepository } from './ledger.repository';

export const MAX_JOURNAL_WINDOW_DAYS = 92;

@Injectable()
export class LedgerService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly cache: AnswerCache,
    private readonly cursors: CursorCodec,
  ) {}

  async accounts(fundId: string): Promise<LedgerAccountsDto> {
    const rows = await this.repo.chartOfAccounts(fundId);
    return {
      items: rows.map((a) => ({
        accountCode: a.code,
        accountName: a.name,
        accountType: a.account_type,
        normalBalance: a.normal_balance,
        manualPosting: !ENGINE_CONTROLLED_ACCOUNTS.has(a.code),
      })),
      total: rows.length,
    };
  }

  /** Net balance of every account at the end of `asOf`, shown on its debit or credit side. */
  async trialBalance(fundId: string, asOfParam?: string): Promise<TrialBalanceDto> {
    const asOf = asOfParam ?? (await this.repo.latestEntryDate(fundId)) ?? todayUtc();
    // Append-only ledger: the last entry number names the exact set of lines the answer sums.
    const lastEntry = await this.repo.lastEntryNumber(fundId);
    return this.cache.immutableAnswer(fundId, `trial-balance:${asOf}:${lastEntry}`, () =>
      this.computeTrialBalance(fundId, asOf),
    );
  }

  private async computeTrialBalance(fundId: string, asOf: string): Promise<TrialBalanceDto> {
    const [chart, balances] = await Promise.all([
      this.repo.chartOfAccounts(fundId),
      this.repo.balancesAsOf(fundId, asOf),
    ]);
    const byCode = new Map(balances.map((b) => [b.account_code, new D(b.debit).minus(b.credit)]));
    const accounts = chart.map((a) => {
      const net = byCode.get(a.code) ?? ZERO;
      return {
        accountCode: a.code,
        accountName: a.name,
        accountType: a.account_type,
        debit: money(net.isPositive() ? net : ZERO),
        credit: money(net.isNegative() ? net.negated() : ZERO),
      };
    });
    const totalDebits = sum(accounts.map((a) => a.debit));
    const totalCredits = sum(accounts.map((a) => a.credit));
    return {
      asOf,
      accounts,
      totalDebits: money(totalDebits),
      totalCredits: money(totalCredits),
      balanced: totalDebits.equals(totalCredits),
    };
  }

  async journalEntries(fundId: string, q: JournalEntriesQueryDto): Promise<JournalEntriesDto> {
    assertOrdered(q.from, q.to);
    const days = daysBetween(q.from, q.to);
    if (days > MAX_JOURNAL_WINDOW_DAYS) {
      throw new ProblemError(
        'window_too_large',
        `to - from is ${days} days; at most ${MAX_JOURNAL_WINDOW_DAYS} are allowed`,
        [{ field: 'to', message: `must be at most ${MAX_JOURNAL_WINDOW_DAYS} days after from` }],
      );
    }
    // Bound to the fund and the window: a cursor of another window is not valid here.
    const kind = `fund-journal:${fundId}:${q.from}:${q.to}`;
    const limit = q.limit ?? 100;
    const pos = q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { d: 'date', i: 'bigint' });
    const [totals, rows] = await Promise.all([
      this.repo.journalWindowTotals(fundId, q.from, q.to),
      this.repo.journalLines(fundId, q.from, q.to, pos && { entryDate: pos.d, lineId: pos.i }, limit + 1),
    ]);
    const page = keysetPage(rows, limit, (last) => this.cursors.encode(kind, { d: last.entry_date, i: last.line_id }));
    return {
      from: q.from,
      to: q.to,
      lines: page.rows.map((l) => ({
        lineId: l.line_id,
        entryId: l.entry_id,
        entryNumber: l.entry_number,
        entryDate: l.entry_date,
        postedAt: new Date(l.posted_at).toISOString(),
        accountCode: l.account_code,
        accountName: l.account_name,
        accountType: l.account_type,
        debit: money(l.debit),
        credit: money(l.credit),
        currency: l.currency,
        description: l.description,
        source: l.source,
        sourceRef: l.source_ref,
        navRunId: l.nav_run_id,
        shareClass: l.share_class,
        status: l.status,
      })),
      totals: { lineCount: totals.line_count, debits: money(totals.debits), credits: money(totals.credits) },
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }

  /**
   * One page of an account's lines with running balances. The cursor carries the resolved window
   * and the running balance after its last line, so a page's opening balance continues the
   * previous page exactly and a deep page costs what the first one does. Two statements at once:
   * the account, window and sums (glHeader), and the page, whose window is resolved in SQL the same way.
   */
  async glDetail(fundId: string, q: GlDetailQueryDto): Promise<GlDetailDto> {
    assertOrdered(q.from, q.to);
    const kind = `fund-gl-detail:${fundId}:${q.accountCode}:${q.from ?? '*'}:${q.to ?? '*'}`;
    const pos = await this.glCursor(fundId, q, kind);
    const [from, to] = pos ? [pos.f, pos.t] : [q.from ?? null, q.to ?? null];
    const limit = q.limit ?? 100;
    const [head, rows] = await Promise.all([
      this.repo.glHeader(fundId, q.accountCode, from, to),
      this.repo.accountLines(fundId, q.accountCode, from, to, pos && { entryDate: pos.d, lineId: pos.i }, limit + 1),
    ]);
    if (!head) throw notFound(`account ${q.accountCode}`);
    const sign = head.normal_balance === 'credit' ? -1 : 1;
    const directed = (net: string | Dec) => new D(net.toString()).times(sign);
    const windowOpening = directed(head.before_net);
    let running = pos ? new D(pos.b) : windowOpening;
    const opening = running;
    const lines = rows.map((l) => {
      running = running.plus(directed(new D(l.debit).minus(l.credit)));
      return { line: l, runningBalance: running };
    });
    const page = keysetPage(lines, limit, ({ line, runningBalance }) =>
      this.cursors.encode(kind, {
        f: head.from,
        t: head.to,
        d: line.entry_date,
        i: line.line_id,
        b: runningBalance.toString(),
      }),
    );
    return {
      account: { code: head.code, name: head.name, type: head.account_type },
      from: head.from,
      to: head.to,
      openingBalance: money(opening),
      lines: page.rows.map(({ line: l, runningBalance }) => ({
        entryId: l.entry_id,
        entryDate: l.entry_date,
        description: l.description,
        debit: money(l.debit),
        credit: money(l.credit),
        runningBalance: money(runningBalance),
      })),
      closingBalance: money(windowOpening.plus(directed(head.within_net))),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }

  /** The decoded cursor, if any; an unknown account is a 404 before a bad cursor is a 400. */
  private async glCursor(fundId: string, q: GlDetailQueryDto, kind: string) {
    if (q.cursor === undefined) return null;
    try {
      const pos = this.cursors.decode(kind, q.cursor, { f: 'date', t: 'date', d: 'date', i: 'bigint', b: 'decimal' });
      if (pos.f > pos.t) throw invalidParameter('cursor', 'is not a valid cursor for this listing');
      return pos;
    } catch (err) {
      if (!(await this.repo.glHeader(fundId, q.accountCode, null, null))) throw notFound(`account ${q.accountCode}`);
      throw err;
    }
  }
}
