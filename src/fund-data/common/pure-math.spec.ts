import { D, money, qty, ratio, roundToTotal, sum, units } from './decimals';
import { nextDealingDate } from '../../fund/reporting/dealing-calendar';
import { performanceOf } from '../risk/performance.service';
import { exposureOf } from '../positions/positions.service';

const d = (v: string) => new D(v);

describe('decimal formatting', () => {
  it('writes money with exactly 2 decimals, quantities up to 10 without trailing zeros, units 8, ratios 8', () => {
    expect(money('1234.5')).toBe('1234.50');
    expect(money('-0.005')).toBe('-0.01');
    expect(qty('0.5000000000')).toBe('0.5');
    expect(qty('42.0000000000')).toBe('42');
    expect(qty('-0.00000000001')).toBe('0');
    expect(units('1')).toBe('1.00000000');
    expect(ratio('0.0125')).toBe('0.01250000');
  });

  it('rounds parts to cents so that they sum to the total exactly', () => {
    const parts = [d('1.005'), d('1.005'), d('1.005')];
    const total = d('3.02');
    const rounded = roundToTotal(parts, total);
    expect(sum(rounded).toFixed(2)).toBe('3.02');
    const neg = roundToTotal([d('-0.333'), d('-0.333'), d('-0.334')], d('-1.00'));
    expect(sum(neg).toFixed(2)).toBe('-1.00');
    expect(roundToTotal([d('10.004'), d('-5.001')], d('5.00')).map((x) => x.toFixed(2))).toEqual(['10.00', '-5.00']);
  });
});

describe('exposure', () => {
  it('splits long, short and cash (cash and stablecoins) by position', () => {
    const e = exposureOf([
      { assetClass: 'crypto', marketValue: d('100.00') },
      { assetClass: 'equity', marketValue: d('-40.00') },
      { assetClass: 'crypto', marketValue: d('-10.00') },
      { assetClass: 'stablecoin', marketValue: d('25.00') },
      { assetClass: 'cash', marketValue: d('5.00') },
    ]);
    expect([e.long, e.short, e.cash].map((x) => x.toFixed(2))).toEqual(['100.00', '50.00', '30.00']);
  });
});

describe('dealing calendar', () => {
  it('finds the next dealing date on or after today', () => {
    expect(nextDealingDate('monthly', '2026-11-22')).toBe('2026-11-30');
    expect(nextDealingDate('monthly', '2026-02-28')).toBe('2026-02-28');
    expect(nextDealingDate('quarterly', '2026-11-22')).toBe('2026-12-31');
    expect(nextDealingDate('quarterly', '2026-01-01')).toBe('2026-03-31');
    expect(nextDealingDate('weekly', '2026-11-22')).toBe('2026-11-27'); // Sunday → Friday
    expect(nextDealingDate('daily', '2026-11-22')).toBe('2026-11-22');
  });
});

describe('performance from NAV per unit', () => {
  const launch = { d: '2025-12-31', npu: d('100') };
  const points = [
    { d: '2025-12-31', npu: d('100') },
    { d: '2026-01-15', npu: d('110') },
    { d: '2026-01-31', npu: d('105') },
    { d: '2026-02-10', npu: d('84') },
    { d: '2026-02-28', npu: d('94.5') },
  ];
  const p = performanceOf('Class A', launch, points);

  it('period returns against the last NAV before each period', () => {
    expect(p.asOf).toBe('2026-02-28');
    expect(p.returns.mtd).toBe('-0.10000000'); // 94.5 / 105 − 1
    expect(p.returns.ytd).toBe('-0.05500000'); // 94.5 / 100 − 1
    expect(p.returns.qtd).toBe('-0.05500000');
    expect(p.returns.itd).toBe('-0.05500000');
  });

  it('monthly table, drawdown from the running peak, annualized volatility', () => {
    expect(p.monthly).toEqual([
      { month: '2025-12', return: '0.00000000' },
      { month: '2026-01', return: '0.05000000' },
      { month: '2026-02', return: '-0.10000000' },
    ]);
    expect(p.maxDrawdown).toBe('-0.23636364'); // 84 / 110 − 1
    expect(D.isDecimal(d(p.annualizedVolatility!))).toBe(true);
    expect(d(p.annualizedVolatility!).isPositive()).toBe(true);
  });

  it('answers nulls before any run', () => {
    expect(performanceOf('Class B', launch, []).returns.itd).toBeNull();
  });
});
