import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { JournalEntryDraft } from '../fund/ledger/journal-entry';
import { JournalRepository } from '../fund/ledger/journal.repository';
import { bookingDates, restartNavFrom } from '../fund/nav/booking-calendar';
import type { DealingFrequency } from '../fund/reporting/dealing-calendar';
import { SqlRepository } from '../database/sql-repository';
import { lockNavInputsForRequest } from '../database/sql-fragments';

export interface DistributedReport {
  id: string;
  period_start: string;
  period_end: string;
  distributed_at: Date;
}

/**
 * The books as proposals see them: the reads their rules check (optionally locking the rows relied on,
 * inside the approval transaction) and the writes approval makes. Built over the DataSource when a
 * proposal is staged and over the transaction's manager when it is approved.
 */
@Injectable()
export class ProposalBooksRepository extends SqlRepository {
  constructor(
    @InjectDataSource() db: DataSource,
    private readonly journal: JournalRepository,
  ) {
    super(db);
  }

  async unknownAccounts(fundId: string, codes: string[]): Promise<string[]> {
    const rows: { code: string }[] = await this.q.query(
      `SELECT code FROM chart_of_accounts WHERE fund_id = $1 AND code = ANY ($2::text[])`,
      [fundId, codes],
    );
    const known = new Set(rows.map((r) => r.code));
    return [...new Set(codes)].filter((c) => !known.has(c));
  }

  /** The dates a booking is judged against: inception, and the last published NAV (the books are closed through it). */
  bookingDates(fundId: string): Promise<{ inception: string | null; closedThrough: string | null }> {
    return bookingDates(this.q, fundId);
  }

  /**
   * The fund's NAV-inputs lock for the rest of the approval's transaction (NAV runs and imports take
   * it; a run reads its inputs under it): a booking commits wholly before or after a run reads them.
   * Taken before the books lock, as runs take it. Waits at most the pool's lock_timeout.
   */
  async holdNavInputs(fundId: string): Promise<void> {
    await lockNavInputsForRequest(this.q, fundId, 'approve');
  }

  /** A booking dated on or before a complete NAV run: the next run starts there at the latest. */
  restartNavFrom(fundId: string, date: string): Promise<boolean> {
    return restartNavFrom(this.q, fundId, date);
  }

  /** The investor's status (active, pending, redeemed, closed), or null when the fund has no such investor. */
  async investorStatus(fundId: string, investorId: string, lock: boolean): Promise<string | null> {
    const rows: { status: string }[] = await this.q.query(
      `SELECT status FROM investors WHERE fund_id = $1 AND id = $2${lock ? ' FOR SHARE' : ''}`,
      [fundId, investorId],
    );
    return rows[0]?.status ?? null;
  }

  /** A share class by name or id. */
  async shareClass(
    fundId: string,
    nameOrId: string,
    lock: boolean,
  ): Promise<{ id: string; name: string; status: string } | null> {
    const rows: { id: string; name: string; status: string }[] = await this.q.query(
      `SELECT id, name, status FROM share_classes WHERE fund_id = $1 AND (name = $2 OR id::text = lower($2))${lock ? ' FOR SHARE' : ''}`,
      [fundId, nameOrId],
    );
    return rows[0] ?? null;
  }

  /**
   * Whether the investor holds units of the class when `date` is dealt: units in the latest complete
   * run before it, or a subscription into the class (not cancelled or failed) dealt after that run
   * and before `date` (a day deals redemptions before subscriptions, so the same day does not count).
   */
  async holdsUnitsBefore(fundId: string, investorId: string, classId: string, date: string): Promise<boolean> {
    const [row] = await this.q.query(
      `WITH run AS (SELECT id, valuation_date FROM nav_runs
                     WHERE fund_id = $1 AND status = 'complete' AND valuation_date < $4::date
                     ORDER BY valuation_date DESC LIMIT 1)
       SELECT EXISTS (SELECT 1 FROM run
                        JOIN nav_run_lots l ON l.nav_run_id = run.id AND l.fund_id = $1 AND l.units > 0
                        JOIN subscription_lots s ON s.id = l.lot_id AND s.fund_id = $1
                       WHERE s.investor_id = $2 AND s.share_class_id = $3)
           OR EXISTS (SELECT 1 FROM capital_activity c
                       WHERE c.fund_id = $1 AND c.investor_id = $2 AND c.share_class_id = $3
                         AND c.type = 'subscription' AND c.status NOT IN ('cancelled', 'failed')
                         AND c.dealing_date < $4::date
                         AND c.dealing_date > coalesce((SELECT valuation_date FROM run), '-infinity'::date)) AS holds`,
      [fundId, investorId, classId, date],
    );
    return row.holds;
  }

