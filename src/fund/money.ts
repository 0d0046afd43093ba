import DecimalJs from 'decimal.js';

/**
 * The one decimal configuration of the code base — the books, the read API and the calculators: 40
 * significant digits (100-year quarterly compounding stays exact far beyond cents), rounding half away
 * from zero, plain notation from 1e-40 to 1e60 (never "1e-7" in an answer). Money, units and prices are
 * these values; money in base currency is booked in cents. (The calculators' hot loops use the bigint
 * fixed point of calculators/engines/fixed.ts instead: the one fixed-point, converted at their edges.)
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 60,
});
export type Decimal = DecimalJs;
// eslint-disable-next-line @typescript-eslint/no-namespace -- type-only: keeps `Decimal.Value` working beside the configured constructor
export declare namespace Decimal {
  type Value = DecimalJs.Value;
}
export const ZERO = new Decimal(0);

/** Rounds to cents, half away from zero: the one place money is rounded at booking. */
export function toCents(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function toUnits(value: Decimal): Decimal {
  return value.toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
}

/** The sum of decimals (zero for none). */
export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}

/**
 * Splits `total` (cents) over `weights` so the parts sum to `total` exactly (largest remainder).
 * Ties on the remainder go to the earlier index, so the split is deterministic.
 * With all-zero weights the split is equal.
 */
export function allocateCents(total: Decimal, weights: Decimal[]): Decimal[] {
  const n = weights.length;
  if (n === 0) {
    if (!total.isZero()) throw new Error(`cannot allocate ${total.toFixed(2)} over nothing`);
    return [];
  }
  let sumWeights = weights.reduce((a, w) => a.plus(w), ZERO);
  const effective = sumWeights.isZero() ? weights.map(() => new Decimal(1)) : weights;
  if (sumWeights.isZero()) sumWeights = new Decimal(n);
  const totalCents = total.times(100);
  const sign = totalCents.isNegative() ? -1 : 1;
  const abs = totalCents.abs();
  const floors: Decimal[] = [];
  const remainders: { index: number; rest: Decimal }[] = [];
  let allocated = ZERO;
  for (let i = 0; i < n; i++) {
    const exact = abs.times(effective[i]).dividedBy(sumWeights);
    const floor = exact.floor();
    floors.push(floor);
    allocated = allocated.plus(floor);
    remainders.push({ index: i, rest: exact.minus(floor) });
  }
  let left = abs.minus(allocated).toNumber();
  remainders.sort((a, b) => b.rest.comparedTo(a.rest) || a.index - b.index);
  for (let k = 0; left > 0; k = (k + 1) % n, left--) floors[remainders[k].index] = floors[remainders[k].index].plus(1);
  return floors.map((c) => c.times(sign).dividedBy(100));
}
