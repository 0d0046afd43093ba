import { type IsoDate, daysBetween } from '../dates';
import { type Decimal, ZERO, toCents } from '../money';
import { type ExpenseEvent } from './engine-types';

export interface ExpenseTerms {
  ref: string;
  category: string;
  description: string;
  accrualDate: IsoDate;
  periodEnd: IsoDate;
  amount: Decimal;
  paidDate: IsoDate | null;
}

/**
 * An expense accrues evenly over the calendar days of its period, rounded cumulatively: day k of n
 * accrues round(A·k/n) − round(A·(k−1)/n), so the accruals sum to the amount exactly and none is
 * negative (with the remainder on the last day, 0.50 over 30 days accrued 0.02 a day and −0.08 on
 * the last). It is paid on its paid date.
 */
export function expenseEventForDay(expense: ExpenseTerms, date: IsoDate): ExpenseEvent | null {
  let accrual = ZERO;
  if (date >= expense.accrualDate && date <= expense.periodEnd) {
    const days = daysBetween(expense.accrualDate, expense.periodEnd) + 1;
    const k = daysBetween(expense.accrualDate, date) + 1;
    const through = (n: number) => toCents(expense.amount.times(n).dividedBy(days));
    accrual = through(k).minus(through(k - 1));
  }
  const payment = expense.paidDate === date ? expense.amount : ZERO;
  if (accrual.isZero() && payment.isZero()) return null;
  return { ref: expense.ref, category: expense.category, description: expense.description, accrual, payment };
}
