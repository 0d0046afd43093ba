import {
  AUTOMATION_MODEL,
  BACK_OFFICE_SAVINGS_DEFAULTS,
  backOfficeSavings,
  IMPLEMENTATION_ONE_TIME_USD,
  PLATFORM_ANNUAL_USD,
} from './back-office-savings.engine';

describe('back-office-savings engine', () => {
  it('defaults by hand: 663 000 in-house vs 508 500 automated', () => {
    const a = backOfficeSavings(BACK_OFFICE_SAVINGS_DEFAULTS);
    // 90 000 + 120 000 + 51 000 + 54 000 + 12 000 + 67 500 + 50 000 + 40 000 + 24 000 platform
    expect(a.inHouseAnnualUsd).toBe(663_000);
    expect(a.automatedAnnualUsd).toBe(508_500);
    expect(a.annualSavingsUsd).toBe(154_500);
    expect(a.savingsPct).toBe(23.3032);
    expect(a.savingsBpOfAum).toBe(15.45);
    expect(a.paybackMonths).toBe(1.2); // 15 000 / (154 500 / 12)
    expect(a.fiveYearNetSavingsUsd).toBe(757_500);
    expect(a.lineItems.find((l) => l.item === 'platform')).toEqual({
      item: 'platform',
      label: 'Automation platform subscription (assumed)',
      inHouseUsd: 0,
      automatedUsd: PLATFORM_ANNUAL_USD,
      savingsUsd: -PLATFORM_ANNUAL_USD,
    });
    expect(a.lineItems.find((l) => l.item === 'financeHire')).toMatchObject({
      inHouseUsd: 180_000,
      automatedUsd: 90_000,
      savingsUsd: 90_000,
    });
  });

  it('states every assumption it used', () => {
    const a = backOfficeSavings(BACK_OFFICE_SAVINGS_DEFAULTS);
    expect(a.assumptions.automationModel).toEqual(AUTOMATION_MODEL);
    expect(a.assumptions.automationModel.map((m) => m.item).sort()).toEqual([
      'audit',
      'compliance',
      'financeHire',
      'fundAdmin',
      'legal',
      'lpReporting',
      'riskDesk',
      'software',
    ]);
    expect(a.assumptions).toMatchObject({
      platformAnnualUsd: PLATFORM_ANNUAL_USD,
      implementationOneTimeUsd: IMPLEMENTATION_ONE_TIME_USD,
      aumUsd: 100_000_000,
    });
  });

  it('a tiny back office loses money by automating: negative savings, no payback', () => {
    const a = backOfficeSavings({
      ...BACK_OFFICE_SAVINGS_DEFAULTS,
      financeHireUsd: 10_000,
      complianceUsd: 0,
      riskDeskUsd: 0,
      lpReportsPerYear: 4,
      costPerReportUsd: 100,
    });
    // saves 5 000 + 300 + 7 500 (audit), pays 24 000
    expect(a.annualSavingsUsd).toBe(-11_200);
    expect(a.paybackMonths).toBeNull();
    expect(a.fiveYearNetSavingsUsd).toBe(-71_000);
  });
});
