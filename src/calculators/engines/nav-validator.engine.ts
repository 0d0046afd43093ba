import type Decimal from 'decimal.js';
import { ProblemError } from '../../common/errors/problem';
import { type CsvRow, parseCsvTable } from './csv';
import { amountToFixed } from './amount';
import { fixedToDec } from './fixed';
import { csvDigest, type InputMethod, type TextDigest } from './text-input';
import { bpOf, calendarDay, cents, dec, DISCLAIMER, usd } from './numeric';
import { BREAK_PASS_USD, feeBase, hurdleAmount, mgmtFeeCheck, perfFeeCheck } from './nav-validator.fees';

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

/** Roll-forward tolerances: a cent is rounding (BREAK_PASS_USD); up to 5 bp of NAV is a warning; beyond fails. */
export const BREAK_WARN_BP = dec(5);

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
export type CheckFacts = Omit<NavCheck, 'unit'>;

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
