import { ProblemError } from '../../common/errors/problem';
import { NAV_VALIDATOR_DEFAULTS, navValidator, type NavValidatorInput } from './nav-validator.engine';

/** A quarter with no flows, fees or expenses unless a case sets them. */
const quiet: NavValidatorInput = {
  ...NAV_VALIDATOR_DEFAULTS,
  openingNavUsd: 10_000_000,
  contributionsUsd: 0,
  withdrawalsUsd: 0,
  grossPnlUsd: 0,
  mgmtFeeUsd: 0,
  perfFeeUsd: 0,
  otherExpensesUsd: 0,
  reportedClosingNavUsd: 10_000_000,
  mgmtFeePct: 0,
  perfFeePct: 0,
};
const check = (answer: ReturnType<typeof navValidator>, id: string) => {
  const c = answer.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};

describe('nav-validator engine', () => {
  it('the defaults are a consistent quarter: every check passes', () => {
    const a = navValidator(NAV_VALIDATOR_DEFAULTS);
    expect(a.status).toBe('pass');
    expect(a.summary).toEqual({ pass: 4, warn: 0, fail: 0 });
    expect(a.rollForward).toEqual({
      openingNavUsd: 10_000_000,
      netFlowsUsd: 250_000,
      grossPnlUsd: 400_000,
      totalFeesAndExpensesUsd: 139_945.21,
      expectedClosingNavUsd: 10_510_054.79,
      reportedClosingNavUsd: 10_510_054.79,
      breakUsd: 0,
      breakBp: 0,
    });
    expect(a.assumptions).toMatchObject({
      periodDays: 90,
      dayCount: 'ACT/365',
      mgmtFeeBasisUsd: 10_125_000.64, // the booked 49 931.51 is 2 % ACT/365 of this base
      mgmtFeeBasisRangeUsd: { openingUsd: 10_125_000, closingUsd: 10_385_054.79 },
      hurdleUsd: null,
      lpRowsCsv: { isDefault: true, bytes: 0, rows: 0 },
    });
    expect(a.disclaimer).toMatch(/not accounting or tax advice/);
  });

  it('says what each check measures: USD, a rate in percent, or a count', () => {
    const lpRowsCsv = 'investor,opening,contributions,withdrawals,closing\nA,10000000,250000,0,10510054.79';
    const a = navValidator({ ...NAV_VALIDATOR_DEFAULTS, lpRowsCsv });
    const units = Object.fromEntries(a.checks.map((c) => [c.id, c.unit]));
    expect(units).toMatchObject({
      'roll-forward': 'usd',
      'mgmt-fee-rate': 'percent',
      'perf-fee-rate': 'percent',
      'lp-closing-sum': 'usd',
      'lp-withdrawals-covered': 'count',
    });
    expect(a.checks.every((c) => c.unit !== undefined)).toBe(true);
    expect(check(a, 'mgmt-fee-rate').expected).toBe(NAV_VALIDATOR_DEFAULTS.mgmtFeePct); // percent, not USD
  });

  // breakBp = break / reported closing × 10 000
  it.each([
    { name: 'one cent is rounding', delta: 0.01, status: 'pass', breakUsd: 0.01, breakBp: 0 },
    { name: 'two cents is a break, within 5 bp', delta: 0.02, status: 'warn', breakUsd: 0.02, breakBp: 0 },
    { name: '5 000 USD is 4.76 bp: warn', delta: 5_000, status: 'warn', breakUsd: 5_000, breakBp: 4.76 },
    { name: '60 000 USD is 56.76 bp: fail', delta: 60_000, status: 'fail', breakUsd: 60_000, breakBp: 56.76 },
    {
      name: 'a shortfall of 6 000 USD is -5.71 bp: fail',
      delta: -6_000,
      status: 'fail',
      breakUsd: -6_000,
      breakBp: -5.71,
    },
  ])('roll-forward break: $name', ({ delta, status, breakUsd, breakBp }) => {
    const a = navValidator({ ...NAV_VALIDATOR_DEFAULTS, reportedClosingNavUsd: 10_510_054.79 + delta });
    expect(a.rollForward.breakUsd).toBe(breakUsd);
    expect(a.rollForward.breakBp).toBe(breakBp);
    expect(a.rollForward.expectedClosingNavUsd).toBe(10_510_054.79);
    const c = check(a, 'roll-forward');
    expect(c.status).toBe(status);
    expect(c.expected).toBe(10_510_054.79);
    if (status !== 'pass') expect(c.message).toContain(`${breakBp} bp`);
    expect(a.status).toBe(status);
  });

  it('a management fee booked ACT/360 is flagged against ACT/365', () => {
    // 10 M × 2 % × 90 / 360 = 50 000 booked; ACT/365 gives 49 315.07
    const a = navValidator({ ...quiet, mgmtFeePct: 2, mgmtFeeUsd: 50_000, reportedClosingNavUsd: 9_950_000 });
    const c = check(a, 'mgmt-fee-rate');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('ACT/360');
    expect(c.message).toContain('684.93 USD'); // 50 000 − 49 315.07
    expect(c).toMatchObject({ expected: 2, actual: 2.0278 });
    expect(check(a, 'roll-forward').status).toBe('pass');
  });

  it('the same fee booked ACT/365 passes', () => {
    const a = navValidator({ ...quiet, mgmtFeePct: 2, mgmtFeeUsd: 49_315.07, reportedClosingNavUsd: 9_950_684.93 });
    expect(check(a, 'mgmt-fee-rate')).toMatchObject({ status: 'pass', expected: 2, actual: 2 });
    expect(a.status).toBe('pass');
  });

  it('ACT/365 in a leap year counts 366 days', () => {
    const a = navValidator({
      ...quiet,
      periodStart: '2024-01-01',
      periodEnd: '2024-12-31',
      mgmtFeePct: 2,
      mgmtFeeUsd: 200_547.95,
      reportedClosingNavUsd: 9_799_452.05,
    });
    expect(a.assumptions.periodDays).toBe(366);
    expect(check(a, 'mgmt-fee-rate').status).toBe('pass');
  });

  it('any other management fee reports the implied annual rate', () => {
    const a = navValidator({ ...quiet, mgmtFeePct: 2, mgmtFeeUsd: 60_000, reportedClosingNavUsd: 9_940_000 });
    const c = check(a, 'mgmt-fee-rate');
    expect(c.status).toBe('fail');
    expect(c.actual).toBe(2.4333); // 60 000 / 10 M × 365 / 90
    expect(c.message).toContain('above the 2 % agreed');
  });

  // fundgate's own NAV engine, Q1 2025 on a 10 M USD fund at 2 % ACT/365 accrued daily on each day's
  // opening NAV, prices drifting steadily to the quarter's gross return (no flows, no other fees)
  it.each([
    { gross: '+4 %', opening: 9_999_452.05, pnl: 400_000, fee: 50_166.12, closing: 10_349_285.93 },
    { gross: '+12 %', opening: 9_999_452.05, pnl: 1_200_000, fee: 52_113.69, closing: 11_147_338.36 },
    { gross: '−4 %', opening: 9_999_452.05, pnl: -400_000, fee: 48_218.55, closing: 9_551_233.5 },
  ])('a fee accrued daily on a NAV that moves $gross in the quarter passes', ({ opening, pnl, fee, closing }) => {
    const a = navValidator({
      ...quiet,
      openingNavUsd: opening,
      grossPnlUsd: pnl,
      mgmtFeePct: 2,
      mgmtFeeUsd: fee,
      reportedClosingNavUsd: closing,
    });
    // the opening NAV alone was the base before: +4 % read as ACT/360, +12 % and −4 % as other rates
    expect(check(a, 'mgmt-fee-rate')).toMatchObject({ status: 'pass', expected: 2, actual: 2 });
    expect(a.status).toBe('pass');
    expect(a.assumptions.mgmtFeeBasisRangeUsd).toEqual({ openingUsd: opening, closingUsd: closing });
    const basis = a.assumptions.mgmtFeeBasisUsd;
    expect(basis).toBeGreaterThan(Math.min(opening, closing));
    expect(basis).toBeLessThan(Math.max(opening, closing));
  });

  it('a fee charged on the opening NAV (or the closing NAV) passes in a +12 % quarter', () => {
    const on = (mgmtFeeUsd: number) =>
      check(
        navValidator({
          ...quiet,
          grossPnlUsd: 1_200_000,
          mgmtFeePct: 2,
          mgmtFeeUsd,
          reportedClosingNavUsd: 11_200_000 - mgmtFeeUsd,
        }),
        'mgmt-fee-rate',
      );
    expect(on(49_315.07)).toMatchObject({ status: 'pass', actual: 2 }); // 10 M × 2 % × 90 / 365
    expect(on(54_657.53)).toMatchObject({ status: 'pass', actual: 2 }); // on the closing 11 145 342.47
    const over = on(58_000);
    expect(over.status).toBe('fail');
    expect(over.message).toContain('above the 2 % agreed');
    expect(over.message).toMatch(/expected between 49,315\.07 USD and 54,\d{3}\.\d\d USD/);
  });

  // net gain = gross P&L − management fee − expenses = 100 000
  const perf = (perfFeeUsd: number, hasHwm: boolean, grossPnlUsd = 100_000) =>
    check(
      navValidator({
        ...quiet,
        perfFeePct: 20,
        hasHwm,
        grossPnlUsd,
        perfFeeUsd,
        reportedClosingNavUsd: 10_000_000 + grossPnlUsd - perfFeeUsd,
      }),
      'perf-fee-rate',
    );
  it.each([
    { name: 'exactly 20 % of the gain', fee: 20_000, hwm: true, status: 'pass', actual: 20 },
    { name: 'above the agreed rate', fee: 25_000, hwm: true, status: 'fail', actual: 25 },
    {
      name: 'below the rate with a HWM: a warning to confirm the mark',
      fee: 10_000,
      hwm: true,
      status: 'warn',
      actual: 10,
    },
    { name: 'below the rate without a HWM: under-accrued', fee: 10_000, hwm: false, status: 'fail', actual: 10 },
  ])('performance fee $name', ({ fee, hwm, status, actual }) => {
    const c = perf(fee, hwm);
    expect(c).toMatchObject({ status, expected: 20, actual });
    if (status === 'warn') expect(c.message).toContain('high-water mark');
  });

  it('a performance fee in a losing period fails, and none is fine', () => {
    const charged = perf(5_000, true, -50_000);
    expect(charged.status).toBe('fail');
    expect(charged.message).toContain('without net gains');
    expect(charged.message).toContain('high-water mark');
    expect(perf(0, true, -50_000).status).toBe('pass');
  });

  // a 90-day quarter on 10 M: gross 500 000, management fee 49 315.07 → net gain 450 684.93; an 8 %
  // hard hurdle is 10 M × (1.08^(90/365) − 1) = 191 578.97; 20 % of the 259 105.96 above it = 51 821.19
  const hurdled = (perfFeeUsd: number, hurdlePct: number | null, grossPnlUsd = 500_000) =>
    navValidator({
      ...quiet,
      mgmtFeePct: 2,
      mgmtFeeUsd: 49_315.07,
      perfFeePct: 20,
      hasHwm: false,
      hurdlePct,
      grossPnlUsd,
      perfFeeUsd,
      reportedClosingNavUsd: 10_000_000 + grossPnlUsd - 49_315.07 - perfFeeUsd,
    });
  it('a hard hurdle: the fee on the gain above it passes; the hurdle for the period is shown', () => {
    const a = hurdled(51_821.19, 8);
    expect(a.assumptions.hurdleUsd).toBe(191_578.97);
    expect(check(a, 'perf-fee-rate')).toMatchObject({ status: 'pass', expected: 20, actual: 20 });
    expect(check(a, 'perf-fee-rate').message).toContain('above the 8 % hurdle');
    expect(a.status).toBe('pass');
    // without the hurdle the same fee is under-accrued (20 % of the whole 450 684.93 is 90 136.99)
    const none = check(hurdled(51_821.19, null), 'perf-fee-rate');
    expect(none.status).toBe('fail');
    expect(none.message).toContain('expected 90,136.99 USD');
    expect(hurdled(51_821.19, null).assumptions.hurdleUsd).toBeNull();
  });

  it('a fee on the whole gain with a hurdle is a soft hurdle: a warning; beyond that a failure', () => {
    const soft = check(hurdled(90_136.99, 8), 'perf-fee-rate');
    expect(soft.status).toBe('warn');
    expect(soft.message).toContain('soft hurdle');
    expect(check(hurdled(100_000, 8), 'perf-fee-rate').status).toBe('fail');
  });

  it('a net gain that does not clear the hurdle earns no performance fee', () => {
    // gross 200 000 → net gain 150 684.93, under the 191 578.97 hurdle
    expect(check(hurdled(0, 8, 200_000), 'perf-fee-rate')).toMatchObject({ status: 'pass', actual: null });
    const charged = check(hurdled(10_000, 8, 200_000), 'perf-fee-rate');
    expect(charged.status).toBe('fail');
    expect(charged.message).toContain('does not clear the 8 % hurdle (191,578.97 USD for the period)');
  });

  const lpHeader = 'Investor,Opening,Contributions,Withdrawals,Closing';
  it('investor rows that sum to the fund pass; a difference is measured', () => {
    const good = `${lpHeader}\r\nLP A,6000000,500000,0,6561032.88\r\n"LP B, Ltd","4,000,000.00",0,250000,3949021.91\r\n`;
    const a = navValidator({ ...NAV_VALIDATOR_DEFAULTS, lpRowsCsv: good });
    expect(a.checks.map((c) => [c.id, c.status])).toEqual([
      ['roll-forward', 'pass'],
      ['closing-nav-non-negative', 'pass'],
      ['mgmt-fee-rate', 'pass'],
      ['perf-fee-rate', 'pass'],
      ['lp-opening-sum', 'pass'],
      ['lp-contributions-sum', 'pass'],
      ['lp-withdrawals-sum', 'pass'],
      ['lp-closing-sum', 'pass'],
      ['lp-withdrawals-covered', 'pass'],
    ]);
    expect(a.assumptions.lpRowsCsv).toEqual({ isDefault: false, bytes: Buffer.byteLength(good), rows: 2 });

    const off = good.replace('3949021.91', '3948021.91');
    const b = navValidator({ ...NAV_VALIDATOR_DEFAULTS, lpRowsCsv: off });
    expect(check(b, 'lp-closing-sum')).toMatchObject({
      status: 'fail',
      expected: 10_510_054.79,
      actual: 10_509_054.79,
    });
    expect(check(b, 'lp-closing-sum').message).toContain('-1,000.00 USD');
    expect(b.status).toBe('fail');
  });

  it('an investor withdrawing more than they had is a warning naming the line', () => {
    const rows = `${lpHeader}\nLP A,6000000,500000,7000000,0\nLP B,4000000,0,0,10510054.79`;
    const a = navValidator({
      ...NAV_VALIDATOR_DEFAULTS,
      withdrawalsUsd: 7_000_000,
      reportedClosingNavUsd: 3_760_054.79,
      lpRowsCsv: rows,
    });
    expect(check(a, 'lp-withdrawals-covered')).toMatchObject({ status: 'warn', actual: 1 });
    expect(check(a, 'lp-withdrawals-covered').message).toContain('LP A (line 2)');
  });

  it('bad investor rows are a 400 naming each line', () => {
    expect.assertions(2);
    try {
      navValidator({ ...NAV_VALIDATOR_DEFAULTS, lpRowsCsv: `${lpHeader}\nLP A,1,2,3\nLP B,1,2,3,-4` });
    } catch (err) {
      expect((err as ProblemError).status).toBe(400);
      expect((err as ProblemError).errors).toEqual([
        { field: 'lpRowsCsv', message: 'line 2: expected 5 fields, found 4' },
        { field: 'lpRowsCsv', message: 'line 3: Closing -4 must not be negative' },
      ]);
    }
  });

  it('a one-day period and a negative roll-forward', () => {
    const a = navValidator({
      ...quiet,
      periodEnd: quiet.periodStart,
      withdrawalsUsd: 12_000_000,
      reportedClosingNavUsd: 0,
    });
    expect(a.assumptions.periodDays).toBe(1);
    expect(check(a, 'closing-nav-non-negative')).toMatchObject({ status: 'fail', actual: -2_000_000 });
  });

  it('amounts under a cent divide nothing: no implied rate, no break in bp', () => {
    const a = navValidator({ ...quiet, openingNavUsd: 1e-300, mgmtFeeUsd: 100, reportedClosingNavUsd: 1e-300 });
    expect(check(a, 'mgmt-fee-rate')).toMatchObject({ status: 'warn', actual: null });
    expect(check(a, 'mgmt-fee-rate').message).toContain('is under a cent');
    expect(a.rollForward.breakBp).toBeNull();
    expect(JSON.stringify(a)).not.toMatch(/e\+\d/);
  });

  it('refuses a period that ends before it starts', () => {
    expect(() => navValidator({ ...quiet, periodStart: '2025-02-01', periodEnd: '2025-01-31' })).toThrow(ProblemError);
  });

  it('is deterministic', () => {
    const input = { ...NAV_VALIDATOR_DEFAULTS, mgmtFeeUsd: 50_000 };
    expect(JSON.stringify(navValidator(input))).toBe(JSON.stringify(navValidator(input)));
  });
});
