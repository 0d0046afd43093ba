import { addDays, daysBetween } from '../common/validation/calendar-date';

export type DealingFrequency = 'daily' | 'weekly' | 'monthly' | 'quarterly';

/**
 * The dealing calendar the proposals check against (until the books expose their own):
 * daily — every calendar day; weekly — Fridays; monthly — the last calendar day of a month;
 * quarterly — the last day of March, June, September and December.
 */
export function isDealingDate(date: string, frequency: DealingFrequency): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  const monthEnd = addDays(date, 1).slice(8, 10) === '01';
  switch (frequency) {
    case 'daily':
      return true;
    case 'weekly':
      return d.getUTCDay() === 5;
    case 'monthly':
      return monthEnd;
    case 'quarterly':
      return monthEnd && [3, 6, 9, 12].includes(d.getUTCMonth() + 1);
  }
}

export function describeCalendar(frequency: DealingFrequency): string {
  return {
    daily: 'every calendar day',
    weekly: 'Fridays',
    monthly: 'the last calendar day of each month',
    quarterly: 'the last calendar day of each quarter',
  }[frequency];
}

/** Whole days of notice between `today` and the dealing date. */
export function noticeDays(today: string, dealingDate: string): number {
  return daysBetween(today, dealingDate);
}
