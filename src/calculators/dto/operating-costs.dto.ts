import { ApiProperty } from '@nestjs/swagger';
import { OPERATING_COST_DEFAULTS as D } from '../engines/operating-costs';
import { dec } from '../engines/numeric';
import { CrossFieldRule, NumberField } from './field.decorators';
import { MAX_USD, MIN_DIVISOR_USD } from './limits';

const inRange = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= MAX_USD;

const cost = (description: string, def: number) =>
  NumberField({ description: `${description}, USD a year.`, default: def, min: 0, max: MAX_USD });

/** The ten fields of operating-cost-calculator and back-office-savings. */
export class OperatingCostRequest {
  @cost('Finance and operations staff (salary and overhead)', D.financeHireUsd) financeHireUsd?: number;
  @cost('Fund administrator fees', D.fundAdminUsd) fundAdminUsd?: number;
  @cost('Compliance (staff, consultants, filings)', D.complianceUsd) complianceUsd?: number;
  @cost('Risk desk (staff and tools)', D.riskDeskUsd) riskDeskUsd?: number;

  @NumberField({
    // the interface types it as a number (it writes `integer` where it means one): an average such as 4.5 is fine
    description: 'LP reports produced a year (every investor, every period); a number, an average may be fractional.',
    default: D.lpReportsPerYear,
    min: 0,
    max: 1_000_000,
  })
  lpReportsPerYear?: number;

  @NumberField({
    description: `Cost to produce one LP report, USD; the LP reporting line (lpReportsPerYear × this) must be at most ${MAX_USD}.`,
    default: D.costPerReportUsd,
    min: 0,
    max: MAX_USD,
  })
  @CrossFieldRule('reportingLineBound', (value, body) => {
    const reports = body.lpReportsPerYear === undefined ? D.lpReportsPerYear : body.lpReportsPerYear;
    if (!inRange(value) || typeof reports !== 'number' || !(reports >= 0 && reports <= 1_000_000)) return null;
    // decimal.js: the float product could round across the bound
    return dec(reports).times(value).gt(MAX_USD)
      ? `times lpReportsPerYear (${reports}) is the LP reporting line, which must be at most ${MAX_USD} USD`
      : null;
  })
  costPerReportUsd?: number;

  @cost('Annual audit', D.auditUsd) auditUsd?: number;
  @cost('Legal', D.legalUsd) legalUsd?: number;
  @cost('Software and data', D.softwareUsd) softwareUsd?: number;

  @NumberField({ description: 'Assets under management, USD.', default: D.aumUsd, min: MIN_DIVISOR_USD, max: MAX_USD })
  aumUsd?: number;
}

export class OperatingCostAssumptions {
  @ApiProperty() financeHireUsd: number;
  @ApiProperty() fundAdminUsd: number;
  @ApiProperty() complianceUsd: number;
  @ApiProperty() riskDeskUsd: number;
  @ApiProperty() lpReportsPerYear: number;
  @ApiProperty() costPerReportUsd: number;
  @ApiProperty() auditUsd: number;
  @ApiProperty() legalUsd: number;
  @ApiProperty() softwareUsd: number;
  @ApiProperty() aumUsd: number;
}

const COST_ITEMS = ['financeHire', 'fundAdmin', 'compliance', 'riskDesk', 'lpReporting', 'audit', 'legal', 'software'];

class CostLine {
  @ApiProperty({ enum: COST_ITEMS }) item: string;
  @ApiProperty() label: string;
  @ApiProperty() annualUsd: number;
  @ApiProperty({ type: 'number', nullable: true }) shareOfTotalPct: number | null;
}

export class OperatingCostResponse {
  @ApiProperty({ type: OperatingCostAssumptions }) assumptions: OperatingCostAssumptions;
  @ApiProperty() totalAnnualCostUsd: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Total annual cost / LP reports a year; null with no reports.',
  })
  costPerLpReportUsd: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Total annual cost in basis points of AUM.' })
  costBpOfAum: number | null;
  @ApiProperty({ type: [CostLine] }) lineItems: CostLine[];
  @ApiProperty() disclaimer: string;
}

class AutomationAssumption {
  @ApiProperty({ enum: COST_ITEMS }) item: string;
  @ApiProperty() reductionPct: number;
  @ApiProperty() rationale: string;
}

class SavingsAssumptions extends OperatingCostAssumptions {
  @ApiProperty({ type: [AutomationAssumption], description: 'The automated model, item by item.' })
  automationModel: AutomationAssumption[];
  @ApiProperty() platformAnnualUsd: number;
  @ApiProperty() implementationOneTimeUsd: number;
}

class SavingsLine {
  @ApiProperty({ enum: [...COST_ITEMS, 'platform'] }) item: string;
  @ApiProperty() label: string;
  @ApiProperty() inHouseUsd: number;
  @ApiProperty() automatedUsd: number;
  @ApiProperty() savingsUsd: number;
}

export class BackOfficeSavingsResponse {
  @ApiProperty({ type: SavingsAssumptions }) assumptions: SavingsAssumptions;
  @ApiProperty() inHouseAnnualUsd: number;
  @ApiProperty() automatedAnnualUsd: number;
  @ApiProperty({ description: 'Negative when automation costs more than it saves.' }) annualSavingsUsd: number;
  @ApiProperty({ type: 'number', nullable: true }) savingsPct: number | null;
  @ApiProperty({ type: 'number', nullable: true }) savingsBpOfAum: number | null;
  @ApiProperty() implementationOneTimeUsd: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Months of savings repaying the one-time cost; null without savings.',
  })
  paybackMonths: number | null;
  @ApiProperty() fiveYearNetSavingsUsd: number;
  @ApiProperty({ type: [SavingsLine] }) lineItems: SavingsLine[];
  @ApiProperty() disclaimer: string;
}

export const OPERATING_COST_EXAMPLE = {
  financeHireUsd: 250_000,
  fundAdminUsd: 150_000,
  complianceUsd: 80_000,
  riskDeskUsd: 0,
  lpReportsPerYear: 200,
  costPerReportUsd: 300,
  auditUsd: 90_000,
  legalUsd: 60_000,
  softwareUsd: 45_000,
  aumUsd: 250_000_000,
};
