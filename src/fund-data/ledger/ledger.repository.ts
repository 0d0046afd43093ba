import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { orderedRead } from '../common/ordered-read';
import { JournalRepository } from '../../fund/ledger/journal.repository';

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
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  chartOfAccounts(fundId: string): Promise<AccountRow[]> {
    return this.db.query(`SELECT code, name, account_type, normal_balance FROM chart_of_accounts WHERE fund_id = $1 ORDER BY code`, [fundId]);
  }

  async account(fundId: string, code: string): Promise<AccountRow | null> {
    const rows = await this.db.query(`SELECT code, name, account_type, normal_balance FROM chart_of_accounts WHERE fund_id = $1 AND code = $2`, [fundId, code]);
    return rows[0] ?? null;
  }

  async latestEntryDate(fundId: string): Promise<string | null> {
    const rows = await this.db.query(
      `SELECT to_char(entry_date, 'YYYY-MM-DD') AS d FROM journal_lines WHERE fund_id = $1 ORDER BY entry_date DESC LIMIT 1`,
      [fundId],
    );
    return rows[0]?.d ?? null;
  }

  /** The books' own marker of "the ledger changed": the fund's last entry number. */
  lastEntryNumber(fundId: string): Promise<number> {
    return new JournalRepository(this.db).lastEntryNumber(fundId);
  }

  /** Debit and credit totals per account for every line dated on or before `asOf`. */
  balancesAsOf(fundId: string, asOf: string): Promise<{ account_code: string; debit: string; credit: string }[]> {
    return this.db.query(
      `SELECT account_code, sum(debit)::text AS debit, sum(credit)::text AS credit
         FROM journal_lines WHERE fund_id = $1 AND entry_date <= $2::date
        GROUP BY account_code`,
      [fundId, asOf],
    );
  }

  async journalWindowTotals(fundId: string, from: string, to: string): Promise<{ line_count: number; debits: string; credits: string }> {
    const rows = await this.db.query(
      `SELECT count(*)::int AS line_count, COALESCE(sum(debit), 0)::text AS debits, COALESCE(sum(credit), 0)::text AS credits
         FROM journal_lines WHERE fund_id = $1 AND entry_date BETWEEN $2::date AND $3::date`,
      [fundId, from, to],
    );
    return rows[0];
  }

  /**
   * One keyset page of the window's lines (date, then line id), after `after` when given, with
   * the books' line view columns. Two steps so each has one obvious plan whatever the statistics:
   * the page of ids by an ordered walk of (fund_id, entry_date, id) that seeks to the position,
   * then those ids through the view.
   */
  async journalLines(fundId: string, from: string, to: string, after: LinePosition | null, limit: number): Promise<JournalLineRow[]> {
    const page = await orderedRead<{ id: string }>(
      this.db,
      `SELECT id::text FROM journal_lines
        WHERE fund_id = $1 AND entry_date BETWEEN $2::date AND $3::date
          AND ($4::date IS NULL OR (entry_date, id) > ($4::date, $5::bigint))
        ORDER BY entry_date, id
        LIMIT $6`,
      [fundId, from, to, after?.entryDate ?? null, after?.lineId ?? null, limit],
    );
    if (page.length === 0) return [];
    return this.db.query(
      `SELECT v.line_id::text, v.entry_id, v.entry_number::text, to_char(v.entry_date, 'YYYY-MM-DD') AS entry_date, v.posted_at,
              v.account_code, v.account_name, v.account_type, v.debit::text, v.credit::text, v.currency, v.description,
              v.source, v.source_ref, v.nav_run_id, v.share_class, v.status
         FROM journal_lines_view v
        WHERE v.line_id = ANY($2::bigint[]) AND v.fund_id = $1
        ORDER BY v.entry_date, v.line_id`,
      [fundId, page.map((r) => r.id)],
    );
  }

  /** Signed (debit − credit) sum of an account's lines dated before `from`. */
  async accountNetBefore(fundId: string, code: string, from: string): Promise<string> {
    const rows = await this.db.query(
      `SELECT COALESCE(sum(debit - credit), 0)::text AS net FROM journal_lines WHERE fund_id = $1 AND account_code = $2 AND entry_date < $3::date`,
      [fundId, code, from],
    );
    return rows[0].net;
  }

  async accountNetBetween(fundId: string, code: string, from: string, to: string): Promise<string> {
    const rows = await this.db.query(
      `SELECT COALESCE(sum(debit - credit), 0)::text AS net FROM journal_lines
        WHERE fund_id = $1 AND account_code = $2 AND entry_date BETWEEN $3::date AND $4::date`,
      [fundId, code, from, to],
    );
    return rows[0].net;
  }

  /** One keyset page of an account's lines in the window, on (fund_id, account_code, entry_date, id). */
  accountLines(fundId: string, code: string, from: string, to: string, after: LinePosition | null, limit: number) {
    return orderedRead<{ line_id: string; entry_id: string; entry_date: string; description: string; debit: string; credit: string }>(
      this.db,
      `SELECT l.id::text AS line_id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, l.description, l.debit::text, l.credit::text
         FROM journal_lines l
        WHERE l.fund_id = $1 AND l.account_code = $2 AND l.entry_date BETWEEN $3::date AND $4::date
          AND ($5::date IS NULL OR (l.entry_date, l.id) > ($5::date, $6::bigint))
        ORDER BY l.entry_date, l.id
        LIMIT $7`,
      [fundId, code, from, to, after?.entryDate ?? null, after?.lineId ?? null, limit],
    );
  }
}
