import { PerformanceService } from './performance.service';
import type { RiskRepository } from './risk.repository';

/** A class launched (fund.json) on 1 January whose first subscription came on 1 March. */
function serviceWith(series: { d: string; gnav: string }[]): PerformanceService {
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
  });
});
