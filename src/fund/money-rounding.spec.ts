import fc from 'fast-check';
import { Decimal, allocateCents, roundToTotal, sum, ZERO } from './money';

/*
 * Frozen copies of the two largest-remainder routines as they were before they became one
 * (`allocateCents` in this module, `roundToTotal` in fund-data/common/decimals.ts): the merged
 * routine must answer exactly what they answered, sign of zero included, so no published figure moves.
 */
function allocateCentsBefore(total: Decimal, weights: Decimal[]): Decimal[] {
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

function roundToTotalBefore(parts: Decimal[], total: Decimal): Decimal[] {
  const rounded = parts.map((p) => p.toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
  let diffCents = total.minus(sum(rounded)).times(100).round().toNumber();
  if (diffCents === 0 || parts.length === 0) return rounded;
  const step = diffCents > 0 ? 0.01 : -0.01;
  const order = parts
    .map((p, i) => ({ i, rest: p.minus(rounded[i]) }))
    .sort((a, b) => (step > 0 ? b.rest.comparedTo(a.rest) : a.rest.comparedTo(b.rest)) || a.i - b.i);
  for (let k = 0; diffCents !== 0; k = (k + 1) % parts.length) {
    rounded[order[k].i] = rounded[order[k].i].plus(step);
    diffCents += diffCents > 0 ? -1 : 1;
  }
  return rounded;
}

/** What a caller sees: the exact decimal text (sign of zero included) of every part. */
const shown = (xs: Decimal[]) => xs.map((x) => `${x.isNegative() ? '-' : ''}${x.abs().toFixed()}`);

// decimals with few digits collide often, so ties, exact halves and zeros are common
const cents = fc.bigInt({ min: -100_000_000n, max: 100_000_000n }).map((c) => new Decimal(c.toString()).dividedBy(100));
const fine = fc
  .tuple(fc.bigInt({ min: -1_000_000_000_000n, max: 1_000_000_000_000n }), fc.integer({ min: 0, max: 9 }))
  .map(([m, e]) => new Decimal(m.toString()).dividedBy(new Decimal(10).pow(e)));
const small = fc.integer({ min: -40, max: 40 }).map((i) => new Decimal(i).dividedBy(8));
const value = fc.oneof(small, fine, cents);
const RUNS = 5_000;

describe('one largest-remainder routine answers exactly what the two it replaced answered', () => {
  it('allocateCents: any total in cents over any weights (zero, negative, tied, fractional)', () => {
    fc.assert(
      fc.property(cents, fc.array(fc.oneof(small, fine), { minLength: 1, maxLength: 12 }), (total, weights) => {
        expect(shown(allocateCents(total, weights))).toEqual(shown(allocateCentsBefore(total, weights)));
      }),
      { numRuns: RUNS },
    );
  });

  it('allocateCents: totals that are not whole cents and empty weights too', () => {
    fc.assert(
      fc.property(value, fc.array(value, { maxLength: 6 }), (total, weights) => {
        const before = (() => {
          try {
            return shown(allocateCentsBefore(total, weights));
          } catch (err) {
            return (err as Error).message;
          }
        })();
        const after = (() => {
          try {
            return shown(allocateCents(total, weights));
          } catch (err) {
            return (err as Error).message;
          }
        })();
        expect(after).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('roundToTotal: parts that sum to about the total (VaR components), or miss it by some cents', () => {
    // the total: the rounded sum, off by up to a few cents either way (more than there are parts: the
    // cents then go round more than once), or off by a fraction of a cent
    const nearTotal = fc.array(value, { minLength: 0, maxLength: 12 }).chain((parts) => {
      const rounded = sum(parts).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      return fc.tuple(
        fc.constant(parts),
        fc.oneof(
          fc.constant(rounded),
          fc.integer({ min: -30, max: 30 }).map((c) => rounded.plus(new Decimal(c).dividedBy(100))),
          fc.integer({ min: -999, max: 999 }).map((c) => rounded.plus(new Decimal(c).dividedBy(100_000))),
        ),
      );
    });
    fc.assert(
      fc.property(nearTotal, ([parts, total]) => {
        expect(shown(roundToTotal(parts, total))).toEqual(shown(roundToTotalBefore(parts, total)));
      }),
      { numRuns: RUNS },
    );
  });

  it('the cases where the two tie-breaks differ stay as each was', () => {
    const d = (xs: string[]) => xs.map((x) => new Decimal(x));
    // two exact halves: roundToTotal rounds both up and takes the extra cent back from the first;
    // largest remainder floors both and gives the cent to the first
    expect(shown(roundToTotal(d(['0.005', '0.005']), new Decimal('0.01')))).toEqual(['0', '0.01']);
    expect(shown(allocateCents(new Decimal('0.01'), d(['1', '1'])))).toEqual(['0.01', '0']);
  });
});
