import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { fundScopedId } from '../ids';
import { type Decimal } from '../money';
import { type JournalEntryDraft } from './journal-entry';
import { SqlRepository } from '../../database/sql-repository';

const LINE_BATCH = 20_000;
const m = (d: Decimal) => d.toFixed(2);

export interface NumberedEntry {
  draft: JournalEntryDraft;
  number: number;
  /** The NAV run that booked it; null for a manual entry. */
  runId: string | null;
  postedAt: Date;
}

/**
 * The one writer of journal entries (NAV runs and approved manual entries). Entry numbers are per
 * fund and gapless: every writer takes the fund's row lock (`lockBooks`) before numbering, inside
 * its transaction, so two writers can never take the same number.
 */
@Injectable()
export class JournalRepository extends SqlRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  async lockBooks(fundId: string): Promise<void> {
    await this.q.query(`SELECT id FROM funds WHERE id = $1 FOR UPDATE`, [fundId]);
  }

  /**
   * Marks the books as rewritten: every writer (NAV run batches, manual entries, purge) bumps the
   * fund's generation in its own transaction, and cached answers are keyed by it.
   */
  async bumpGeneration(fundId: string): Promise<void> {
    await this.q.query(`UPDATE funds SET books_generation = books_generation + 1 WHERE id = $1`, [fundId]);
  }

  /** The fund's books generation (0 for a fund never written; null for no such fund). */
  async generation(fundId: string): Promise<string | null> {
    const [row] = await this.q.query(`SELECT books_generation::text AS g FROM funds WHERE id = $1`, [fundId]);
    return row?.g ?? null;
  }

  /**
   * The fund's highest entry number (0 before any entry): one probe of the (fund_id, entry_number)
   * index. The ledger is append-only, so any new line, even one dated in the past, changes it.
   */
  async lastEntryNumber(fundId: string): Promise<number> {
    const [row] = await this.q.query(
      `SELECT coalesce(max(entry_number), 0)::bigint AS n FROM journal_entries WHERE fund_id = $1`,
      [fundId],
    );
    return Number(row.n);
  }

  async nextEntryNumber(fundId: string): Promise<number> {
    return (await this.lastEntryNumber(fundId)) + 1;
  }

  async insertEntries(fundId: string, entries: NumberedEntry[], currency: string): Promise<void> {
    for (let i = 0; i < entries.length; i += LINE_BATCH / 4) {
      const chunk = entries.slice(i, i + LINE_BATCH / 4);
      const ids = chunk.map((e) => fundScopedId(fundId, 'journal-entry', String(e.number)));
      await this.q.query(
        `INSERT INTO journal_entries (fund_id, id, entry_number, entry_date, posted_at, description, source, source_ref, nav_run_id, status)
         SELECT $1, *, 'posted' FROM unnest($2::uuid[], $3::bigint[], $4::date[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::uuid[])`,
        [
          fundId,
          ids,
          chunk.map((e) => e.number),
          chunk.map((e) => e.draft.entryDate),
          chunk.map((e) => e.postedAt.toISOString()),
          chunk.map((e) => e.draft.description),
          chunk.map((e) => e.draft.source),
          chunk.map((e) => e.draft.sourceRef),
          chunk.map((e) => e.runId),
        ],
      );
      const lines: (string | number | null)[][] = [[], [], [], [], [], [], [], []];
      chunk.forEach((e, k) =>
        e.draft.lines.forEach((l, n) => {
          lines[0].push(ids[k]);
          lines[1].push(n + 1);
          lines[2].push(e.draft.entryDate);
          lines[3].push(l.accountCode);
          lines[4].push(m(l.debit));
          lines[5].push(m(l.credit));
          lines[6].push(l.description);
          lines[7].push(l.shareClassId);
        }),
      );
      await this.q.query(
        `INSERT INTO journal_lines (fund_id, currency, entry_id, line_no, entry_date, account_code, debit, credit, description, share_class_id)
         SELECT $1, $2, * FROM unnest($3::uuid[], $4::smallint[], $5::date[], $6::text[], $7::numeric[], $8::numeric[], $9::text[], $10::uuid[])`,
        [fundId, currency, ...lines],
      );
    }
  }

  /** Posts one entry (lock, number, insert) inside the caller's transaction. */
  async postEntry(
    fundId: string,
    draft: JournalEntryDraft,
    postedAt = new Date(),
  ): Promise<{ id: string; entryNumber: number }> {
    await this.lockBooks(fundId);
    const number = await this.nextEntryNumber(fundId);
    const [{ currency }] = await this.q.query(`SELECT base_currency AS currency FROM funds WHERE id = $1`, [fundId]);
    await this.insertEntries(fundId, [{ draft, number, runId: null, postedAt }], currency);
    await this.bumpGeneration(fundId);
    return { id: fundScopedId(fundId, 'journal-entry', String(number)), entryNumber: number };
  }
}
