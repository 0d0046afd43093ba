import type Decimal from 'decimal.js';
import type { CheckFacts, CheckStatus, NavValidatorInput } from './nav-validator.engine';
import { Dec, dec, HUNDRED, ONE, pct, usd } from './numeric';

/** A cent: below it a difference is rounding (the roll-forward, the fee checks). */
export const BREAK_PASS_USD = dec('0.01');
/** Fee rates: within 0.5 % of the expected amount (or one cent) pass. ACT/360 vs ACT/365 is 1.39 %. */
export const FEE_RELATIVE_TOLERANCE = dec('0.005');

/**
 * The management fee's base. Funds charge on the opening NAV, the average or the closing NAV (a
 * daily accrual moves with the period's P&L), so any base from the opening NAV to the rolled-forward
 * closing NAV is accepted, flows counted half either way (assumed mid-period). `measured` is the
 * base in that range nearest the booked fee: the fee's implied ACT/365 rate is measured on it.
 */
export interface FeeBase {
  opening: Decimal;
  closing: Decimal;
  low: Decimal;
  high: Decimal;
}

export function feeBase(opening: Decimal, netFlows: Decimal, expectedClosing: Decimal): FeeBase {
  const atOpening = opening.plus(netFlows.div(2));
  const atClosing = expectedClosing.minus(netFlows.div(2));
  const [low, high] = atOpening.lte(atClosing) ? [atOpening, atClosing] : [atClosing, atOpening];
  return { opening: atOpening, closing: atClosing, low: Dec.max(low, 0), high: Dec.max(high, 0) };
}

/** The base in [low, high] on which `booked` is `perUsd` of it (the nearest end when outside). */
function nearestBase(base: FeeBase, booked: Decimal, perUsd: Decimal): Decimal {
  if (perUsd.isZero()) return base.low.plus(base.high).div(2);
  return Dec.min(Dec.max(booked.div(perUsd), base.low), base.high);
}

/** The hurdle's amount for the period: the fee base at opening grown by the hurdle over the days. */
export function hurdleAmount(input: NavValidatorInput, base: FeeBase, days: number): Decimal | null {
  if (input.hurdlePct === null) return null;
  const growth = ONE.plus(dec(input.hurdlePct).div(HUNDRED)).pow(dec(days).div(365)).minus(ONE);
  return Dec.max(base.opening, 0).times(growth);
}

function withinFeeTolerance(actual: Decimal, expected: Decimal): boolean {
  const diff = actual.minus(expected).abs();
  return diff.lte(BREAK_PASS_USD) || diff.lte(expected.abs().times(FEE_RELATIVE_TOLERANCE));
}

interface MgmtFeeFacts {
  check: CheckFacts;
  /** The base the implied rate is measured on. */
  measuredOn: Decimal;
}

export function mgmtFeeCheck(input: NavValidatorInput, booked: Decimal, base: FeeBase, days: number): MgmtFeeFacts {
  const rate = dec(input.mgmtFeePct).div(HUNDRED);
  const per365 = rate.times(days).div(365);
  const id = 'mgmt-fee-rate';
  const measuredOn = nearestBase(base, booked, per365);
  // below a cent there is nothing to charge on (1e-300 implied a fee of 2e30 % a year)
  if (base.high.lt(BREAK_PASS_USD)) {
    const check: CheckFacts = {
      id,
      status: booked.isZero() ? 'pass' : 'warn',
      message: booked.isZero()
        ? 'No capital to charge a management fee on, and none was booked.'
        : 'A management fee was booked although the fee base (opening or closing NAV, flows counted half) is under a cent.',
      expected: input.mgmtFeePct,
      actual: null,
    };
    return { check, measuredOn };
  }
  const expected365 = measuredOn.times(per365);
  const actual = pct(booked.div(measuredOn).times(365).div(days).times(HUNDRED));
  const facts = (status: CheckStatus, message: string): MgmtFeeFacts => ({
    check: { id, status, message, expected: input.mgmtFeePct, actual },
    measuredOn,
  });
  if (withinFeeTolerance(booked, expected365)) {
    return facts(
      'pass',
      `The booked management fee ${usd(booked)} matches ${input.mgmtFeePct} % a year ACT/365 on ${usd(measuredOn)} over ${days} days (${baseRange(base)}).`,
    );
  }
  const per360 = rate.times(days).div(360);
  if (!per360.isZero() && withinFeeTolerance(booked, nearestBase(base, booked, per360).times(per360))) {
    const at365 = booked.times(360).div(365);
    return facts(
      'fail',
      `The booked management fee ${usd(booked)} matches ${input.mgmtFeePct} % accrued ACT/360, not ACT/365: overcharged by ${usd(booked.minus(at365))} (expected ${usd(at365)}).`,
    );
  }
  const direction = booked.gt(expected365) ? 'above' : 'below';
  return facts(
    'fail',
    `The booked management fee ${usd(booked)} implies ${actual} % a year (ACT/365), ${direction} the ${input.mgmtFeePct} % agreed; expected ${expectedRange(base, per365)} (${baseRange(base)}).`,
  );
}

