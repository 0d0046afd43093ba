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
 * An expense accrues evenly over the calendar days of its period (the last day takes the
 * rounding remainder, so the accruals sum to the amount exactly) and is paid on its paid date.
 */
export function expenseEventForDay(expense: ExpenseTerms, date: IsoDate): ExpenseEvent | null {
  let accrual = ZERO;
  if (date >= expense.accrualDate && date <= expense.periodEnd) {
    const days = daysBetween(expense.accrualDate, expense.periodEnd) + 1;
    const daily = toCents(expense.amount.dividedBy(days));
    accrual = date === expense.periodEnd ? expense.amount.minus(daily.times(days - 1)) : daily;
  }
  const payment = expense.paidDate === date ? expense.amount : ZERO;
  if (accrual.isZero() && payment.isZero()) return null;
  return { ref: expense.ref, category: expense.category, description: expense.description, accrual, payment };
}
