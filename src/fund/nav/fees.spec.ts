import { Decimal } from '../money';
import { hurdleThreshold, lotPerformanceFee, managementFeeAccrual } from './fees';

const d = (v: Decimal.Value) => new Decimal(v);

describe('management fee (ACT/365 on class NAV at the start of the day)', () => {
  it.each([
    ['0.02', '1000000', false, 1, '54.79'],
    ['0.02', '100000000', false, 365, '2000000.00'],
    ['0.015', '36500000', false, 1, '1500.00'],
    ['0.02', '1000000', true, 1, '0.00'],
    ['0.02', '0', false, 1, '0.00'],
  ])('rate %s on %s (exempt %s, %i days) = %s', (rate, nav, exempt, days, expected) => {
    expect(managementFeeAccrual(d(rate), d(nav), exempt, days).toFixed(2)).toBe(expected);
  });
});

describe('hard compounded hurdle', () => {
  it('grows the HWM by (1 + h)^(days / 365)', () => {
    expect(hurdleThreshold(d(100), d('0.05'), '2024-01-01', '2024-12-31').toFixed(6)).toBe('105.000000');
    expect(hurdleThreshold(d(100), d('0.05'), '2024-01-01', '2024-07-01').toFixed(6)).toBe(
      d(100)
        .times(d('1.05').pow(d(182).div(365)))
        .toFixed(6),
    );
    expect(hurdleThreshold(d(100), null, '2024-01-01', '2024-12-31').toFixed(6)).toBe('100.000000');
  });
});

describe('performance fee per lot', () => {
  const base = {
    perfFeeRate: d('0.2'),
    hurdleAnnualRate: d('0.05'),
    feeExempt: false,
    hwmPerUnit: d(100),
    hwmDate: '2024-01-01',
    units: d(10000),
    date: '2024-12-31',
  };
  it.each([
    ['hurdle not met: GNAV 104 < 105', '104', '0.00'],
    ['exactly at the hurdle', '105', '0.00'],
    ['above the hurdle: 20 % of (106 − 105) × 10 000', '106', '2000.00'],
    ['below the HWM after a loss', '95', '0.00'],
  ])('%s', (_name, gnav, expected) => {
    expect(lotPerformanceFee({ ...base, grossNavPerUnit: d(gnav) }).toFixed(2)).toBe(expected);
  });
  it('a fee-exempt class never accrues', () => {
    expect(lotPerformanceFee({ ...base, feeExempt: true, grossNavPerUnit: d(200) }).toFixed(2)).toBe('0.00');
  });
  it('without a hurdle the HWM itself is the threshold', () => {
    expect(lotPerformanceFee({ ...base, hurdleAnnualRate: null, grossNavPerUnit: d(101) }).toFixed(2)).toBe('2000.00');
  });

  it('reproduces the fund-domain vector: 100, +12 %/yr, 2/20, 4 % hurdle, HWM, annual, 3 years', () => {
    // Unit form of the vector: 1 000 000 units at 100; the fee is settled by cancelling units at GNAV and the HWM resets to GNAV.
    let units = d(1_000_000);
    let nav = d(100_000_000);
    let hwm = d(100);
    const mgmt: string[] = [];
    const perf: string[] = [];
    const years = [
      ['2021-01-01', '2022-01-01'],
      ['2022-01-01', '2023-01-01'],
      ['2023-01-01', '2024-01-01'],
    ];
    for (const [hwmDate, date] of years) {
      const gross = nav.times('1.12');
      const m = managementFeeAccrual(d('0.02'), nav, false, 365);
      const gnav = gross.minus(m).div(units);
      const fee = lotPerformanceFee({
        perfFeeRate: d('0.2'),
        hurdleAnnualRate: d('0.04'),
        feeExempt: false,
        grossNavPerUnit: gnav,
        hwmPerUnit: hwm,
        hwmDate,
        units,
        date,
      });
      mgmt.push(m.toFixed(2));
      perf.push(fee.toFixed(2));
      nav = gross.minus(m).minus(fee);
      units = units.minus(fee.div(gnav).toDecimalPlaces(8));
      hwm = gnav;
    }
    expect(mgmt).toEqual(['2000000.00', '2176000.00', '2367488.00']);
    expect(perf).toEqual(['1200000.00', '1305600.00', '1420492.80']);
    expect(nav.toFixed(2)).toBe('128791347.20');
  });
});