function baseRange(base: FeeBase): string {
  return base.low.eq(base.high)
    ? 'the opening NAV plus half the net flows'
    : `any base from the opening NAV ${usd(base.opening)} to the closing NAV ${usd(base.closing)}, flows counted half`;
}

function expectedRange(base: FeeBase, perUsd: Decimal): string {
  const [low, high] = [base.low.times(perUsd), base.high.times(perUsd)];
  return low.toFixed(2) === high.toFixed(2) ? `about ${usd(low)}` : `between ${usd(low)} and ${usd(high)}`;
}

export function perfFeeCheck(
  input: NavValidatorInput,
  booked: Decimal,
  netGain: Decimal,
  hurdle: Decimal | null,
): CheckFacts {
  const id = 'perf-fee-rate';
  const expectedPct = input.perfFeePct;
  if (!netGain.isPositive() || netGain.isZero()) {
    return noGainCheck(input, booked);
  }
  const excess = hurdle === null ? netGain : netGain.minus(hurdle);
  const gainText =
    hurdle === null
      ? `the net gain ${usd(netGain)}`
      : `the net gain above the ${input.hurdlePct} % hurdle (${usd(netGain)} − ${usd(hurdle)} for the period)`;
  if (!excess.isPositive() || excess.isZero()) {
    const ok = withinFeeTolerance(booked, dec(0));
    return {
      id,
      status: ok ? 'pass' : 'fail',
      message: ok
        ? `The net gain ${usd(netGain)} does not clear the ${input.hurdlePct} % hurdle (${usd(netGain.minus(excess))} for the period), and no performance fee was booked.`
        : `A performance fee of ${usd(booked)} was booked although the net gain ${usd(netGain)} does not clear the ${input.hurdlePct} % hurdle (${usd(netGain.minus(excess))} for the period).`,
      expected: expectedPct,
      actual: null,
    };
  }
  const rate = dec(input.perfFeePct).div(HUNDRED);
  const expected = excess.times(rate);
  const actual = pct(booked.div(excess).times(HUNDRED));
  const facts = (status: CheckStatus, message: string): CheckFacts => ({
    id,
    status,
    message,
    expected: expectedPct,
    actual,
  });
  if (withinFeeTolerance(booked, expected)) {
    return facts('pass', `The booked performance fee ${usd(booked)} is ${expectedPct} % of ${gainText}.`);
  }
  if (booked.gt(expected)) {
    if (hurdle !== null && withinFeeTolerance(booked, netGain.times(rate))) {
      return facts(
        'warn',
        `The booked performance fee ${usd(booked)} is ${expectedPct} % of the whole net gain ${usd(netGain)}: consistent with a soft hurdle (the fee on the whole gain once the hurdle is cleared), not a hard one (${usd(expected)} on the gain above it). Confirm the hurdle's terms.`,
      );
    }
    return facts(
      'fail',
      `The booked performance fee ${usd(booked)} is ${actual} % of ${gainText}, above the ${expectedPct} % agreed (expected at most ${usd(expected)}).`,
    );
  }
  if (input.hasHwm) {
    return facts(
      'warn',
      `The booked performance fee ${usd(booked)} is ${actual} % of ${gainText}, below the ${expectedPct} % agreed: consistent only if part of the gain recovered losses below the high-water mark${hurdle === null ? ' (or a hurdle applies: give hurdlePct)' : ''}. Confirm the high-water mark.`,
    );
  }
  return facts(
    'fail',
    `The booked performance fee ${usd(booked)} is ${actual} % of ${gainText}, below the ${expectedPct} % agreed, and there is no high-water mark${hurdle === null ? ' or hurdle' : ''} to explain it (expected ${usd(expected)}).`,
  );
}

function noGainCheck(input: NavValidatorInput, booked: Decimal): CheckFacts {
  const base = { id: 'perf-fee-rate', expected: input.perfFeePct, actual: null };
  if (booked.isZero()) {
    return {
      ...base,
      status: 'pass',
      message: 'No net gain after management fee and expenses, and no performance fee was booked.',
    };
  }
  return {
    ...base,
    status: 'fail',
    message: input.hasHwm
      ? `A performance fee of ${usd(booked)} was booked in a period without net gains; with a high-water mark no fee is earned until losses are recovered.`
      : `A performance fee of ${usd(booked)} was booked in a period without net gains.`,
  };
}
