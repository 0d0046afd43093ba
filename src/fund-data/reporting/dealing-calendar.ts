import { addDays } from '../../common/validation/calendar-date';

const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10); // m is 1-based

/**
 * The next dealing date on or after `today`: daily → today; weekly → the coming Friday;
 * monthly → the last calendar day of the month; quarterly → the last day of the quarter.
 */
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
