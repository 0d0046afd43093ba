/** Calendar dates are ISO `YYYY-MM-DD` strings in UTC; the fund values every calendar day. */
export type IsoDate = string;
export type CrystallizationFrequency = 'monthly' | 'quarterly' | 'semiannual' | 'annual';

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(value + 'T00:00:00Z');
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(date + 'T00:00:00Z') + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(to + 'T00:00:00Z') - Date.parse(from + 'T00:00:00Z')) / DAY_MS);
}

export function endOfMonth(date: IsoDate): IsoDate {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export function isMonthEnd(date: IsoDate): boolean {
  return endOfMonth(date) === date;
}

const PERIOD_END_MONTHS: Record<CrystallizationFrequency, number[]> = {
  monthly: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  quarterly: [3, 6, 9, 12],
  semiannual: [6, 12],
  annual: [12],
};

/** True on the last calendar day of a crystallization period of the given frequency. */
export function isPeriodEnd(date: IsoDate, frequency: CrystallizationFrequency): boolean {
  return isMonthEnd(date) && PERIOD_END_MONTHS[frequency].includes(Number(date.slice(5, 7)));
}

export function dateRange(from: IsoDate, to: IsoDate): IsoDate[] {
  const out: IsoDate[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
