import type Decimal from 'decimal.js';
import { ProblemError } from '../../common/errors/problem';
import { cents, dec, Dec, DISCLAIMER, HUNDRED, ONE, pctOf, sum, ZERO } from './numeric';

export type Crystallization = 'annual' | 'quarterly';
export const CRYSTALLIZATIONS: readonly Crystallization[] = ['annual', 'quarterly'];

export interface FeeCalculatorInput {
  startingNavUsd: number;
  annualGrossReturnPct: number;
  mgmtFeePct: number;
  perfFeePct: number;
  /** Hard hurdle, compounded from the date the reference was set; null = no hurdle. */
  hurdlePct: number | null;
  hasHwm: boolean;
  crystallization: Crystallization;
  horizonYears: number;
}

export const FEE_CALCULATOR_DEFAULTS: FeeCalculatorInput = {
  startingNavUsd: 10_000_000,
  annualGrossReturnPct: 15,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hurdlePct: null,
  hasHwm: true,
  crystallization: 'annual',
  horizonYears: 5,
};

export const PERIODS_PER_YEAR: Record<Crystallization, number> = { annual: 1, quarterly: 4 };
export const MAX_PERIODS = 400;

/** Number of crystallization periods the horizon covers, or null when outside 1..400. */
export function feePeriodCount(horizonYears: number, crystallization: Crystallization): number | null {
  const count = Math.round(horizonYears * PERIODS_PER_YEAR[crystallization]);
  return count >= 1 && count <= MAX_PERIODS ? count : null;
}

/** One period at full precision (the answer rounds these to cents). */
export interface FeePeriodExact {
  period: number;
  label: string;
  openingNav: Decimal;
  grossReturn: Decimal;
  mgmtFee: Decimal;
  /** Reference grown by the hurdle: the NAV above which the performance fee is charged. */
  threshold: Decimal;
  perfFee: Decimal;
  closingNav: Decimal;
  /** After the period; null without a high-water mark. */
  highWaterMark: Decimal | null;
}

/**
 * The fee schedule at full precision. Per period: gross return on the opening NAV, management
 * fee on the opening NAV (capped at the gross NAV: a fee cannot take NAV below zero),
 * performance fee on the pre-fee NAV above the reference grown by the hurdle. The reference is
 * the high-water mark (the starting NAV, then the closing NAV of the last period that paid a
 * performance fee) when hasHwm, else the period's opening NAV.
 *
 * `grossReturnPathPct` (not exposed over HTTP) replaces the constant return with one gross
 * return per period, in percent of the period; it lets tests and tools model losses and recoveries.
 */
export function feeSchedule(input: FeeCalculatorInput, grossReturnPathPct?: readonly number[]): FeePeriodExact[] {
  const perYear = PERIODS_PER_YEAR[input.crystallization];
  const count = feePeriodCount(input.horizonYears, input.crystallization);
  if (count === null) {
    throw new ProblemError('invalid_parameter', 'horizonYears gives no whole crystallization period', [
      {
        field: 'horizonYears',
        message: `must cover 1 to ${MAX_PERIODS} ${input.crystallization} periods (horizonYears × ${perYear}, rounded)`,
      },
    ]);
  }
  const n = dec(perYear);
  const periodGrowth = dec(1).plus(dec(input.annualGrossReturnPct).div(HUNDRED)).pow(ONE.div(n));
  const mgmtRate = dec(input.mgmtFeePct).div(HUNDRED).div(n);
  const perfRate = dec(input.perfFeePct).div(HUNDRED);
  const hurdleGrowth = input.hurdlePct === null ? null : ONE.plus(dec(input.hurdlePct).div(HUNDRED));

  const rows: FeePeriodExact[] = [];
  let nav = dec(input.startingNavUsd);
  let hwm = nav;
  let hwmPeriod = 0; // the period at whose end the reference was set (0 = inception)
  for (let p = 1; p <= count; p++) {
    const opening = nav;
    const growth = grossReturnPathPct === undefined ? periodGrowth : ONE.plus(dec(grossReturnPathPct[(p - 1) % grossReturnPathPct.length]).div(HUNDRED));
    const grossNav = opening.times(growth);
    const grossReturn = grossNav.minus(opening);
    const mgmtFee = Dec.min(opening.times(mgmtRate), Dec.max(grossNav, ZERO));
    const preFeeNav = grossNav.minus(mgmtFee);
    const reference = input.hasHwm ? hwm : opening;
    const yearsSinceReference = dec(input.hasHwm ? p - hwmPeriod : 1).div(n);
    const threshold = hurdleGrowth === null ? reference : reference.times(hurdleGrowth.pow(yearsSinceReference));
    const excess = preFeeNav.minus(threshold);
    const perfFee = excess.isPositive() && !excess.isZero() ? excess.times(perfRate) : ZERO;
    const closing = preFeeNav.minus(perfFee);
    if (input.hasHwm && !perfFee.isZero()) {
      hwm = closing;
      hwmPeriod = p;
    }
    rows.push({
      period: p,
      label: periodLabel(p, perYear),
      openingNav: opening,
      grossReturn,
      mgmtFee,
      threshold,
      perfFee,
      closingNav: closing,
      highWaterMark: input.hasHwm ? hwm : null,
    });
    nav = closing;
  }
  return rows;
}

