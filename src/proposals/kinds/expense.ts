import Decimal from 'decimal.js';
import { unprocessable } from '../../common/errors/problem';
import type { ExpenseProposalDto } from '../dto/propose.dto';
import { type ProposalKindRules, badShape, bookDated, checkBookingDate, withinHorizon } from './kind';

export interface ExpensePayload {
  category: string;
  vendor: string;
  amount: string;
  accrualDate: string;
  periodEnd: string;
  description: string;
}

export const EXPENSE_ACCOUNT: Record<string, string> = {
  administration: '5300',
  audit: '5400',
  legal: '5500',
  other: '5600',
};
export const ACCRUED_EXPENSES = '2100';

export const expense: ProposalKindRules<ExpenseProposalDto, ExpensePayload> = {
  booksIntoNav: true,
  validate(b) {
    const periodEnd = b.periodEnd ?? b.accrualDate;
    if (new Decimal(b.amount).isZero()) throw badShape([{ field: 'amount', message: 'must be positive' }]);
    if (periodEnd < b.accrualDate) throw badShape([{ field: 'periodEnd', message: 'must not be before accrualDate' }]);
    const amount = new Decimal(b.amount).toFixed(2);
    return {
      category: b.category,
      vendor: b.vendor,
      amount,
      accrualDate: b.accrualDate,
      periodEnd,
      description: b.description,
    };
  },

  async check(books, fundId, p) {
    await checkBookingDate(books, fundId, p.accrualDate, 'accrualDate');
    withinHorizon(p.periodEnd, 'periodEnd');
    const unknown = await books.unknownAccounts(fundId, [EXPENSE_ACCOUNT[p.category], ACCRUED_EXPENSES]);
    if (unknown.length) {
      throw unprocessable(
        `unknown account: the fund's chart of accounts lacks ${unknown.join(', ')}, needed to book a ${p.category} expense`,
        [{ field: 'category', message: `unknown account ${unknown.join(', ')}` }],
      );
    }
    return p;
  },

  async execute(books, fundId, ref, p) {
    // No posting here: the books accrue every expense row day by day in their NAV runs
    // (expense_accrual entries, src/fund/nav/expense-accrual.ts); a second posting would count it twice.
    const id = await bookDated(books, fundId, p.accrualDate, () => books.insertExpense(fundId, ref, p));
    return { executionRef: `expense:${id}` };
  },
};
