import { addDays, daysBetween } from '../../common/validation/calendar-date';

/**
 * The fund's dealing calendar, one rule for the read API (next dealing date) and the proposals
 * (is this a dealing date?): daily — every calendar day; weekly — Fridays; monthly — the last
 * calendar day of the month; quarterly — the last calendar day of March, June, September, December.
 */
export type DealingFrequency = 'daily' | 'weekly' | 'monthly' | 'quarterly';

const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10); // m is 1-based

/** The first dealing date on or after `today`. */
export function nextDealingDate(frequency: string, today: string): string {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  switch (frequency) {
    case 'daily':
      return today;
    case 'weekly': {
      const dow = new Date(`${today}T00:00:00Z`).getUTCDay(); // 5 = Friday
      return addDays(today, (5 - dow + 7) % 7);
    }
    case 'quarterly':
      return lastDayOfMonth(y, Math.ceil(m / 3) * 3);
    case 'monthly':
    default:
      return lastDayOfMonth(y, m);
  }
}

export function isDealingDate(date: string, frequency: DealingFrequency): boolean {
  return nextDealingDate(frequency, date) === date;
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
