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
 * The one largest-remainder step: `rounded` are the `exact` parts already rounded to cents, and
 * `missingCents` is how many cents they fall short of the total (negative: how many too many). The
 * cents are moved one at a time to the parts whose rounding moved them furthest the other way (the
 * largest `exact − rounded` when cents are missing, the smallest when there are too many); ties go to
 * the earlier index, so the answer is deterministic. How each caller rounds first is its tie-break:
 * `allocateCents` floors (an exact half cent waits for a leftover cent, earliest index first),
 * `roundToTotal` rounds half away from zero (an exact half is already up; a cent too many is taken
 * back from the earliest). The two orders differ on ties, so each keeps its own first rounding.
 */
function settleCents(exact: Decimal[], rounded: Decimal[], missingCents: number): Decimal[] {
  const n = exact.length;
  if (missingCents === 0 || n === 0) return rounded;
  const up = missingCents > 0;
  const order = exact
    .map((p, i) => ({ i, rest: p.minus(rounded[i]) }))
    .sort((a, b) => (up ? b.rest.comparedTo(a.rest) : a.rest.comparedTo(b.rest)) || a.i - b.i);
  const step = up ? 0.01 : -0.01;
  for (let k = 0, left = Math.abs(missingCents); left > 0; k = (k + 1) % n, left--)
    rounded[order[k].i] = rounded[order[k].i].plus(step);
  return rounded;
}

/**
 * Splits `total` (cents) over `weights` so the parts sum to `total` exactly (largest remainder over
 * the floors of the exact shares; ties on the remainder go to the earlier index, so the split is
 * deterministic). A negative total is split as its absolute value, then negated.
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
  const negative = total.isNegative();
  const abs = total.abs();
  const exact = effective.map((w) => abs.times(w).dividedBy(sumWeights));
  const floors = exact.map((e) => e.toDecimalPlaces(2, Decimal.ROUND_FLOOR));
  // a total that is not whole cents still gets whole cents: the fraction left over counts as one more
  const missing = Math.ceil(abs.minus(sum(floors)).times(100).toNumber());
  const split = settleCents(exact, floors, Math.max(missing, 0));
  return negative ? split.map((c) => c.negated()) : split;
}

/**
 * Rounds each part to cents (half away from zero) so that the parts sum exactly to `total` (already
 * in cents): parts that already sum to about the total, such as the Euler components of a VaR.
 */
export function roundToTotal(parts: Decimal[], total: Decimal): Decimal[] {
  const rounded = parts.map(toCents);
  return settleCents(parts, rounded, total.minus(sum(rounded)).times(100).round().toNumber());
}
