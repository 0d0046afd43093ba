import type Decimal from 'decimal.js';
import { ProblemError } from '../../common/errors/problem';
import { type CsvRow, parseCsvTable } from './csv';
import { amountToFixed } from './amount';
import { fixedToDec } from './fixed';
import { csvDigest, type InputMethod, type TextDigest } from './text-input';
import { bpOf, calendarDay, cents, Dec, dec, DISCLAIMER, HUNDRED, ONE, pct } from './numeric';

export interface NavValidatorInput {
  periodStart: string;
  periodEnd: string;
  openingNavUsd: number;
  contributionsUsd: number;
  withdrawalsUsd: number;
  grossPnlUsd: number;
  mgmtFeeUsd: number;
  perfFeeUsd: number;
  otherExpensesUsd: number;
  reportedClosingNavUsd: number;
  mgmtFeePct: number;
  perfFeePct: number;
  /** Hard hurdle a year, percent (fee only on the net gain above it); null = no hurdle. */
  hurdlePct: number | null;
  hasHwm: boolean;
  /** `Investor,Opening,Contributions,Withdrawals,Closing`; empty = no investor rows to check. */
  lpRowsCsv: string;
  inputMethod: InputMethod;
}

/** A consistent quarter (every check passes): 90 days, 2 % / 20 %, flows mid-period. */
export const NAV_VALIDATOR_DEFAULTS: NavValidatorInput = {
  periodStart: '2025-01-01',
  periodEnd: '2025-03-31',
  openingNavUsd: 10_000_000,
  contributionsUsd: 500_000,
  withdrawalsUsd: 250_000,
  grossPnlUsd: 400_000,
  mgmtFeeUsd: 49_931.51,
  perfFeeUsd: 65_013.7,
  otherExpensesUsd: 25_000,
  reportedClosingNavUsd: 10_510_054.79,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hurdlePct: null,
  hasHwm: true,
  lpRowsCsv: '',
  inputMethod: 'manual',
};

export const LP_ROW_COLUMNS = [
  { name: 'Investor', kind: 'text' as const, required: true },
  { name: 'Opening', kind: 'amount' as const, required: true, nonNegative: true },
  { name: 'Contributions', kind: 'amount' as const, required: true, nonNegative: true },
  { name: 'Withdrawals', kind: 'amount' as const, required: true, nonNegative: true },
  { name: 'Closing', kind: 'amount' as const, required: true, nonNegative: true },
];

const [LP_INVESTOR, LP_OPENING, LP_CONTRIBUTIONS, LP_WITHDRAWALS, LP_CLOSING] = [0, 1, 2, 3, 4];

/** Roll-forward tolerances: a cent is rounding; up to 5 bp of NAV is a warning; beyond fails. */
export const BREAK_PASS_USD = dec('0.01');
export const BREAK_WARN_BP = dec(5);
/** Fee rates: within 0.5 % of the expected amount (or one cent) pass. ACT/360 vs ACT/365 is 1.39 %. */
export const FEE_RELATIVE_TOLERANCE = dec('0.005');

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface NavCheck {
  id: string;
  status: CheckStatus;
  message: string;
  expected: number | null;
  actual: number | null;
  /** What `expected` and `actual` are in: USD, a rate in percent, or a count (rows, investors). */
  unit: CheckUnit;
}

export type CheckUnit = 'usd' | 'percent' | 'count';

/** A check as its rule builds it; its unit follows from its id. */
type CheckFacts = Omit<NavCheck, 'unit'>;

/** The fee checks compare rates; the investor-row count checks count; the rest compare USD. */
function unitOf(id: string): CheckUnit {
  if (id.endsWith('-fee-rate')) return 'percent';
  return id === 'lp-rows' || id === 'lp-withdrawals-covered' ? 'count' : 'usd';
}

export interface NavValidatorAnswer {
  assumptions: Omit<NavValidatorInput, 'lpRowsCsv'> & {
    lpRowsCsv: TextDigest;
    periodDays: number;
    dayCount: 'ACT/365';
    mgmtFeeBasisUsd: number;
    mgmtFeeBasisRangeUsd: { openingUsd: number; closingUsd: number };
    hurdleUsd: number | null;
  };
  status: CheckStatus;
  rollForward: {
    openingNavUsd: number;
    netFlowsUsd: number;
    grossPnlUsd: number;
    totalFeesAndExpensesUsd: number;
    expectedClosingNavUsd: number;
    reportedClosingNavUsd: number;
    breakUsd: number;
    breakBp: number | null;
  };
  checks: NavCheck[];
  summary: { pass: number; warn: number; fail: number };
  disclaimer: string;
}

