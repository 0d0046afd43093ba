import { type CrystallizationFrequency, addDays, dateRange } from '../dates';
import { Decimal, ZERO } from '../money';
import { emptyState } from './engine-state';
import { type DayInputs, type DayValuation, type EngineState, type FlowEvent, type FundTerms } from './engine-types';
import { valueDay } from './nav-engine';

const d = (v: Decimal.Value) => new Decimal(v);

interface ClassSpec {
  mgmt?: string;
  perf?: string;
  hurdle?: string | null;
  freq?: CrystallizationFrequency;
  exempt?: boolean;
}

/** A one-asset fund: 1 000 000 subscribed at 100 per unit on the first day, fully invested in X at 100 the next day. */
function fund(spec: ClassSpec): FundTerms {
  return {
    fundId: 'spec-fund',
    baseCurrency: 'USD',
    cashConnection: 'bank',
    settlementDays: 3,
    classes: [
      {
        id: 'A',
        name: 'Class A',
        mgmtFeeAnnualRate: d(spec.mgmt ?? '0'),
        perfFeeRate: d(spec.perf ?? '0.2'),
        hurdleAnnualRate: spec.hurdle ? d(spec.hurdle) : null,
        crystallizationFrequency: spec.freq ?? 'quarterly',
        feeExempt: spec.exempt ?? false,
        initialNavPerUnit: d(100),
      },
    ],
    connections: new Map([['bank', { code: 'bank', sourceType: 'bank', mode: 'live' }]]),
    stablecoins: new Set(),
  };
}

/** Runs the fund from `start` to `end`; X's close is the last price point on or before each date. */
function run(
  terms: FundTerms,
  start: string,
  end: string,
  points: Record<string, string>,
  flows: Record<string, FlowEvent[]> = {},
): Map<string, DayValuation> {
  let state: EngineState = emptyState();
  const out = new Map<string, DayValuation>();
  let price = d(100);
  for (const date of dateRange(start, end)) {
    if (points[date]) price = d(points[date]);
    const day: DayInputs = {
      date,
      prices: new Map([['X', price]]),
      transfers: [],
      expenses: [],
      manualPnl: ZERO,
      trades:
        date === addDays(start, 1)
          ? [
              {
                ref: 'T1',
                executedAt: `${date}T10:00:00Z`,
                connection: 'bank',
                symbol: 'X',
                side: 'buy',
                quantity: d(10000),
                price: d(100),
                fee: ZERO,
              },
            ]
          : [],
      flows:
        date === start
          ? [
              {
                ref: 'S1',
                flowId: 'S1',
                investorId: 'inv',
                classId: 'A',
                type: 'subscription',
                amount: d(1_000_000),
                fraction: null,
              },
            ]
          : (flows[date] ?? []),
    };
    const result = valueDay(terms, state, day);
    if (!result.ok) throw new Error(result.reason);
    out.set(date, result);
    state = result.state;
  }
  return out;
}

const cls = (v: DayValuation) => v.classes[0];

/** A capital flow of `investorId` into class `classId`: an amount, or (redemptions) a fraction of the holding. */
function flowOf(
  ref: string,
  type: FlowEvent['type'],
  investorId: string,
  size: { amount: Decimal.Value } | { fraction: Decimal.Value },
  classId = 'A',
): FlowEvent {
  return {
    ref,
    flowId: ref,
    investorId,
    classId,
    type,
    amount: 'amount' in size ? d(size.amount) : null,
    fraction: 'fraction' in size ? d(size.fraction) : null,
  };
}

