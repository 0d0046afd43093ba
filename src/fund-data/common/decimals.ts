import { Decimal, sum as moneySum } from '../../fund/money';

/**
 * Decimal strings as the API writes them. Money in base currency: exactly 2 decimals; prices and
 * quantities: up to 10 (trailing zeros dropped); units: 8; NAV per unit: 6; ratios: 8.
 * Inputs are PostgreSQL numeric text or decimal.js values, never JS numbers.
 */
/** The one decimal configuration (src/fund/money.ts). */
export const D = Decimal;
export type Dec = InstanceType<typeof D>;
export const ZERO = new D(0);

type In = string | Dec;
const d = (v: In): Dec => (v instanceof D ? v : new D(v.toString()));

export const money = (v: In): string => d(v).toFixed(2, Decimal.ROUND_HALF_UP);
export const units = (v: In): string => d(v).toFixed(8, Decimal.ROUND_HALF_UP);
export const navPerUnit = (v: In): string => d(v).toFixed(6, Decimal.ROUND_HALF_UP);
export const ratio = (v: In): string => d(v).toFixed(8, Decimal.ROUND_HALF_UP);
/** Prices and quantities: up to 10 decimals, no trailing zeros ("0.5", "42"). */
export const qty = (v: In): string => {
  const s = d(v).toFixed(10, Decimal.ROUND_HALF_UP);
  const t = s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
  return t === '-0' ? '0' : t;
};

/** Money that may carry more than cents (a per-share fee of 0.0040 USD): at least 2 decimals, never rounded (up to 10). */
export const moneyExact = (v: In): string => {
  const q = qty(v);
  const dot = q.indexOf('.');
  return dot === -1 ? `${q}.00` : q.length - dot - 1 < 2 ? `${q}0` : q;
};

/** A value per unit precise enough that units × it rounds back to the money it came from (12 decimals). */
export const valuePerUnit = (v: In): string => d(v).toFixed(12, Decimal.ROUND_HALF_UP);
export const moneyOrNull = (v: In | null | undefined): string | null =>
  v === null || v === undefined ? null : money(v);
export const navPerUnitOrNull = (v: In | null | undefined): string | null =>
  v === null || v === undefined ? null : navPerUnit(v);
export const ratioOrNull = (v: In | null | undefined): string | null =>
  v === null || v === undefined ? null : ratio(v);

/** The one sum (src/fund/money.ts), over numeric text too. */
export const sum = (values: In[]): Dec => moneySum(values.map(d));
/** a / b, or zero when b is zero (a weight of nothing). */
export const safeDiv = (a: In, b: In): Dec => (d(b).isZero() ? ZERO : d(a).dividedBy(d(b)));

/** The one largest-remainder rounding to a total (src/fund/money.ts), for parts such as VaR components. */
export { roundToTotal } from '../../fund/money';
