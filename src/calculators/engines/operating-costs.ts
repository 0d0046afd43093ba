import type Decimal from 'decimal.js';
import { dec } from './numeric';

/** The ten fields operating-cost-calculator and back-office-savings share (annual USD unless noted). */
export interface OperatingCostInput {
  financeHireUsd: number;
  fundAdminUsd: number;
  complianceUsd: number;
  riskDeskUsd: number;
  /** LP reports produced a year (all investors, all periods). */
  lpReportsPerYear: number;
  /** Cost of producing one LP report (people time, review, distribution). */
  costPerReportUsd: number;
  auditUsd: number;
  legalUsd: number;
  softwareUsd: number;
  aumUsd: number;
}

/** A small fund: 100 M USD, one finance hire, quarterly reports to 30 LPs. */
export const OPERATING_COST_DEFAULTS: OperatingCostInput = {
  financeHireUsd: 180_000,
  fundAdminUsd: 120_000,
  complianceUsd: 60_000,
  riskDeskUsd: 90_000,
  lpReportsPerYear: 120,
  costPerReportUsd: 400,
  auditUsd: 75_000,
  legalUsd: 50_000,
  softwareUsd: 40_000,
  aumUsd: 100_000_000,
};

export type CostItem =
  'financeHire' | 'fundAdmin' | 'compliance' | 'riskDesk' | 'lpReporting' | 'audit' | 'legal' | 'software';

export const COST_ITEM_LABELS: Record<CostItem, string> = {
  financeHire: 'Finance and operations staff',
  fundAdmin: 'Fund administrator',
  compliance: 'Compliance',
  riskDesk: 'Risk desk',
  lpReporting: 'LP report production',
  audit: 'Annual audit',
  legal: 'Legal',
  software: 'Software and data',
};

/** The annual line items in a fixed order. */
export function costLines(input: OperatingCostInput): { item: CostItem; annual: Decimal }[] {
  return [
    { item: 'financeHire', annual: dec(input.financeHireUsd) },
    { item: 'fundAdmin', annual: dec(input.fundAdminUsd) },
    { item: 'compliance', annual: dec(input.complianceUsd) },
    { item: 'riskDesk', annual: dec(input.riskDeskUsd) },
    { item: 'lpReporting', annual: dec(input.lpReportsPerYear).times(input.costPerReportUsd) },
    { item: 'audit', annual: dec(input.auditUsd) },
    { item: 'legal', annual: dec(input.legalUsd) },
    { item: 'software', annual: dec(input.softwareUsd) },
  ];
}