describe('NAV engine fee scenarios (hand-computed)', () => {
  it('crystallizes at quarter end: 20 % of (110 − 100) × 10 000 units, settled by cancelling units at GNAV, HWM reset', () => {
    const days = run(fund({}), '2024-06-27', '2024-07-02', { '2024-06-30': '110' });
    const qEnd = days.get('2024-06-30')!;
    expect(cls(qEnd).performanceFeeCrystallized.toFixed(2)).toBe('20000.00');
    expect(cls(qEnd).nav.toFixed(2)).toBe('1080000.00');
    expect(qEnd.lots[0].unitsCancelled.toFixed(8)).toBe('181.81818182');
    expect(cls(qEnd).units.toFixed(8)).toBe('9818.18181818');
    expect(qEnd.lots[0].hwmPerUnit.toFixed(6)).toBe('110.000000');
    expect(qEnd.lots[0].hwmDate).toBe('2024-06-30');
    const next = days.get('2024-07-01')!;
    expect(cls(next).performanceFee.toFixed(2)).toBe('0.00');
    // The crystallized fee is paid the next day.
    expect(
      next.entries.some((e) => e.source === 'performance_fee_payment' && e.lines[0].debit.toFixed(2) === '20000.00'),
    ).toBe(true);
  });

  it('accrues without crystallizing before the period end', () => {
    const days = run(fund({}), '2024-05-01', '2024-05-31', { '2024-05-10': '110' });
    const v = days.get('2024-05-31')!;
    expect(cls(v).performanceFeeCrystallized.toFixed(2)).toBe('0.00');
    expect(v.lots[0].accrued.toFixed(2)).toBe('20000.00');
    expect(cls(v).nav.toFixed(2)).toBe('1080000.00');
    expect(cls(v).units.toFixed(8)).toBe('10000.00000000');
  });

  it('a hurdle not met accrues nothing: 5 % hurdle, +4 % over a year', () => {
    const days = run(fund({ hurdle: '0.05', freq: 'annual' }), '2023-12-30', '2024-12-31', { '2024-12-01': '104' });
    expect(days.get('2024-12-31')!.lots[0].accrued.toFixed(2)).toBe('0.00');
    expect(cls(days.get('2024-12-31')!).performanceFeeCrystallized.toFixed(2)).toBe('0.00');
  });

  it('a loss then a recovery below the HWM charges nothing; above the HWM only the excess over 100', () => {
    const days = run(fund({ freq: 'monthly' }), '2024-01-29', '2024-03-31', {
      '2024-01-31': '80',
      '2024-02-29': '95',
      '2024-03-15': '120',
    });
    expect(cls(days.get('2024-01-31')!).performanceFeeCrystallized.toFixed(2)).toBe('0.00');
    expect(cls(days.get('2024-02-29')!).performanceFeeCrystallized.toFixed(2)).toBe('0.00');
    expect(days.get('2024-02-29')!.lots[0].hwmPerUnit.toFixed(2)).toBe('100.00');
    expect(cls(days.get('2024-03-31')!).performanceFeeCrystallized.toFixed(2)).toBe('40000.00');
    // Accruals reversed on the way down never make the fee negative.
    for (const v of days.values()) expect(v.lots.every((l) => l.accrued.gte(0))).toBe(true);
  });

  it('a mid-period redemption crystallizes the redeemed part of the lot fee', () => {
    const redemption = flowOf('R1', 'redemption', 'inv', { fraction: '0.5' });
    const days = run(fund({}), '2024-04-28', '2024-05-20', { '2024-05-10': '120' }, { '2024-05-15': [redemption] });
    const v = days.get('2024-05-15')!;
    // Accrued 0.2 × 20 × 10 000 = 40 000; half crystallizes; the investor receives half of the net value 1 160 000.
    expect(v.flows[0].performanceFeeCrystallized.toFixed(2)).toBe('20000.00');
    expect(v.flows[0].amount.toFixed(2)).toBe('580000.00');
    expect(v.lots[0].accrued.toFixed(2)).toBe('20000.00');
    expect(v.lots[0].units.toFixed(8)).toBe('5000.00000000');
    expect(cls(v).nav.toFixed(2)).toBe('580000.00');
    expect(v.capitalAccounts[0].closingCapital.toFixed(2)).toBe('580000.00');
    expect(v.capitalAccounts[0].redemptions.toFixed(2)).toBe('580000.00');
    expect(v.summary.nav.toFixed(2)).toBe('580000.00');
  });

  it("a class emptied by a redemption and refilled the same day prices the subscription at the day's GNAV, not the launch price", () => {
    const out = flowOf('R1', 'redemption', 'inv', { fraction: 1 });
    const newcomer = flowOf('S2', 'subscription', 'inv2', { amount: 1_000_000 });
    const days = run(
      fund({ perf: '0' }),
      '2024-05-08',
      '2024-05-11',
      { '2024-05-10': '130' },
      {
        '2024-05-10': [out, newcomer],
      },
    );
    const v = days.get('2024-05-10')!;
    const issued = v.flows.find((f) => f.flowId === 'S2')!;
    expect(issued.navPerUnit.toFixed(2)).toBe('130.00'); // it was 100, the launch price
    expect(issued.units.toFixed(8)).toBe('7692.30769231');
    expect(cls(days.get('2024-05-11')!).navPerUnit!.toFixed(2)).toBe('130.00'); // no false −23 % the next day
  });

  it('the management fee is borne per unit held: an investor whose lot carries an accrued fee bears the same per unit', () => {
    // inv's 10 000 units carry an accrual after X rises 20 %; inv2 buys in at that GNAV (no accrual)
    const late = flowOf('S2', 'subscription', 'inv2', { amount: 1_200_000 });
    const days = run(
      fund({ mgmt: '0.02', freq: 'annual' }),
      '2024-05-08',
      '2024-05-13',
      { '2024-05-10': '120' },
      {
        '2024-05-11': [late],
      },
    );
    const v = days.get('2024-05-13')!;
    const opening = days.get('2024-05-12')!.state.lots;
    const units = (id: string) => opening.filter((l) => l.investorId === id).reduce((a, l) => a.plus(l.units), ZERO);
    const fee = (id: string) => v.capitalAccounts.find((a) => a.investorId === id)!.managementFee;
    expect(v.state.lots.find((l) => l.investorId === 'inv')!.accrued.gt(0)).toBe(true);
    const perUnit = ['inv', 'inv2'].map((id) => fee(id).dividedBy(units(id)));
    // equal per unit to within the cent of rounding (by net capital inv paid ≈ 1.7 % less per unit)
    expect(perUnit[0].minus(perUnit[1]).abs().times(units('inv')).lte('0.01')).toBe(true);
    expect(fee('inv').plus(fee('inv2')).toFixed(2)).toBe(cls(v).managementFee.toFixed(2));
  });

  it('a fee-exempt class accrues neither management nor performance fee', () => {
    const days = run(fund({ mgmt: '0.02', exempt: true }), '2024-06-27', '2024-07-02', { '2024-06-30': '130' });
    for (const v of days.values()) {
      expect(cls(v).managementFee.toFixed(2)).toBe('0.00');
      expect(cls(v).performanceFee.toFixed(2)).toBe('0.00');
    }
    expect(cls(days.get('2024-07-02')!).nav.toFixed(2)).toBe('1300000.00');
  });

  it('management fee: 2 % × opening class NAV / 365 per calendar day', () => {
    const days = run(fund({ mgmt: '0.02', perf: '0' }), '2024-06-27', '2024-06-30', {});
    expect(cls(days.get('2024-06-28')!).managementFee.toFixed(2)).toBe('54.79');
    expect(cls(days.get('2024-06-29')!).managementFee.toFixed(2)).toBe(
      d('999945.21').times('0.02').div(365).toDecimalPlaces(2).toFixed(2),
    );
  });

  it('a missing price fails the day with a reason instead of guessing', () => {
    const terms = fund({});
    const first = run(terms, '2024-06-27', '2024-06-28', {}).get('2024-06-28')!;
    const failed = valueDay(terms, first.state, {
      date: '2024-06-29',
      prices: new Map(),
      trades: [],
      transfers: [],
      flows: [],
      expenses: [],
      manualPnl: ZERO,
    });
    expect(failed).toEqual({ ok: false, date: '2024-06-29', reason: 'missing price for X on 2024-06-29' });
  });

  it('books a short at proceeds and realizes the gain on cover', () => {
    const terms = fund({ perf: '0' });
    let state = run(terms, '2024-06-27', '2024-06-28', {}).get('2024-06-28')!.state;
    const day = (date: string, price: string, trades: DayInputs['trades']) => {
      const r = valueDay(terms, state, {
        date,
        prices: new Map([
          ['X', d(price)],
          ['Y', d(price)],
        ]),
        trades,
        transfers: [],
        flows: [],
        expenses: [],
        manualPnl: ZERO,
      });
      if (!r.ok) throw new Error(r.reason);
      state = r.state;
      return r;
    };
    const short = day('2024-06-29', '50', [
      {
        ref: 'S',
        executedAt: '2024-06-29T10:00:00Z',
        connection: 'bank',
        symbol: 'Y',
        side: 'sell',
        quantity: d(100),
        price: d(50),
        fee: d(1),
      },
    ]);
    expect(short.entries[0].lines.find((l) => l.accountCode === '2300')!.credit.toFixed(2)).toBe('5000.00');
    const cover = day('2024-06-30', '40', [
      {
        ref: 'C',
        executedAt: '2024-06-30T10:00:00Z',
        connection: 'bank',
        symbol: 'Y',
        side: 'buy',
        quantity: d(100),
        price: d(40),
        fee: d(1),
      },
    ]);
    const trade = cover.entries.find((e) => e.source === 'trade')!;
    expect(trade.lines.find((l) => l.accountCode === '4000')!.credit.toFixed(2)).toBe('1000.00');
    expect(trade.lines.find((l) => l.accountCode === '2300')!.debit.toFixed(2)).toBe('5000.00');
  });

  it("two classes share the day's P&L by gross capital: an accrued performance fee is still the class's money at work", () => {
    // Class A (20 %, annual) and fee-exempt Class M, 1 000 000 each at 100; all 2 000 000 in X at 100.
    // X: 120 (A accrues 0.2 × 20 × 10 000 = 40 000), then 132 (+10 %): each class's gross assets earn 10 %.
    const terms: FundTerms = {
      ...fund({ freq: 'annual' }),
      classes: [
        { ...fund({ freq: 'annual' }).classes[0] },
        { ...fund({ exempt: true, perf: '0' }).classes[0], id: 'M', name: 'Class M' },
      ],
    };
    const subscribe = (classId: string) =>
      flowOf(`S-${classId}`, 'subscription', `inv-${classId}`, { amount: 1_000_000 }, classId);
    const buy = {
      ref: 'T1',
      executedAt: '2024-05-02T10:00:00Z',
      connection: 'bank',
      symbol: 'X',
      side: 'buy' as const,
    };
    const days: [string, string, DayInputs['trades'], FlowEvent[]][] = [
      ['2024-05-01', '100', [], [subscribe('A'), subscribe('M')]],
      ['2024-05-02', '100', [{ ...buy, quantity: d(20_000), price: d(100), fee: ZERO }], []],
      ['2024-05-03', '120', [], []],
      ['2024-05-04', '132', [], []],
    ];
    let state: EngineState = emptyState();
    let last: DayValuation | null = null;
    for (const [date, price, trades, flows] of days) {
      const r = valueDay(terms, state, {
        date,
        prices: new Map([['X', d(price)]]),
        trades,
        transfers: [],
        flows,
        expenses: [],
        manualPnl: ZERO,
      });
      if (!r.ok) throw new Error(r.reason);
      state = r.state;
      last = r;
    }
    const [a, m] = [last!.classes.find((c) => c.classId === 'A')!, last!.classes.find((c) => c.classId === 'M')!];
    expect(a.pnl.toFixed(2)).toBe('120000.00'); // by net capital it was 117 966.10
    expect(m.pnl.toFixed(2)).toBe('120000.00');
    expect(last!.state.lots.find((l) => l.classId === 'A')!.accrued.toFixed(2)).toBe('64000.00'); // 0.2 × 32 × 10 000
    expect(a.nav.toFixed(2)).toBe('1256000.00');
    expect(m.nav.toFixed(2)).toBe('1320000.00');
    expect(last!.summary.nav.toFixed(2)).toBe('2576000.00');
  });
});
