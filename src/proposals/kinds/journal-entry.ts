import Decimal from 'decimal.js';
import { type FieldError, ProblemError, unprocessable } from '../../common/errors/problem';
import { ENGINE_CONTROLLED_ACCOUNTS } from '../../fund/ledger/chart-of-accounts';
import { EntryBuilder, UnbalancedEntryError } from '../../fund/ledger/journal-entry';
import type { JournalEntryProposalDto } from '../dto/propose.dto';
import { type ProposalKindRules, badShape, bookDated, checkBookingDate } from './kind';

export interface JournalPayload {
  entryDate: string;
  description: string;
  lines: { accountCode: string; debit: string; credit: string; description: string | null }[];
}

export const journalEntry: ProposalKindRules<JournalEntryProposalDto, JournalPayload> = {
  booksIntoNav: true,
  validate(b) {
    const errors: FieldError[] = [];
    const lines = b.lines.map((l, i) => {
      const debit = l.debit !== undefined ? new Decimal(l.debit) : new Decimal(0);
      const credit = l.credit !== undefined ? new Decimal(l.credit) : new Decimal(0);
      if (debit.isZero() === credit.isZero())
        errors.push({ field: `lines.${i}`, message: 'must have exactly one of debit and credit, positive' });
      return {
        accountCode: l.accountCode,
        debit: debit.toFixed(2),
        credit: credit.toFixed(2),
        description: l.description ?? null,
      };
    });
    if (errors.length) throw badShape(errors);
    return { entryDate: b.entryDate, description: b.description, lines };
  },

  async check(books, fundId, p) {
    await checkBookingDate(books, fundId, p.entryDate, 'entryDate');
    const debit = p.lines.reduce((a, l) => a.plus(l.debit), new Decimal(0));
    const credit = p.lines.reduce((a, l) => a.plus(l.credit), new Decimal(0));
    if (!debit.equals(credit)) {
      throw new ProblemError(
        'unbalanced_entry',
        `unbalanced entry: debits ${debit.toFixed(2)} ≠ credits ${credit.toFixed(2)}`,
        [{ field: 'lines', message: `debits ${debit.toFixed(2)} must equal credits ${credit.toFixed(2)}` }],
      );
    }
    const unknown = await books.unknownAccounts(
      fundId,
      p.lines.map((l) => l.accountCode),
    );
    if (unknown.length) {
      throw unprocessable(
        `unknown account: ${unknown.join(', ')} is not in the fund's chart of accounts`,
        p.lines.flatMap((l, i) =>
          unknown.includes(l.accountCode)
            ? [{ field: `lines.${i}.accountCode`, message: `unknown account ${l.accountCode}` }]
            : [],
        ),
      );
    }
    refuseControlAccounts(p);
    return p;
  },

  async execute(books, fundId, ref, p) {
    const builder = new EntryBuilder(p.entryDate, 'manual', ref, p.description);
    for (const l of p.lines)
      builder.post(l.accountCode, new Decimal(l.debit).minus(l.credit), l.description ?? p.description);
    let draft;
    try {
      draft = builder.build();
    } catch (err) {
      if (err instanceof UnbalancedEntryError) throw new ProblemError('unbalanced_entry', err.message);
      throw err;
    }
    if (!draft) throw new ProblemError('unbalanced_entry', 'the entry has no non-zero line');
    const posted = draft;
    const entry = await bookDated(books, fundId, p.entryDate, () => books.postJournalEntry(fundId, posted));
    return { executionRef: `journal-entry:${entry.id}` };
  },
};

/** Manual entries stay off the control accounts the NAV engine keeps (422 naming each such line). */
function refuseControlAccounts(p: JournalPayload): void {
  const errors = p.lines.flatMap((l, i) => {
    const keptBy = ENGINE_CONTROLLED_ACCOUNTS.get(l.accountCode);
    return keptBy
      ? [{ field: `lines.${i}.accountCode`, message: `account ${l.accountCode} is kept by ${keptBy}` }]
      : [];
  });
  if (errors.length)
    throw unprocessable(
      `a manual entry may not post to a control account the NAV engine keeps: ${errors.map((e) => e.message).join('; ')}`,
      errors,
    );
}
