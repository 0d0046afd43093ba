import { addDays, dateRange } from '../dates';
import { Decimal, ZERO } from '../money';
import { expenseEventForDay } from './expense-accrual';

const expense = (amount: string, accrualDate: string, periodEnd: string) => ({
  ref: 'E1',
  category: 'audit',
  description: 'audit',
  accrualDate,
  periodEnd,
  amount: new Decimal(amount),
  paidDate: null,
});

describe('expense accrual', () => {
  it.each([
    ['0.50', '2024-06-01', '2024-06-30'],
    ['60000.00', '2024-12-01', '2024-12-31'],
    ['100.00', '2024-02-01', '2024-02-29'],
    ['0.01', '2024-03-10', '2024-03-31'],
  ])('%s from %s to %s: every day ≥ 0, the days sum to the amount exactly', (amount, from, to) => {
    const days = dateRange(from, to).map((d) => expenseEventForDay(expense(amount, from, to), d)?.accrual ?? ZERO);
    expect(days.every((a) => a.gte(0))).toBe(true);
    expect(days.reduce((a, b) => a.plus(b), ZERO).toFixed(2)).toBe(amount);
    expect(expenseEventForDay(expense(amount, from, to), addDays(to, 1))).toBeNull();
  });
});
