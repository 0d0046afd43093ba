import type Decimal from 'decimal.js';
import { Dec } from './numeric';

/**
 * Exact fixed-point amounts: a bigint counting units of 1e-10 USD. Aggregates of CSV uploads
 * end up here (see amount.ts); as exact as decimal.js and much cheaper per operation.
 */
export type Fixed = bigint;
export const FIXED_PLACES = 10;
const UNIT = 10n ** BigInt(FIXED_PLACES);

export function fixedToDec(v: Fixed): Decimal {
  return new Dec(`${v}e-${FIXED_PLACES}`);
}

/** n / d rounded half away from zero (d > 0). */
export function divRound(n: bigint, d: bigint): bigint {
  // for an even d (every power of ten we divide by) (|n| + d/2) / d rounds half up in one division
  const half = (d & 1n) === 0n ? d >> 1n : null;
  if (n >= 0n) return half !== null ? (n + half) / d : (2n * n + d) / (2n * d);
  return half !== null ? -((half - n) / d) : -((d - 2n * n) / (2n * d));
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

/** A JSON number (already validated finite) as exact fixed-point, rounded at the 10th decimal. */
export function numberToFixed(n: number): Fixed {
  return BigInt(new Dec(n).times(UNIT.toString()).toFixed(0));
}
