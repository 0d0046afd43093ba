import { ProblemError } from '../../common/errors/problem';
import {
  FEE_CALCULATOR_DEFAULTS,
  feeCalculator,
  type FeeCalculatorInput,
  feePeriodCount,
  feeSchedule,
} from './fee-calculator.engine';
import fc from 'fast-check';
import Decimal from 'decimal.js';

const base: FeeCalculatorInput = {
  startingNavUsd: 100,
  annualGrossReturnPct: 12,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hurdlePct: null,
  hasHwm: true,
  crystallization: 'annual',
  horizonYears: 1,
};
const str = (xs: { toString(): string }[]) => xs.map((x) => x.toString());

describe('fee-calculator engine', () => {
  it('reproduces the fund-domain check vector (2/20, 4 % hurdle, HWM, annual, 3 years)', () => {
    const input = { ...base, hurdlePct: 4, horizonYears: 3 };
    const rows = feeSchedule(input);
    expect(str(rows.map((r) => r.mgmtFee))).toEqual(['2', '2.176', '2.367488']);
    expect(str(rows.map((r) => r.perfFee))).toEqual(['1.2', '1.3056', '1.4204928']);
    expect(str(rows.map((r) => r.threshold))).toEqual(['104', '113.152', '123.109376']);
    expect(rows[2].closingNav.toString()).toBe('128.7913472');
    const answer = feeCalculator(input);
    expect(answer.totals.endingNavUsd).toBe(128.79);
    expect(answer.periods.map((p) => p.mgmtFeeUsd)).toEqual([2, 2.18, 2.37]);
    expect(answer.periods.map((p) => p.perfFeeUsd)).toEqual([1.2, 1.31, 1.42]);
    expect(answer.periods.map((p) => p.highWaterMark)).toEqual([108.8, 118.37, 128.79]);
    // totals come from exact values: 6.543488 and 3.9260928
    expect(answer.totals).toMatchObject({
      totalMgmtFeesUsd: 6.54,
      totalPerfFeesUsd: 3.93,
      totalFeesUsd: 10.47,
      grossEndingNavUsd: 140.49,
    });
  });

  it('the same vector scaled to 1 000 000 is exact in cents', () => {
    const a = feeCalculator({ ...base, startingNavUsd: 1_000_000, hurdlePct: 4, horizonYears: 3 });
    expect(a.periods.map((p) => p.mgmtFeeUsd)).toEqual([20_000, 21_760, 23_674.88]);
    expect(a.periods.map((p) => p.perfFeeUsd)).toEqual([12_000, 13_056, 14_204.93]);
    expect(a.totals.endingNavUsd).toBe(1_287_913.47);
  });

  // Independent hand computations (gross, management fee, threshold, performance fee, close).
  const cases: {
    name: string;
    input: Partial<FeeCalculatorInput>;
    path?: number[];
    mgmt: string[];
    perf: string[];
    close: string[];
    hwm?: (string | null)[];
  }[] = [
    {
      name: 'no hurdle: 110 gross, fee 2, 20 % of 108 − 100',
      input: { annualGrossReturnPct: 10 },
      mgmt: ['2'],
      perf: ['1.6'],
      close: ['106.4'],
      hwm: ['106.4'],
    },
    {
      name: 'hurdle not met: 104 after fees is below 100 × 1.05',
      input: { annualGrossReturnPct: 5, mgmtFeePct: 1, hurdlePct: 5 },
      mgmt: ['1'],
      perf: ['0'],
      close: ['104'],
      hwm: ['100'],
    },
    {
      name: 'hurdle partly met: 20 % of 110 − 106',
      input: { hurdlePct: 6 },
      mgmt: ['2'],
      perf: ['0.8'],
      close: ['109.2'],
    },
    {
      name: 'losses then recovery with HWM: no fee until 100 is regained, then 20 % of 5.6',
      input: { mgmtFeePct: 0, horizonYears: 3 },
      path: [-20, 10, 20],
      mgmt: ['0', '0', '0'],
      perf: ['0', '0', '1.12'],
      close: ['80', '88', '104.48'],
      hwm: ['100', '100', '104.48'],
    },
    {
      name: 'losses then recovery without HWM: the recovery is charged from each opening NAV',
      input: { mgmtFeePct: 0, horizonYears: 3, hasHwm: false },
      path: [-20, 10, 20],
      mgmt: ['0', '0', '0'],
      perf: ['0', '1.6', '3.456'],
      close: ['80', '86.4', '100.224'],
      hwm: [null, null, null],
    },
    {
      name: 'losses then recovery with HWM and a 5 % hurdle compounding since the HWM was set (3 years)',
      input: { mgmtFeePct: 0, horizonYears: 3, hurdlePct: 5 },
      path: [-20, 10, 40],
      mgmt: ['0', '0', '0'],
      perf: ['0', '0', '1.4875'],
      close: ['80', '88', '121.7125'],
    },
    {
      name: 'without HWM the 4 % hurdle runs one period from each opening NAV: 20 % of 103.84 − 88 × 1.04',
      input: { hasHwm: false, hurdlePct: 4, horizonYears: 2 },
      path: [-10, 20],
      mgmt: ['2', '1.76'],
      perf: ['0', '2.464'],
      close: ['88', '101.376'],
    },
    {
      name: 'with HWM the same path stays below 100 × 1.04² and pays no performance fee',
      input: { hurdlePct: 4, horizonYears: 2 },
      path: [-10, 20],
      mgmt: ['2', '1.76'],
      perf: ['0', '0'],
      close: ['88', '103.84'],
      hwm: ['100', '100'],
    },
    {
      name: 'zero fees: NAV compounds at the gross return',
      input: { mgmtFeePct: 0, perfFeePct: 0, horizonYears: 2 },
      mgmt: ['0', '0'],
      perf: ['0', '0'],
      close: ['112', '125.44'],
    },
    {
      name: 'a total loss: the management fee is capped at the gross NAV',
      input: { annualGrossReturnPct: -100 },
      mgmt: ['0'],
      perf: ['0'],
      close: ['0'],
    },
  ];
  it.each(cases)('$name', ({ input, path, mgmt, perf, close, hwm }) => {
    const rows = feeSchedule({ ...base, ...input }, path);
    expect(str(rows.map((r) => r.mgmtFee))).toEqual(mgmt);
    expect(str(rows.map((r) => r.perfFee))).toEqual(perf);
    expect(str(rows.map((r) => r.closingNav))).toEqual(close);
    if (hwm) expect(rows.map((r) => (r.highWaterMark === null ? null : r.highWaterMark.toString()))).toEqual(hwm);
  });

  it('quarterly crystallization compounds the fees inside the year (vs annual: 2 / 2 / 108)', () => {
    const annual = feeSchedule(base);
    const quarterly = feeSchedule({ ...base, crystallization: 'quarterly' });
    expect(annual.map((r) => r.closingNav.toString())).toEqual(['108']);
    expect(quarterly.map((r) => r.label)).toEqual(['Year 1 Q1', 'Year 1 Q2', 'Year 1 Q3', 'Year 1 Q4']);
    // by hand: growth 1.12^(1/4) a quarter, fee 0.5 % of the opening NAV, 20 % over the HWM
    expect(quarterly[0].mgmtFee.toString()).toBe('0.5');
    expect(quarterly[0].perfFee.toFixed(12)).toBe('0.474746894442');
    expect(quarterly[3].closingNav.toFixed(12)).toBe('107.815071761165');
    const a = feeCalculator({ ...base, crystallization: 'quarterly' });
    expect(a.totals).toMatchObject({
      totalMgmtFeesUsd: 2.06,
      totalPerfFeesUsd: 1.95,
      endingNavUsd: 107.82,
      grossEndingNavUsd: 112,
    });
    expect(a.totals.netAnnualizedReturnPct).toBe(7.8151);
    expect(a.totals.feeDragPct).toBe(4.1849);
  });

  it('one-period horizons and the period-count bounds', () => {
    expect(feePeriodCount(0.25, 'quarterly')).toBe(1);
    expect(feePeriodCount(0.5, 'annual')).toBe(1);
    expect(feePeriodCount(0.4, 'annual')).toBeNull();
    expect(feePeriodCount(100, 'quarterly')).toBe(400);
    const one = feeCalculator({ ...base, crystallization: 'quarterly', horizonYears: 0.25 });
    expect(one.periods).toHaveLength(1);
    expect(one.assumptions).toMatchObject({ periodCount: 1, years: 0.25, periodsPerYear: 4 });
    // a quarter of 12 % a year annualizes back to 12 % gross
    expect(one.totals.grossAnnualizedReturnPct).toBe(12);
    expect(() => feeCalculator({ ...base, horizonYears: 0.4 })).toThrow(ProblemError);
    try {
      feeCalculator({ ...base, horizonYears: 0.4 });
    } catch (err) {
      expect((err as ProblemError).errors).toEqual([
        { field: 'horizonYears', message: expect.stringContaining('1 to 400 annual periods') },
      ]);
    }
  });

  it('defaults: 5 years, 15 % gross, 2/20 with HWM, no hurdle, echoed with the disclaimer', () => {
    const a = feeCalculator(FEE_CALCULATOR_DEFAULTS);
    expect(a.assumptions).toEqual({ ...FEE_CALCULATOR_DEFAULTS, periodsPerYear: 1, periodCount: 5, years: 5 });
    expect(a.periods).toHaveLength(5);
    // year 1 by hand: 11.5 M gross, 200 000 fee, 20 % of 1.3 M
    expect(a.periods[0]).toEqual({
      period: 1,
      label: 'Year 1',
      openingNav: 10_000_000,
      grossReturnUsd: 1_500_000,
      mgmtFeeUsd: 200_000,
      hurdleThresholdNav: 10_000_000,
      perfFeeUsd: 260_000,
      closingNav: 11_040_000,
      highWaterMark: 11_040_000,
      grossNav: 11_500_000,
    });
    expect(a.periods.map((p) => p.grossNav).at(-1)).toBe(a.totals.grossEndingNavUsd);
    // each year nets 10.4 %: 1.104^5
    expect(a.totals.netAnnualizedReturnPct).toBe(10.4);
    expect(a.totals.feeDragPct).toBe(4.6);
    expect(a.disclaimer).toMatch(/not accounting or tax advice/);
  });

  it('100 years quarterly answers 400 rows, deterministically', () => {
    const input = { ...FEE_CALCULATOR_DEFAULTS, horizonYears: 100, crystallization: 'quarterly' as const };
    const first = JSON.stringify(feeCalculator(input));
    expect(JSON.parse(first).periods).toHaveLength(400);
    expect(JSON.stringify(feeCalculator(input))).toBe(first);
  });

  it('every period rolls forward exactly and fees are never negative (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          startingNavUsd: fc.integer({ min: 1, max: 1_000_000_000 }),
          annualGrossReturnPct: fc.double({ min: -100, max: 200, noNaN: true }),
          mgmtFeePct: fc.double({ min: 0, max: 100, noNaN: true }),
          perfFeePct: fc.double({ min: 0, max: 100, noNaN: true }),
          hurdlePct: fc.option(fc.double({ min: 0, max: 50, noNaN: true }), { nil: null }),
          hasHwm: fc.boolean(),
          crystallization: fc.constantFrom('annual' as const, 'quarterly' as const),
          horizonYears: fc.integer({ min: 1, max: 20 }),
        }),
        (input) => {
          let hwm: string | null = null;
          for (const r of feeSchedule(input)) {
            const rolled = r.openingNav.plus(r.grossReturn).minus(r.mgmtFee).minus(r.perfFee);
            // exact to the 40 significant digits the engine carries
            expect(rolled.minus(r.closingNav).abs().lte(r.openingNav.times('1e-35').plus('1e-35'))).toBe(true);
            expect(r.mgmtFee.isNegative() && !r.mgmtFee.isZero()).toBe(false);
            expect(r.perfFee.isNegative() && !r.perfFee.isZero()).toBe(false);
            expect(r.closingNav.isNegative() && !r.closingNav.isZero()).toBe(false);
            if (input.hasHwm && hwm !== null && r.highWaterMark) {
              // the HWM only moves when a fee is paid, and then to a NAV above the previous mark
              if (r.perfFee.isZero()) expect(r.highWaterMark.toString()).toBe(hwm);
              else expect(r.highWaterMark.gte(hwm)).toBe(true);
            }
            hwm = r.highWaterMark?.toString() ?? null;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rates stay exact when the NAV decays towards zero (the issue 13 vectors)', () => {
    const halving = feeCalculator({ ...FEE_CALCULATOR_DEFAULTS, annualGrossReturnPct: -50, horizonYears: 100 });
    // each year: 0.5 of the opening NAV gross, less 2 % of it as management fee → 0.48
    expect(halving.totals.netAnnualizedReturnPct).toBe(-52);
    expect(halving.totals.feeDragPct).toBe(2);
    const tenth = feeCalculator({ ...FEE_CALCULATOR_DEFAULTS, annualGrossReturnPct: -90, horizonYears: 30 });
    expect(tenth.totals.netAnnualizedReturnPct).toBe(-92);
    expect(tenth.totals.feeDragPct).toBe(2);
    expect(tenth.totals.endingNavUsd).toBe(0);
  });

  /**
   * An independent computation of the contract: plain decimal.js at 60 digits on the money itself
   * (decimal.js exponents never underflow), no fixed point, no normalisation.
   */
  function referenceRates(input: FeeCalculatorInput): { net: number; drag: number } {
    const R = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, minE: -9e15 });
    const n = input.crystallization === 'annual' ? 1 : 4;
    const count = Math.round(input.horizonYears * n);
    const growth = new R(1).plus(new R(input.annualGrossReturnPct).div(100)).pow(new R(1).div(n));
    const hurdle =
      input.hurdlePct === null ? null : new R(1).plus(new R(input.hurdlePct).div(100)).pow(new R(1).div(n));
    let nav = new R(input.startingNavUsd);
    let hwm = nav;
    let sinceHwm = 0;
    for (let p = 0; p < count; p++) {
      const gross = nav.times(growth);
      const fee = R.min(nav.times(input.mgmtFeePct).div(100).div(n), R.max(gross, 0));
      const pre = gross.minus(fee);
      sinceHwm++;
      const reference = input.hasHwm ? hwm : nav;
      const threshold = hurdle === null ? reference : reference.times(hurdle.pow(input.hasHwm ? sinceHwm : 1));
      const perf = R.max(pre.minus(threshold), 0).times(input.perfFeePct).div(100);
      nav = pre.minus(perf);
      if (input.hasHwm && perf.gt(0)) {
        hwm = nav;
        sinceHwm = 0;
      }
    }
    const years = new R(count).div(n);
    const netGrowth = nav.div(input.startingNavUsd);
    const net = netGrowth.isZero() ? new R(-1) : netGrowth.pow(new R(1).div(years)).minus(1);
    const gross = new R(input.annualGrossReturnPct).div(100);
    return { net: Number(net.times(100).toFixed(4)), drag: Number(gross.minus(net).times(100).toFixed(4)) };
  }

  it('net annualized return and fee drag match an independent computation across ±99 % returns and 100-year horizons (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          startingNavUsd: fc.integer({ min: 1, max: 1_000_000_000 }),
          annualGrossReturnPct: fc.double({ min: -99, max: 99, noNaN: true }),
          mgmtFeePct: fc.double({ min: 0, max: 10, noNaN: true }),
          perfFeePct: fc.double({ min: 0, max: 50, noNaN: true }),
          hurdlePct: fc.option(fc.double({ min: 0, max: 20, noNaN: true }), { nil: null }),
          hasHwm: fc.boolean(),
          crystallization: fc.constantFrom('annual' as const, 'quarterly' as const),
          horizonYears: fc.integer({ min: 1, max: 100 }),
        }),
        (input) => {
          const answer = feeCalculator(input).totals;
          const ref = referenceRates(input);
          // 4-decimal percentages: at most one unit of the last place apart (a rounding boundary)
          expect(Math.abs(answer.netAnnualizedReturnPct - ref.net)).toBeLessThanOrEqual(0.00011);
          expect(Math.abs(answer.feeDragPct - ref.drag)).toBeLessThanOrEqual(0.00011);
        },
      ),
      { numRuns: 300 },
    );
  });
});
