import type Decimal from 'decimal.js';
import { ProblemError } from '../../common/errors/problem';
import { divRound } from './fixed';
import { cents, dec, Dec, DISCLAIMER, HUNDRED, ONE, pctOf, ZERO } from './numeric';

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

/*
 * The schedule runs in exact fixed-point: bigints counting 1e-19 USD. Products are rounded half
 * away from zero at the 19th decimal (26+ significant digits for any NAV over a million, more
 * than decimal.js's default 20), and 1e19 fits one 64-bit limb, which makes every rescaling a
 * single-limb division: about twenty times faster than decimal.js for 400 quarterly rows under
 * a 20 ms p99 budget. Rates and growth factors are computed once with decimal.js and converted.
 */
const FX_PLACES = 19;
const FX_UNIT = 10n ** BigInt(FX_PLACES);
const FX_PER_CENT = 10n ** BigInt(FX_PLACES - 2);

function fx(d: Decimal): bigint {
  return BigInt(d.times(FX_UNIT.toString()).toFixed(0));
}
function fxMul(a: bigint, b: bigint): bigint {
  return divRound(a * b, FX_UNIT);
}
function fxToDec(v: bigint): Decimal {
  return dec(`${v}e-${FX_PLACES}`);
}
function fxCents(v: bigint): number {
  return Number(divRound(v, FX_PER_CENT)) / 100 || 0;
}

interface FeePeriodFx {
  period: number;
  opening: bigint;
  grossReturn: bigint;
  mgmtFee: bigint;
  threshold: bigint;
  perfFee: bigint;
  closing: bigint;
  hwm: bigint | null;
  /** The NAV had no fee ever been charged: the gross path. */
  grossOnly: bigint;
}

function periodCountOrThrow(input: FeeCalculatorInput): number {
  const count = feePeriodCount(input.horizonYears, input.crystallization);
  if (count === null) {
    throw new ProblemError('invalid_parameter', 'horizonYears gives no whole crystallization period', [
      {
        field: 'horizonYears',
        message: `must cover 1 to ${MAX_PERIODS} ${input.crystallization} periods (horizonYears × ${PERIODS_PER_YEAR[input.crystallization]}, rounded)`,
      },
    ]);
  }
  return count;
}

function scheduleFx(input: FeeCalculatorInput, grossReturnPathPct?: readonly number[]): FeePeriodFx[] {
  const count = periodCountOrThrow(input);
  const n = dec(PERIODS_PER_YEAR[input.crystallization]);
  const periodGrowth = fx(ONE.plus(dec(input.annualGrossReturnPct).div(HUNDRED)).pow(ONE.div(n)));
  const pathGrowth = grossReturnPathPct?.map((r) => fx(ONE.plus(dec(r).div(HUNDRED))));
  const mgmtRate = fx(dec(input.mgmtFeePct).div(HUNDRED).div(n));
  const perfRate = fx(dec(input.perfFeePct).div(HUNDRED));
  // the hurdle for one period; k periods since the reference compound it k times
  const hurdleStep = input.hurdlePct === null ? null : fx(ONE.plus(dec(input.hurdlePct).div(HUNDRED)).pow(ONE.div(n)));

  const rows: FeePeriodFx[] = new Array(count);
  let nav = fx(dec(input.startingNavUsd));
  let hwm = nav;
  let hurdleFactor = FX_UNIT; // hurdle growth since the reference was set
  let grossOnly = nav;
  for (let p = 1; p <= count; p++) {
    const opening = nav;
    const growth = pathGrowth === undefined ? periodGrowth : pathGrowth[(p - 1) % pathGrowth.length];
    grossOnly = fxMul(grossOnly, growth);
    const grossNav = fxMul(opening, growth);
    const cap = grossNav > 0n ? grossNav : 0n;
    const fee = fxMul(opening, mgmtRate);
    const mgmtFee = fee < cap ? fee : cap;
    const preFeeNav = grossNav - mgmtFee;
    const reference = input.hasHwm ? hwm : opening;
    let threshold = reference;
    if (hurdleStep !== null) {
      hurdleFactor = input.hasHwm ? fxMul(hurdleFactor, hurdleStep) : hurdleStep;
      threshold = fxMul(reference, hurdleFactor);
    }
    const excess = preFeeNav - threshold;
    const perfFee = excess > 0n ? fxMul(excess, perfRate) : 0n;
    const closing = preFeeNav - perfFee;
    if (input.hasHwm && perfFee !== 0n) {
      hwm = closing;
      hurdleFactor = FX_UNIT;
    }
    rows[p - 1] = {
      period: p,
      opening,
      grossReturn: grossNav - opening,
      mgmtFee,
      threshold,
      perfFee,
      closing,
      hwm: input.hasHwm ? hwm : null,
      grossOnly,
    };
    nav = closing;
  }
  return rows;
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
  return scheduleFx(input, grossReturnPathPct).map((r) => ({
    period: r.period,
    label: periodLabel(r.period, perYear),
    openingNav: fxToDec(r.opening),
    grossReturn: fxToDec(r.grossReturn),
    mgmtFee: fxToDec(r.mgmtFee),
    threshold: fxToDec(r.threshold),
    perfFee: fxToDec(r.perfFee),
    closingNav: fxToDec(r.closing),
    highWaterMark: r.hwm === null ? null : fxToDec(r.hwm),
  }));
}

