import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrderedReads } from '../common/ordered-read.repository';
import { JournalRepository } from '../../fund/ledger/journal.repository';
import { SqlRepository } from '../../database/sql-repository';

export interface AccountRow {
  code: string;
  name: string;
  account_type: string;
  normal_balance: string;
}

export interface JournalLineRow {
  line_id: string;
  entry_id: string;
  entry_number: string;
  entry_date: string;
  posted_at: Date;
  account_code: string;
  account_name: string;
  account_type: string;
  debit: string;
  credit: string;
  currency: string;
  description: string;
  source: string;
  source_ref: string | null;
  nav_run_id: string | null;
  share_class: string | null;
  status: string;
}

/** A keyset position in the ledger's (entry_date, line id) order: the last line of a page. */
export interface LinePosition {
  entryDate: string;
  lineId: string;
}

/** Ledger reads, always fund-scoped; sums are computed by PostgreSQL over numeric (exact). */
@Injectable()
export class LedgerRepository extends SqlRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly journal: JournalRepository,
    private readonly ordered: OrderedReads,
  ) {
    super(db);
  }

  chartOfAccounts(fundId: string): Promise<AccountRow[]> {
    return this.q.query(
      `SELECT code, name, account_type, normal_balance FROM chart_of_accounts WHERE fund_id = $1 ORDER BY code`,
      [fundId],
    );
  }

  async latestEntryDate(fundId: string): Promise<string | null> {
    const rows = await this.q.query(
      `SELECT to_char(entry_date, 'YYYY-MM-DD') AS d FROM journal_lines WHERE fund_id = $1 ORDER BY entry_date DESC LIMIT 1`,
      [fundId],
    );
    return rows[0]?.d ?? null;
  }

  /** The books' own marker of "the ledger changed": the fund's last entry number. */
  lastEntryNumber(fundId: string): Promise<number> {
    return this.journal.with(this.q).lastEntryNumber(fundId);
  }

  /**
   * Debit and credit totals per account for every line dated on or before `asOf`, summed over the
   * per-day sums of journal_account_days (exact; a few thousand rows instead of every line).
   */
  balancesAsOf(fundId: string, asOf: string): Promise<{ account_code: string; debit: string; credit: string }[]> {
    return this.q.query(
      `SELECT account_code, sum(debit)::text AS debit, sum(credit)::text AS credit
         FROM journal_account_days WHERE fund_id = $1 AND entry_date <= $2::date
        GROUP BY account_code`,
      [fundId, asOf],
    );
  }

  async journalWindowTotals(
    fundId: string,
    from: string,
    to: string,
  ): Promise<{ line_count: number; debits: string; credits: string }> {
    // per-day sums (journal_account_days): at most 92 days × the chart's accounts, whatever the volume
    const rows = await this.q.query(
      `SELECT COALESCE(sum(line_count), 0)::int AS line_count, COALESCE(sum(debit), 0)::text AS debits, COALESCE(sum(credit), 0)::text AS credits
         FROM journal_account_days WHERE fund_id = $1 AND entry_date BETWEEN $2::date AND $3::date`,
      [fundId, from, to],
    );
    return rows[0];
  }

  /**
   * One keyset page of the window's lines (date, then line id), after `after` when given, with
   * the books' line view columns, in one statement: the page of ids by an ordered walk of
   * (fund_id, entry_date, id) that seeks to the position, planned on its own (a MATERIALIZED CTE
   * under OrderedReads' settings, so the walk is the plan whatever the statistics), then those
   * ids through the view by key.
   */
  journalLines(
    fundId: string,
    from: string,
    to: string,
    after: LinePosition | null,
    limit: number,
  ): Promise<JournalLineRow[]> {
    return this.ordered.read<JournalLineRow>(
      this.db,
      `WITH page AS MATERIALIZED (
         SELECT id, entry_date FROM journal_lines
          WHERE fund_id = $1 AND entry_date BETWEEN $2::date AND $3::date
            AND ($4::date IS NULL OR (entry_date, id) > ($4::date, $5::bigint))
          ORDER BY entry_date, id
          LIMIT $6)
       SELECT v.line_id::text, v.entry_id, v.entry_number::text, to_char(v.entry_date, 'YYYY-MM-DD') AS entry_date, v.posted_at,
              v.account_code, v.account_name, v.account_type, v.debit::text, v.credit::text, v.currency, v.description,
              v.source, v.source_ref, v.nav_run_id, v.share_class, v.status
         FROM page
         JOIN LATERAL (SELECT * FROM journal_lines_view WHERE line_id = page.id AND fund_id = $1) v ON true
        ORDER BY page.entry_date, page.id`,
      [fundId, from, to, after?.entryDate ?? null, after?.lineId ?? null, limit],
    );
  }

  /**
   * gl-detail's account, window and sums in one round trip: the window is `from`/`to` when given,
   * else `to` = the latest entry date (today when the fund has none; never before `from`) and
   * `from` = 30 days before `to` (GL_WINDOW); the signed sums before and within it, over the
   * account's per-day sums (journal_account_days: one row per day, not the account's every line).
   * No row: no such account.
   */
  async glHeader(fundId: string, code: string, from: string | null, to: string | null): Promise<GlHeaderRow | null> {
    const rows = await this.q.query(
      `WITH ${GL_WINDOW}
       SELECT a.code, a.name, a.account_type, a.normal_balance, to_char(w.f, 'YYYY-MM-DD') AS from, to_char(w.t, 'YYYY-MM-DD') AS to,
              (SELECT COALESCE(sum(debit - credit), 0)::text FROM journal_account_days
                WHERE fund_id = $1 AND account_code = $2 AND entry_date < w.f) AS before_net,
              (SELECT COALESCE(sum(debit - credit), 0)::text FROM journal_account_days
                WHERE fund_id = $1 AND account_code = $2 AND entry_date BETWEEN w.f AND w.t) AS within_net
         FROM chart_of_accounts a, w
        WHERE a.fund_id = $1 AND a.code = $2`,
      [fundId, code, from, to],
    );
    return rows[0] ?? null;
  }

  /**
   * One keyset page of an account's lines in the window (resolved in the statement exactly as
   * glHeader does, so both run at once), on (fund_id, account_code, entry_date, id).
   */
  accountLines(
    fundId: string,
    code: string,
    from: string | null,
    to: string | null,
    after: LinePosition | null,
    limit: number,
  ) {
    return this.ordered.read<{
      line_id: string;
      entry_id: string;
      entry_date: string;
      description: string;
      debit: string;
      credit: string;
    }>(
      this.db,
      `WITH ${GL_WINDOW}
       SELECT l.id::text AS line_id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, l.description, l.debit::text, l.credit::text
         FROM journal_lines l
        WHERE l.fund_id = $1 AND l.account_code = $2 AND l.entry_date BETWEEN (SELECT f FROM w) AND (SELECT t FROM w)
          AND ($5::date IS NULL OR (l.entry_date, l.id) > ($5::date, $6::bigint))
        ORDER BY l.entry_date, l.id
        LIMIT $7`,
      [fundId, code, from, to, after?.entryDate ?? null, after?.lineId ?? null, limit],
    );
  }
}

export interface GlHeaderRow extends AccountRow {
  from: string;
  to: string;
  before_net: string;
  within_net: string;
}

/** gl-detail's window from $1 fund, $3 from and $4 to (either may be null): CTE `w(f, t)`. */
const GL_WINDOW = `latest AS (SELECT entry_date AS d FROM journal_lines WHERE fund_id = $1 ORDER BY entry_date DESC LIMIT 1),
       wt AS (SELECT COALESCE($4::date, GREATEST(COALESCE((SELECT d FROM latest), (now() AT TIME ZONE 'UTC')::date), $3::date)) AS t),
       w AS (SELECT COALESCE($3::date, wt.t - 30) AS f, wt.t FROM wt)`;
