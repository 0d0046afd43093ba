import { bpOf, cents, dec, DISCLAIMER, pctOf, sum } from './numeric';
import {
  COST_ITEM_LABELS,
  type CostItem,
  costLines,
  OPERATING_COST_DEFAULTS,
  type OperatingCostInput,
} from './operating-costs';

export type { OperatingCostInput };
export const OPERATING_COST_CALCULATOR_DEFAULTS = OPERATING_COST_DEFAULTS;

export interface OperatingCostAnswer {
  assumptions: OperatingCostInput;
  totalAnnualCostUsd: number;
  /** All-in annual cost divided by the number of LP reports; null when no reports are produced. */
  costPerLpReportUsd: number | null;
  costBpOfAum: number | null;
  lineItems: { item: CostItem; label: string; annualUsd: number; shareOfTotalPct: number | null }[];
  disclaimer: string;
}

/** Annual in-house operating cost: line items, their shares, per LP report and in bp of AUM. */
export function operatingCostCalculator(input: OperatingCostInput): OperatingCostAnswer {
  const lines = costLines(input);
  const total = sum(lines.map((l) => l.annual));
  const aum = dec(input.aumUsd);
  return {
    assumptions: { ...input },
    totalAnnualCostUsd: cents(total),
    costPerLpReportUsd: input.lpReportsPerYear > 0 ? cents(total.div(input.lpReportsPerYear)) : null,
    costBpOfAum: aum.isZero() ? null : bpOf(total.div(aum)),
    lineItems: lines.map((l) => ({
      item: l.item,
      label: COST_ITEM_LABELS[l.item],
      annualUsd: cents(l.annual),
      shareOfTotalPct: total.isZero() ? null : pctOf(l.annual.div(total)),
    })),
    disclaimer: DISCLAIMER,
  };
}
