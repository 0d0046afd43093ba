import { Decimal, allocateCents } from './money';

describe('allocateCents (largest remainder, deterministic ties)', () => {
  const parts = (total: string, weights: string[]) =>
    allocateCents(
      new Decimal(total),
      weights.map((w) => new Decimal(w)),
    ).map((p) => p.toFixed(2));
  it.each([
    ['100.00', ['1', '1', '1'], ['33.34', '33.33', '33.33']],
    ['-100.00', ['1', '1', '1'], ['-33.34', '-33.33', '-33.33']],
    ['0.05', ['3', '1'], ['0.04', '0.01']],
    ['10.00', ['0', '0'], ['5.00', '5.00']],
    ['1234.57', ['700', '300', '0'], ['864.20', '370.37', '0.00']],
  ])('%s over %j', (total, weights, expected) => {
    expect(parts(total, weights)).toEqual(expected);
  });
  it('always sums to the total exactly', () => {
    const weights = Array.from({ length: 37 }, (_, i) => new Decimal(((i * 7919) % 101) + 1));
    const split = allocateCents(new Decimal('98765.43'), weights);
    expect(split.reduce((a, b) => a.plus(b), new Decimal(0)).toFixed(2)).toBe('98765.43');
  });
});