/**
 * The management fee's base. Funds charge on the opening NAV, the average or the closing NAV (a
 * daily accrual moves with the period's P&L), so any base from the opening NAV to the rolled-forward
 * closing NAV is accepted, flows counted half either way (assumed mid-period). `measured` is the
 * base in that range nearest the booked fee: the fee's implied ACT/365 rate is measured on it.
 */
interface FeeBase {
  opening: Decimal;
  closing: Decimal;
  low: Decimal;
  high: Decimal;
}

function feeBase(opening: Decimal, netFlows: Decimal, expectedClosing: Decimal): FeeBase {
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
function hurdleAmount(input: NavValidatorInput, base: FeeBase, days: number): Decimal | null {
  if (input.hurdlePct === null) return null;
  const growth = ONE.plus(dec(input.hurdlePct).div(HUNDRED)).pow(dec(days).div(365)).minus(ONE);
  return Dec.max(base.opening, 0).times(growth);
}

/**
 * NAV roll-forward validator. The period runs from periodStart to periodEnd inclusive (a
 * quarter Jan 1 – Mar 31 is 90 days). The management fee is tested ACT/365 on any base from the
 * opening to the closing NAV (see `FeeBase`); the performance fee on the net gain above the hurdle.
 */
export function navValidator(input: NavValidatorInput): NavValidatorAnswer {
  const startDay = calendarDay(input.periodStart);
  const endDay = calendarDay(input.periodEnd);
  if (startDay === null || endDay === null || endDay < startDay) {
    throw new ProblemError('invalid_parameter', 'the period is not valid', [
      {
        field: startDay === null ? 'periodStart' : 'periodEnd',
        message: 'must be a calendar date YYYY-MM-DD not before periodStart',
      },
    ]);
  }
  const days = endDay - startDay + 1;
  const opening = dec(input.openingNavUsd);
  const contributions = dec(input.contributionsUsd);
  const withdrawals = dec(input.withdrawalsUsd);
  const grossPnl = dec(input.grossPnlUsd);
  const mgmtFee = dec(input.mgmtFeeUsd);
  const perfFee = dec(input.perfFeeUsd);
  const other = dec(input.otherExpensesUsd);
  const reported = dec(input.reportedClosingNavUsd);
  const netFlows = contributions.minus(withdrawals);
  const costs = mgmtFee.plus(perfFee).plus(other);
  const expectedClosing = opening.plus(netFlows).plus(grossPnl).minus(costs);
  const breakUsd = reported.minus(expectedClosing);
  const breakRatio = reported.abs().lt(BREAK_PASS_USD) ? null : breakUsd.div(reported.abs());

  const facts: CheckFacts[] = [];
  facts.push(rollForwardCheck(expectedClosing, reported, breakUsd, breakRatio));
  facts.push(closingPositiveCheck(expectedClosing));

  const base = feeBase(opening, netFlows, expectedClosing);
  const mgmt = mgmtFeeCheck(input, mgmtFee, base, days);
  facts.push(mgmt.check);
  const hurdle = hurdleAmount(input, base, days);
  facts.push(perfFeeCheck(input, perfFee, grossPnl.minus(mgmtFee).minus(other), hurdle));

  const lpRows = input.lpRowsCsv.trim() === '' ? [] : parseCsvTable('lpRowsCsv', input.lpRowsCsv, LP_ROW_COLUMNS);
  if (input.lpRowsCsv.trim() !== '') {
    facts.push(...lpRowChecks(lpRows, opening, contributions, withdrawals, reported));
  }
  const checks: NavCheck[] = facts.map((c) => ({ ...c, unit: unitOf(c.id) }));

  const summary = { pass: 0, warn: 0, fail: 0 };
  for (const c of checks) summary[c.status]++;
  return {
    assumptions: {
      ...input,
      lpRowsCsv: csvDigest(input.lpRowsCsv, NAV_VALIDATOR_DEFAULTS.lpRowsCsv, lpRows.length),
      periodDays: days,
      dayCount: 'ACT/365',
      mgmtFeeBasisUsd: cents(mgmt.measuredOn),
      mgmtFeeBasisRangeUsd: { openingUsd: cents(base.opening), closingUsd: cents(base.closing) },
      hurdleUsd: hurdle === null ? null : cents(hurdle),
    },
    status: summary.fail > 0 ? 'fail' : summary.warn > 0 ? 'warn' : 'pass',
    rollForward: {
      openingNavUsd: cents(opening),
      netFlowsUsd: cents(netFlows),
      grossPnlUsd: cents(grossPnl),
      totalFeesAndExpensesUsd: cents(costs),
      expectedClosingNavUsd: cents(expectedClosing),
      reportedClosingNavUsd: cents(reported),
      breakUsd: cents(breakUsd),
      breakBp: breakRatio === null ? null : bpOf(breakRatio),
    },
    checks,
    summary,
    disclaimer: DISCLAIMER,
  };
}

function usd(d: Decimal): string {
  const fixed = d.abs().toFixed(2);
  const [whole, frac] = fixed.split('.');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac} USD`;
}

function rollForwardCheck(
  expected: Decimal,
  reported: Decimal,
  breakUsd: Decimal,
  breakRatio: Decimal | null,
): CheckFacts {
  const absBreak = breakUsd.abs();
  const bpText = breakRatio === null ? 'n/a bp' : `${bpOf(breakRatio)} bp`;
  let status: CheckStatus;
  let message: string;
  if (absBreak.lte(BREAK_PASS_USD)) {
    status = 'pass';
    message = 'Opening NAV + flows + gross P&L − fees − expenses equals the reported closing NAV (within a cent).';
  } else if (breakRatio !== null && breakRatio.abs().times(10_000).lte(BREAK_WARN_BP)) {
    status = 'warn';
    message = `The reported closing NAV differs from the roll-forward by ${usd(breakUsd)} (${bpText}), within the 5 bp tolerance but not explained.`;
  } else {
    status = 'fail';
    message = `The reported closing NAV differs from the roll-forward by ${usd(breakUsd)} (${bpText}), beyond the 5 bp tolerance (for reference: IFIC 50 bp, US material NAV error 0.5 %).`;
  }
  return { id: 'roll-forward', status, message, expected: cents(expected), actual: cents(reported) };
}

function closingPositiveCheck(expected: Decimal): CheckFacts {
  const ok = !expected.isNegative() || expected.isZero();
  return {
    id: 'closing-nav-non-negative',
    status: ok ? 'pass' : 'fail',
    message: ok
      ? 'The rolled-forward closing NAV is not negative.'
      : 'The rolled-forward closing NAV is negative: withdrawals, losses or fees exceed the capital.',
    expected: 0,
    actual: cents(expected),
  };
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

function mgmtFeeCheck(input: NavValidatorInput, booked: Decimal, base: FeeBase, days: number): MgmtFeeFacts {
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

function perfFeeCheck(input: NavValidatorInput, booked: Decimal, netGain: Decimal, hurdle: Decimal | null): CheckFacts {
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

function lpRowChecks(
  rows: CsvRow[],
  opening: Decimal,
  contributions: Decimal,
  withdrawals: Decimal,
  reported: Decimal,
): CheckFacts[] {
  if (rows.length === 0) {
    return [
      {
        id: 'lp-rows',
        status: 'warn',
        message: 'lpRowsCsv has a header but no investor rows.',
        expected: null,
        actual: 0,
      },
    ];
  }
  const total = (at: number) => fixedToDec(rows.reduce((acc, r) => acc + amountToFixed(r.amount[at]), 0n));
  const pairs: [string, number, string, Decimal][] = [
    ['lp-opening-sum', LP_OPENING, 'opening NAV', opening],
    ['lp-contributions-sum', LP_CONTRIBUTIONS, 'contributions', contributions],
    ['lp-withdrawals-sum', LP_WITHDRAWALS, 'withdrawals', withdrawals],
    ['lp-closing-sum', LP_CLOSING, 'reported closing NAV', reported],
  ];
  const checks: CheckFacts[] = pairs.map(([id, at, label, fund]) => {
    const column = LP_ROW_COLUMNS[at].name;
    const lpSum = total(at);
    const diff = lpSum.minus(fund);
    // one cent of rounding per investor row is tolerated
    const ok = diff.abs().lte(dec('0.01').times(rows.length));
    return {
      id,
      status: ok ? 'pass' : 'fail',
      message: ok
        ? `The ${rows.length} investor rows' ${column} sum to the fund's ${label}.`
        : `The ${rows.length} investor rows' ${column} sum to ${usd(lpSum)}, ${usd(diff)} away from the fund's ${label} ${usd(fund)}.`,
      expected: cents(fund),
      actual: cents(lpSum),
    };
  });
  const overdrawn = rows.filter(
    (r) =>
      amountToFixed(r.amount[LP_WITHDRAWALS]) >
      amountToFixed(r.amount[LP_OPENING]) + amountToFixed(r.amount[LP_CONTRIBUTIONS]),
  );
  checks.push({
    id: 'lp-withdrawals-covered',
    status: overdrawn.length === 0 ? 'pass' : 'warn',
    message:
      overdrawn.length === 0
        ? 'No investor withdrew more than their opening capital plus contributions.'
        : `Investors withdrawing more than opening capital plus contributions (possible only from gains): ${overdrawn.map((r) => `${r.text[LP_INVESTOR]} (line ${r.line})`).join(', ')}.`,
    expected: 0,
    actual: overdrawn.length,
  });
  return checks;
}
