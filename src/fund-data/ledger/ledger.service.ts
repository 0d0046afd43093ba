import { Injectable } from '@nestjs/common';
import { notFound, ProblemError } from '../../common/errors/problem';
import { addDays, daysBetween, todayUtc } from '../../common/validation/calendar-date';
import { AnswerCache } from '../common/answer-cache';
import { D, Dec, ZERO, money, sum } from '../common/decimals';
import { assertOrdered } from '../common/query-params';
import {
  GlDetailDto, GlDetailQueryDto, JournalEntriesDto, JournalEntriesQueryDto, LedgerAccountsDto, TrialBalanceDto,
} from './ledger.dto';
import { LedgerRepository } from './ledger.repository';

export const MAX_JOURNAL_WINDOW_DAYS = 92;

@Injectable()
export class LedgerService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly cache: AnswerCache,
  ) {}

  async accounts(fundId: string): Promise<LedgerAccountsDto> {
    const rows = await this.repo.chartOfAccounts(fundId);
    return {
      items: rows.map((a) => ({ accountCode: a.code, accountName: a.name, accountType: a.account_type, normalBalance: a.normal_balance })),
      total: rows.length,
    };
  }

  /** Net balance of every account at the end of `asOf`, shown on its debit or credit side. */
  async trialBalance(fundId: string, asOfParam?: string): Promise<TrialBalanceDto> {
    const asOf = asOfParam ?? (await this.repo.latestEntryDate(fundId)) ?? todayUtc();
    // Append-only ledger: the last entry number names the exact set of lines the answer sums.
    const lastEntry = await this.repo.lastEntryNumber(fundId);
    return this.cache.immutableAnswer(fundId, `trial-balance:${asOf}:${lastEntry}`, () => this.computeTrialBalance(fundId, asOf));
  }

  private async computeTrialBalance(fundId: string, asOf: string): Promise<TrialBalanceDto> {
    const [chart, balances] = await Promise.all([this.repo.chartOfAccounts(fundId), this.repo.balancesAsOf(fundId, asOf)]);
    const byCode = new Map(balances.map((b) => [b.account_code, new D(b.debit).minus(b.credit)]));
    const accounts = chart.map((a) => {
      const net = byCode.get(a.code) ?? ZERO;
      return {
        accountCode: a.code, accountName: a.name, accountType: a.account_type,
        debit: money(net.isPositive() ? net : ZERO), credit: money(net.isNegative() ? net.negated() : ZERO),
      };
    });
    const totalDebits = sum(accounts.map((a) => a.debit));
    const totalCredits = sum(accounts.map((a) => a.credit));
    return { asOf, accounts, totalDebits: money(totalDebits), totalCredits: money(totalCredits), balanced: totalDebits.equals(totalCredits) };
  }

  async journalEntries(fundId: string, q: JournalEntriesQueryDto): Promise<JournalEntriesDto> {
    assertOrdered(q.from, q.to);
    const days = daysBetween(q.from, q.to);
    if (days > MAX_JOURNAL_WINDOW_DAYS) {
      throw new ProblemError('window_too_large', `to - from is ${days} days; at most ${MAX_JOURNAL_WINDOW_DAYS} are allowed`, [
        { field: 'to', message: `must be at most ${MAX_JOURNAL_WINDOW_DAYS} days after from` },
      ]);
    }
    const [totals, lines] = await Promise.all([
      this.repo.journalWindowTotals(fundId, q.from, q.to),
      this.repo.journalLines(fundId, q.from, q.to, q.limit ?? 100),
    ]);
    return {
      from: q.from,
      to: q.to,
      lines: lines.map((l) => ({
        lineId: l.line_id, entryId: l.entry_id, entryNumber: l.entry_number, entryDate: l.entry_date,
        postedAt: new Date(l.posted_at).toISOString(), accountCode: l.account_code, accountName: l.account_name,
        accountType: l.account_type, debit: money(l.debit), credit: money(l.credit), currency: l.currency,
        description: l.description, source: l.source, sourceRef: l.source_ref, navRunId: l.nav_run_id,
        shareClass: l.share_class, status: l.status,
      })),
      lineCount: totals.line_count,
      totalDebits: money(totals.debits),
      totalCredits: money(totals.credits),
    };
  }

  async glDetail(fundId: string, q: GlDetailQueryDto): Promise<GlDetailDto> {
    assertOrdered(q.from, q.to);
    const account = await this.repo.account(fundId, q.accountCode);
    if (!account) throw notFound(`account ${q.accountCode}`);
    let to = q.to ?? (await this.repo.latestEntryDate(fundId)) ?? todayUtc();
    if (q.to === undefined && q.from !== undefined && q.from > to) to = q.from;
    const from = q.from ?? addDays(to, -30);
    const sign = account.normal_balance === 'credit' ? -1 : 1;
    const directed = (net: string | Dec) => new D(net.toString()).times(sign);
    const [before, within, lines] = await Promise.all([
      this.repo.accountNetBefore(fundId, account.code, from),
      this.repo.accountNetBetween(fundId, account.code, from, to),
      this.repo.accountLines(fundId, account.code, from, to, q.limit ?? 100),
    ]);
    const opening = directed(before);
    let running = opening;
    return {
      accountCode: account.code,
      accountName: account.name,
      accountType: account.account_type,
      from,
      to,
      openingBalance: money(opening),
      lines: lines.map((l) => {
        running = running.plus(directed(new D(l.debit).minus(l.credit)));
        return { entryId: l.entry_id, entryDate: l.entry_date, description: l.description, debit: money(l.debit), credit: money(l.credit), runningBalance: money(running) };
      }),
      closingBalance: money(opening.plus(directed(within))),
    };
  }
}
