import { type Decimal, ZERO } from '../money';

export type EntrySource =
  | 'trade'
  | 'transfer'
  | 'mark_to_market'
  | 'management_fee'
  | 'management_fee_payment'
  | 'performance_fee'
  | 'performance_fee_payment'
  | 'expense_accrual'
  | 'expense_payment'
  | 'subscription'
  | 'redemption'
  | 'redemption_payment'
  | 'manual'
  | 'reversal';

export interface JournalLineDraft {
  accountCode: string;
  debit: Decimal;
  credit: Decimal;
  description: string;
  shareClassId: string | null;
}

/** An entry before it is numbered and posted. Amounts are already in cents. */
export interface JournalEntryDraft {
  entryDate: string;
  description: string;
  source: EntrySource;
  sourceRef: string | null;
  lines: JournalLineDraft[];
}

export class UnbalancedEntryError extends Error {}

/** Collects signed amounts (debit positive) per line and refuses to build an unbalanced entry. */
export class EntryBuilder {
  private readonly lines: JournalLineDraft[] = [];

  constructor(
    private readonly entryDate: string,
    private readonly source: EntrySource,
    private readonly sourceRef: string | null,
    private readonly description: string,
  ) {}

  /** Positive = debit, negative = credit; zero lines are not booked. */
  post(
    accountCode: string,
    signedAmount: Decimal,
    description = this.description,
    shareClassId: string | null = null,
  ): this {
    if (signedAmount.isZero()) return this;
    if (signedAmount.decimalPlaces() > 2)
      throw new UnbalancedEntryError(`amount ${signedAmount.toString()} on ${accountCode} is not in cents`);
    this.lines.push({
      accountCode,
      debit: signedAmount.isPositive() ? signedAmount : ZERO,
      credit: signedAmount.isNegative() ? signedAmount.negated() : ZERO,
      description,
      shareClassId,
    });
    return this;
  }

  build(): JournalEntryDraft | null {
    if (this.lines.length === 0) return null;
    let debit = ZERO;
    let credit = ZERO;
    for (const l of this.lines) {
      debit = debit.plus(l.debit);
      credit = credit.plus(l.credit);
    }
    if (!debit.equals(credit)) {
      throw new UnbalancedEntryError(
        `${this.source} ${this.sourceRef ?? ''} on ${this.entryDate}: debits ${debit.toString()} ≠ credits ${credit.toString()}`,
      );
    }
    return {
      entryDate: this.entryDate,
      description: this.description,
      source: this.source,
      sourceRef: this.sourceRef,
      lines: this.lines,
    };
  }
}
