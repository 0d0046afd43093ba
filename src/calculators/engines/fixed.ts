import type Decimal from 'decimal.js';
import { Dec } from './numeric';

/**
 * Exact fixed-point amounts for row-heavy inputs (CSV uploads): a bigint counting units of
 * 1e-10. Summing 5 000 rows this way is exact like decimal.js and about ten times faster,
 * which keeps a 5 000-row exposure analysis within a few milliseconds.
 */
export type Fixed = bigint;
export const FIXED_PLACES = 10;
const UNIT = 10n ** BigInt(FIXED_PLACES);

export function fixedToDec(v: Fixed): Decimal {
  return new Dec(`${v}e-${FIXED_PLACES}`);
}

export function fixedAbs(v: Fixed): Fixed {
  return v < 0n ? -v : v;
}

/** n / d rounded half away from zero (d > 0). */
function divRound(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (2n * a + d) / (2n * d);
  return neg ? -q : q;
}

/** Money in an answer: a JSON number rounded to cents (half away from zero). */
export function fixedCents(v: Fixed): number {
  const c = divRound(v, UNIT / 100n);
  return Number(c) / 100 || 0;
}

/** num / den in percent, rounded to 4 decimals; null when den ≤ 0. */
export function fixedPct(num: Fixed, den: Fixed): number | null {
  if (den <= 0n) return null;
  return Number(divRound(num * 1_000_000n, den)) / 10_000 || 0;
}

const AMOUNT = /^(?:(\d{1,3}(?:,\d{3})+)|(\d+))?(?:\.(\d+))?$/;

/**
 * Parses an amount as people type it: `1234.5`, `-1,234.50`, `$1,234`, `(1,234.50)` (negative),
 * `+12`, `.5`. Read to 10 decimal places (rounded half away from zero beyond that).
 * Anything else (words, exponents, two signs, misplaced commas) is null.
 */
export function parseFixed(raw: string): Fixed | null {
  let s = raw.trim();
  let negative = false;
  if (s.length >= 2 && s.charCodeAt(0) === 40 && s.charCodeAt(s.length - 1) === 41) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  const first = s.charAt(0);
  if (first === '-' || first === '+') {
    if (negative) return null;
    negative = first === '-';
    s = s.slice(1).trimStart();
  }
  if (s.charAt(0) === '$') s = s.slice(1).trimStart();
  const m = AMOUNT.exec(s);
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return null;
  const whole = m[1] !== undefined ? m[1].replace(/,/g, '') : (m[2] ?? '0');
  let frac = m[3] ?? '';
  let roundUp = false;
  if (frac.length > FIXED_PLACES) {
    roundUp = frac.charCodeAt(FIXED_PLACES) >= 53; // '5'
    frac = frac.slice(0, FIXED_PLACES);
  } else if (frac.length < FIXED_PLACES) {
    frac = frac.padEnd(FIXED_PLACES, '0');
  }
  let v = BigInt(whole + frac);
  if (roundUp) v += 1n;
  return negative ? -v : v;
}
