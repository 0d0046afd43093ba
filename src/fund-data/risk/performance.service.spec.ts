import { PerformanceService } from './performance.service';
import type { RiskRepository } from './risk.repository';

/** A class launched (fund.json) on 1 January whose first subscription came on 1 March. */
function serviceWith(series: { d: string; gnav: string | null }[]): PerformanceService {
  const repo = {
    shareClass: async () => ({
      id: 'A',
      name: 'Class A',
      initial_nav_per_unit: '100',
      launch_date: '2024-01-01',
      perf_fee_rate: '0.2',
      hurdle_annual_rate: '0.06',
      crystallization_frequency: 'annual',
      fee_exempt: false,
    }),
    classGrossNavPerUnitSeries: async () => series,
  } as unknown as RiskRepository;
  return new PerformanceService(repo);
}

describe('performance: the lead series starts when the class first has units', () => {
  it('hurdle clock and ITD from the first issue date, not an earlier launch date', async () => {
    const answer = await serviceWith([
      { d: '2024-03-01', gnav: '100' },
      { d: '2024-06-30', gnav: '104' },
    ]).performance('fund');
    // threshold 100 × 1.06^(121/365) = 101.9505…; fee 0.2 × (104 − 101.9505) = 0.4099; value 103.5901
    // (from 1 January the threshold was 102.9300 and the ITD 3.786 %)
    expect(Number(answer.returns.itd)).toBeCloseTo(0.035901, 5);
    expect(answer.monthly[0].month).toBe('2024-03');
    expect(answer.returns.annualizedItd).toBeNull(); // 121 days: not annualised
  });

  it('a year of history is annualised', async () => {
    const answer = await serviceWith([
      { d: '2024-03-01', gnav: '100' },
      { d: '2025-03-01', gnav: '104' },
    ]).performance('fund');
    expect(answer.returns.annualizedItd).toBe(answer.returns.itd); // exactly 365 days
  });

  it('units issued before the launch date in fund.json start the series there (no month is dropped)', async () => {
    const answer = await serviceWith([
      { d: '2023-12-15', gnav: '100' },
      { d: '2023-12-31', gnav: '101' },
      { d: '2024-01-31', gnav: '103' },
    ]).performance('fund');
    expect(answer.monthly.map((m) => m.month)).toEqual(['2023-12', '2024-01']);
    // from the 15 December issue: 101 − 0.2 × (101 − 100 × 1.06^(16/365)) = 100.85115
    expect(answer.monthly[0].return).toBe('0.00851150');
  });

  it('a class emptied and relaunched at its initial price is chain-linked: no loss across the gap', async () => {
    const answer = await serviceWith([
      { d: '2024-01-01', gnav: '100' },
      { d: '2024-06-30', gnav: '130' },
      { d: '2024-07-01', gnav: null }, // everyone redeemed
      { d: '2024-08-31', gnav: null },
      { d: '2024-09-01', gnav: '100' }, // relaunched at 100
      { d: '2024-09-30', gnav: '101' },
    ]).performance('fund');
    const month = (m: string) => answer.monthly.find((x) => x.month === m)?.return;
    // the reissued lot: HWM 100 on 1 September; on 30 September 101 − 0.2 × (101 − 100 × 1.06^(29/365)) = 100.89281
    expect(month('2024-09')).toBe('0.00892806');
    expect(answer.maxDrawdown).toBe('0.00000000'); // carried into the new price it read −19 %
  });
});