/**
 * The net growth over the horizon as the product of the period factors (closing / opening NAV),
 * each computed on a NAV normalised to 1 at the period's opening. The schedule is homogeneous in
 * NAV (every fee is proportional to it), so this is exact however far the money decays: the
 * fixed-point money track rounds to 1e-19 USD and reaches zero long before a −50 % year does
 * over a century, while the normalised factors and their decimal product never underflow.
 * The high-water mark is carried as its ratio to the opening NAV.
 */
function netGrowth(input: FeeCalculatorInput, count: number): Decimal {
  const n = dec(PERIODS_PER_YEAR[input.crystallization]);
  const growth = ONE.plus(dec(input.annualGrossReturnPct).div(HUNDRED)).pow(ONE.div(n));
  const mgmtRate = dec(input.mgmtFeePct).div(HUNDRED).div(n);
  const perfRate = dec(input.perfFeePct).div(HUNDRED);
  const hurdleStep = input.hurdlePct === null ? null : ONE.plus(dec(input.hurdlePct).div(HUNDRED)).pow(ONE.div(n));
  let product = ONE;
  let hwmRatio = ONE; // high-water mark / opening NAV
  let hurdleFactor = ONE;
  for (let p = 1; p <= count; p++) {
    const mgmtFee = Dec.min(mgmtRate, Dec.max(growth, 0));
    const preFee = growth.minus(mgmtFee);
    const reference = input.hasHwm ? hwmRatio : ONE;
    if (hurdleStep !== null) hurdleFactor = input.hasHwm ? hurdleFactor.times(hurdleStep) : hurdleStep;
    const threshold = hurdleStep === null ? reference : reference.times(hurdleFactor);
    const excess = preFee.minus(threshold);
    const perfFee = excess.gt(0) ? excess.times(perfRate) : ZERO;
    const factor = preFee.minus(perfFee);
    if (factor.lte(0)) return ZERO; // a total loss stays a total loss
    product = product.times(factor);
    if (input.hasHwm && perfFee.gt(0)) {
      hwmRatio = ONE;
      hurdleFactor = ONE;
    } else {
      hwmRatio = hwmRatio.div(factor);
    }
  }
  return product;
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
    grossNav: number;
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
  const rows = scheduleFx(input);
  const perYear = PERIODS_PER_YEAR[input.crystallization];
  const count = rows.length;
  const years = dec(count).div(perYear);
  const start = dec(input.startingNavUsd);
  let mgmt = 0n;
  let perf = 0n;
  for (const r of rows) {
    mgmt += r.mgmtFee;
    perf += r.perfFee;
  }
  const grossGrowth = ONE.plus(dec(input.annualGrossReturnPct).div(HUNDRED));
  const grossEnding = start.times(grossGrowth.pow(years));
  const grossAnnual = grossGrowth.minus(ONE);
  // Rates from the ratio of period factors, never from the (possibly underflowed) money.
  const growthFactor = netGrowth(input, count);
  const netAnnual = growthFactor.isZero() ? ONE.negated() : growthFactor.pow(ONE.div(years)).minus(ONE);
  return {
    assumptions: { ...input, periodsPerYear: perYear, periodCount: count, years: years.toNumber() },
    periods: rows.map((r) => ({
      period: r.period,
      label: periodLabel(r.period, perYear),
      openingNav: fxCents(r.opening),
      grossReturnUsd: fxCents(r.grossReturn),
      mgmtFeeUsd: fxCents(r.mgmtFee),
      hurdleThresholdNav: fxCents(r.threshold),
      perfFeeUsd: fxCents(r.perfFee),
      closingNav: fxCents(r.closing),
      highWaterMark: r.hwm === null ? null : fxCents(r.hwm),
      grossNav: fxCents(r.grossOnly),
    })),
    totals: {
      totalMgmtFeesUsd: fxCents(mgmt),
      totalPerfFeesUsd: fxCents(perf),
      totalFeesUsd: fxCents(mgmt + perf),
      endingNavUsd: fxCents(rows[count - 1].closing),
      grossEndingNavUsd: cents(grossEnding),
      grossAnnualizedReturnPct: pctOf(grossAnnual),
      netAnnualizedReturnPct: pctOf(netAnnual),
      feeDragPct: pctOf(grossAnnual.minus(netAnnual)),
    },
    disclaimer: DISCLAIMER,
  };
}