function periodLabel(p: number, perYear: number): string {
  if (perYear === 1) return `Year ${p}`;
  return `Year ${Math.ceil(p / perYear)} Q${((p - 1) % perYear) + 1}`;
}

export interface FeeCalculatorAnswer {
  assumptions: FeeCalculatorInput & { periodsPerYear: number; periodCount: number; years: number };
  periods: {
    period: number;
    label: string;
    openingNav: number;
    grossReturnUsd: number;
    mgmtFeeUsd: number;
    hurdleThresholdNav: number;
    perfFeeUsd: number;
    closingNav: number;
    highWaterMark: number | null;
  }[];
  totals: {
    totalMgmtFeesUsd: number;
    totalPerfFeesUsd: number;
    totalFeesUsd: number;
    endingNavUsd: number;
    grossEndingNavUsd: number;
    grossAnnualizedReturnPct: number;
    netAnnualizedReturnPct: number;
    feeDragPct: number;
  };
  disclaimer: string;
}

/**
 * Fee calculator answer. Rows and totals are rounded to cents from the exact schedule (so a
 * total may differ by a cent from the sum of rounded rows). `feeDragPct` is the gross minus the
 * net annualized return, in percentage points.
 */
export function feeCalculator(input: FeeCalculatorInput): FeeCalculatorAnswer {
  const rows = feeSchedule(input);
  const perYear = PERIODS_PER_YEAR[input.crystallization];
  const count = rows.length;
  const years = dec(count).div(perYear);
  const start = dec(input.startingNavUsd);
  const mgmt = sum(rows.map((r) => r.mgmtFee));
  const perf = sum(rows.map((r) => r.perfFee));
  const ending = rows[count - 1].closingNav;
  const grossGrowth = ONE.plus(dec(input.annualGrossReturnPct).div(HUNDRED));
  const grossEnding = start.times(grossGrowth.pow(years));
  const grossAnnual = grossGrowth.minus(ONE);
  const netAnnual = ending.div(start).pow(ONE.div(years)).minus(ONE);
  return {
    assumptions: { ...input, periodsPerYear: perYear, periodCount: count, years: years.toNumber() },
    periods: rows.map((r) => ({
      period: r.period,
      label: r.label,
      openingNav: cents(r.openingNav),
      grossReturnUsd: cents(r.grossReturn),
      mgmtFeeUsd: cents(r.mgmtFee),
      hurdleThresholdNav: cents(r.threshold),
      perfFeeUsd: cents(r.perfFee),
      closingNav: cents(r.closingNav),
      highWaterMark: r.highWaterMark === null ? null : cents(r.highWaterMark),
    })),
    totals: {
      totalMgmtFeesUsd: cents(mgmt),
      totalPerfFeesUsd: cents(perf),
      totalFeesUsd: cents(mgmt.plus(perf)),
      endingNavUsd: cents(ending),
      grossEndingNavUsd: cents(grossEnding),
      grossAnnualizedReturnPct: pctOf(grossAnnual),
      netAnnualizedReturnPct: pctOf(netAnnual),
      feeDragPct: pctOf(grossAnnual.minus(netAnnual)),
    },
    disclaimer: DISCLAIMER,
  };
}
