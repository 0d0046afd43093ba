import { OPERATING_COST_CALCULATOR_DEFAULTS, operatingCostCalculator } from './operating-cost-calculator.engine';
import { type OperatingCostInput } from './operating-costs';

const zero: OperatingCostInput = {
  financeHireUsd: 0,
  fundAdminUsd: 0,
  complianceUsd: 0,
  riskDeskUsd: 0,
  lpReportsPerYear: 0,
  costPerReportUsd: 0,
  auditUsd: 0,
  legalUsd: 0,
  softwareUsd: 0,
  aumUsd: 50_000_000,
};

describe('operating-cost-calculator engine', () => {
  it('defaults by hand: 180 + 120 + 60 + 90 + 120 × 0.4 + 75 + 50 + 40 = 663 thousand', () => {
    const a = operatingCostCalculator(OPERATING_COST_CALCULATOR_DEFAULTS);
    expect(a.totalAnnualCostUsd).toBe(663_000);
    expect(a.costPerLpReportUsd).toBe(5_525); // 663 000 / 120
    expect(a.costBpOfAum).toBe(66.3); // 663 000 / 100 M
    expect(a.lineItems.map((l) => [l.item, l.annualUsd])).toEqual([
      ['financeHire', 180_000],
      ['fundAdmin', 120_000],
      ['compliance', 60_000],
      ['riskDesk', 90_000],
      ['lpReporting', 48_000],
      ['audit', 75_000],
      ['legal', 50_000],
      ['software', 40_000],
    ]);
    expect(a.lineItems[0].shareOfTotalPct).toBe(27.1493);
    expect(a.lineItems.reduce((s, l) => s + (l.shareOfTotalPct ?? 0), 0)).toBeCloseTo(100, 3);
    expect(a.assumptions).toEqual(OPERATING_COST_CALCULATOR_DEFAULTS);
    expect(a.disclaimer).toMatch(/not accounting or tax advice/);
  });

  it.each([
    {
      name: 'no reports: no cost per report',
      input: { ...zero, auditUsd: 10_000 },
      total: 10_000,
      perReport: null,
      bp: 2,
    },
    {
      name: 'reports only',
      input: { ...zero, lpReportsPerYear: 40, costPerReportUsd: 250.5 },
      total: 10_020,
      perReport: 250.5,
      bp: 2,
    },
    { name: 'nothing at all', input: zero, total: 0, perReport: null, bp: 0 },
    {
      name: 'cents survive',
      input: { ...zero, legalUsd: 0.1, softwareUsd: 0.2, lpReportsPerYear: 3, costPerReportUsd: 0.1 },
      total: 0.6,
      perReport: 0.2,
      bp: 0,
    },
  ])('$name', ({ input, total, perReport, bp }) => {
    const a = operatingCostCalculator(input);
    expect(a.totalAnnualCostUsd).toBe(total);
    expect(a.costPerLpReportUsd).toBe(perReport);
    expect(a.costBpOfAum).toBe(bp);
    if (total === 0) expect(a.lineItems.every((l) => l.shareOfTotalPct === null)).toBe(true);
  });
});
