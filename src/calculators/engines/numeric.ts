import type Decimal from 'decimal.js';
import { Decimal as MoneyDecimal } from '../../fund/money';

/** The one decimal configuration of the code base (src/fund/money.ts), under the calculators' name. */
export const Dec = MoneyDecimal;
export type Dec = Decimal;

export const ZERO = new Dec(0);
export const ONE = new Dec(1);
export const HUNDRED = new Dec(100);

export const DISCLAIMER = 'Illustrative estimate, not accounting or tax advice.';

export function dec(value: number | string | Decimal): Decimal {
  return new Dec(value);
}

/** Money in an answer: a JSON number rounded to cents. */
export function cents(value: Decimal): number {
  return plain(Number(value.toFixed(2)));
}

/** A fraction of 1 shown in percent units, rounded to 4 decimals (0.123456 → 12.3456). */
export function pctOf(fraction: Decimal): number {
  return plain(Number(fraction.times(100).toFixed(4)));
}

/** A value already in percent units, rounded to 4 decimals. */
export function pct(value: Decimal): number {
  return plain(Number(value.toFixed(4)));
}

/** A fraction of 1 shown in basis points, rounded to 2 decimals. */
export function bpOf(fraction: Decimal): number {
  return plain(Number(fraction.times(10_000).toFixed(2)));
}

/** A plain ratio rounded to `places` decimals. */
export function ratio(value: Decimal, places = 4): number {
  return plain(Number(value.toFixed(places)));
}

/** Never answer -0 (JSON prints it as 0, but strict equality in consumers' tests would not). */
function plain(n: number): number {
  return Object.is(n, -0) ? 0 : n;
}

export { sum } from '../../fund/money';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a real calendar date `YYYY-MM-DD`, or null when it is not one. */
export function calendarDay(value: string): number | null {
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return Math.round(ms / 86_400_000);
}

/** Money for a message: `-1,234.50 USD`. */
export function usd(d: Decimal): string {
  const fixed = d.abs().toFixed(2);
  const [whole, frac] = fixed.split('.');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac} USD`;
}
