import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ProblemError } from '../common/errors/problem';

export interface PostingLine {
  accountCode: string;
  debit: Decimal;
  credit: Decimal;
  description: string;
}

export interface Posting {
  entryDate: string;
  description: string;
  source: 'manual';
  sourceRef: string;
  lines: PostingLine[];
}

/**
 * Posts one balanced journal entry inside the caller's transaction. Entry numbers are per fund
 * and gapless: a transaction-scoped advisory lock on the fund serializes numbering.
 * (The books module's own poster did not exist when this was written; see the report.)
 */
export async function postJournalEntry(m: EntityManager, fundId: string, posting: Posting): Promise<{ id: string; entryNumber: number }> {
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  for (const l of posting.lines) {
    debit = debit.plus(l.debit);
    credit = credit.plus(l.credit);
  }
  if (!debit.equals(credit) || debit.isZero()) {
    throw new ProblemError('unbalanced_entry', `debits ${debit.toFixed(2)} ≠ credits ${credit.toFixed(2)}`);
  }
  await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('journal:' || $1::text, 0))`, [fundId]);
  const [{ currency, next }] = await m.query(
    `SELECT f.base_currency AS currency, COALESCE((SELECT max(entry_number) FROM journal_entries WHERE fund_id = f.id), 0) + 1 AS next
       FROM funds f WHERE f.id = $1`,
    [fundId],
  );
  const id = randomUUID();
  await m.query(
    `INSERT INTO journal_entries (id, fund_id, entry_number, entry_date, posted_at, description, source, source_ref, status)
     VALUES ($1, $2, $3, $4, now(), $5, $6, $7, 'posted')`,
    [id, fundId, next, posting.entryDate, posting.description, posting.source, posting.sourceRef],
  );
  const values: unknown[] = [];
  const tuples = posting.lines.map((l, i) => {
    values.push(fundId, id, i + 1, posting.entryDate, l.accountCode, l.debit.toFixed(2), l.credit.toFixed(2), currency, l.description);
    const b = i * 9;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}, $${b + 9})`;
  });
  await m.query(
    `INSERT INTO journal_lines (fund_id, entry_id, line_no, entry_date, account_code, debit, credit, currency, description) VALUES ${tuples.join(', ')}`,
    values,
  );
  return { id, entryNumber: Number(next) };
}