  async dealingTerms(
    fundId: string,
  ): Promise<{ frequency: DealingFrequency; subscriptionNoticeDays: number; redemptionNoticeDays: number }> {
    const [terms] = await this.q.query(
      `SELECT dealing_frequency, subscription_notice_days, redemption_notice_days FROM funds WHERE id = $1`,
      [fundId],
    );
    return {
      frequency: terms.dealing_frequency,
      subscriptionNoticeDays: terms.subscription_notice_days,
      redemptionNoticeDays: terms.redemption_notice_days,
    };
  }

  async lpReport(
    fundId: string,
    reportId: string,
    lock: boolean,
  ): Promise<{ status: string; periodStart: string; periodEnd: string } | null> {
    const rows: { status: string; periodStart: string; periodEnd: string }[] = await this.q.query(
      `SELECT status, period_start::text AS "periodStart", period_end::text AS "periodEnd"
         FROM lp_reports WHERE fund_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [fundId, reportId],
    );
    return rows[0] ?? null;
  }

  /**
   * The id of a report already distributed for exactly this period, if any. With `lock` (approval),
   * the fund's books lock is taken first, so two approvals for one period see each other's report.
   */
  async distributedReportFor(
    fundId: string,
    periodStart: string,
    periodEnd: string,
    lock: boolean,
  ): Promise<string | null> {
    if (lock) await this.journal.with(this.q).lockBooks(fundId);
    const rows: { id: string }[] = await this.q.query(
      `SELECT id FROM lp_reports WHERE fund_id = $1 AND period_start = $2 AND period_end = $3 AND status = 'distributed'`,
      [fundId, periodStart, periodEnd],
    );
    return rows[0]?.id ?? null;
  }

  async postJournalEntry(fundId: string, draft: JournalEntryDraft): Promise<{ id: string }> {
    return this.journal.with(this.q).postEntry(fundId, draft);
  }

  async insertExpense(
    fundId: string,
    ref: string,
    e: {
      category: string;
      vendor: string;
      description: string;
      accrualDate: string;
      periodEnd: string;
      amount: string;
    },
  ): Promise<string> {
    const id = randomUUID();
    await this.q.query(
      `INSERT INTO expenses (id, fund_id, external_id, category, vendor, description, accrual_date, period_end, amount, currency, status)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, base_currency, 'accrued' FROM funds WHERE id = $2`,
      [id, fundId, ref, e.category, e.vendor, e.description, e.accrualDate, e.periodEnd, e.amount],
    );
    return id;
  }

  async insertCapitalActivity(
    fundId: string,
    ref: string,
    c: {
      investorId: string;
      shareClassId?: string;
      type: string;
      amount: string | null;
      fraction: string | null;
      dealingDate: string;
    },
  ): Promise<string> {
    const id = randomUUID();
    await this.q.query(
      `INSERT INTO capital_activity (id, fund_id, external_id, investor_id, share_class_id, type, requested_amount, requested_fraction, dealing_date, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', now())`,
      [id, fundId, ref, c.investorId, c.shareClassId, c.type, c.amount, c.fraction, c.dealingDate],
    );
    return id;
  }

  /** Marks a draft report distributed; null when it is no longer a draft. */
  async distributeDraft(fundId: string, reportId: string): Promise<DistributedReport | null> {
    const [rows]: [DistributedReport[], number] = await this.q.query(
      `UPDATE lp_reports SET status = 'distributed', distributed_at = now() WHERE fund_id = $1 AND id = $2 AND status = 'draft'
       RETURNING id, period_start::text, period_end::text, distributed_at`,
      [fundId, reportId],
    );
    return rows.length === 1 ? rows[0] : null;
  }

  async insertDistributedReport(
    fundId: string,
    ref: string,
    r: { periodStart: string; periodEnd: string; preview: string },
  ): Promise<DistributedReport> {
    const rows: DistributedReport[] = await this.q.query(
      `INSERT INTO lp_reports (id, fund_id, external_id, period_start, period_end, status, preview, distributed_at)
       VALUES ($1, $2, $3, $4, $5, 'distributed', $6, now()) RETURNING id, period_start::text, period_end::text, distributed_at`,
      [randomUUID(), fundId, ref, r.periodStart, r.periodEnd, r.preview],
    );
    return rows[0];
  }
}
