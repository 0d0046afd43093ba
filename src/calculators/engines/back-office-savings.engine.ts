import { bpOf, cents, type Dec, dec, DISCLAIMER, HUNDRED, pctOf, ratio, sum, ZERO } from './numeric';
import {
  COST_ITEM_LABELS,
  type CostItem,
  costLines,
  OPERATING_COST_DEFAULTS,
  type OperatingCostInput,
} from './operating-costs';

export const BACK_OFFICE_SAVINGS_DEFAULTS = OPERATING_COST_DEFAULTS;

/**
 * The automated model, stated in full in every answer. Reductions are shares of today's
 * in-house cost that automation plausibly removes; the platform cost is added on top.
 * These are planning assumptions, not quotes.
 */
export const AUTOMATION_MODEL: { item: CostItem; reductionPct: number; rationale: string }[] = [
  {
    item: 'financeHire',
    reductionPct: 50,
    rationale:
      'Reconciliations, NAV roll-forward and capital accounts are computed; staff review instead of building spreadsheets.',
  },
  {
    item: 'fundAdmin',
    reductionPct: 0,
    rationale: 'An independent administrator is still engaged; the shadow NAV checks it rather than replaces it.',
  },
  {
    item: 'compliance',
    reductionPct: 15,
    rationale: 'Activity log and maker-checker records shorten evidence gathering.',
  },
  { item: 'riskDesk', reductionPct: 40, rationale: 'Exposure, VaR and stress tests come from the books daily.' },
  {
    item: 'lpReporting',
    reductionPct: 75,
    rationale: 'Reports are generated from the ledger; review and distribution remain.',
  },
  { item: 'audit', reductionPct: 10, rationale: 'A double-entry audit trail shortens fieldwork.' },
  { item: 'legal', reductionPct: 0, rationale: 'Unchanged.' },
  { item: 'software', reductionPct: 0, rationale: 'Existing tools are kept (conservative).' },
];
export const PLATFORM_ANNUAL_USD = 24_000;
export const IMPLEMENTATION_ONE_TIME_USD = 15_000;

export interface BackOfficeSavingsAnswer {
  assumptions: OperatingCostInput & {
    automationModel: typeof AUTOMATION_MODEL;
    platformAnnualUsd: number;
    implementationOneTimeUsd: number;
  };
  inHouseAnnualUsd: number;
  automatedAnnualUsd: number;
  annualSavingsUsd: number;
  savingsPct: number | null;
  savingsBpOfAum: number | null;
  implementationOneTimeUsd: number;
  /** Months of savings that repay the one-time cost; null when there are no savings. */
  paybackMonths: number | null;
  fiveYearNetSavingsUsd: number;
  lineItems: {
    item: CostItem | 'platform';
    label: string;
    inHouseUsd: number;
    automatedUsd: number;
    savingsUsd: number;
  }[];
  disclaimer: string;
}

/** In-house cost vs the automated model above: savings in USD and bp of AUM, payback in months. */
export function backOfficeSavings(input: OperatingCostInput): BackOfficeSavingsAnswer {
  const reduction = new Map(AUTOMATION_MODEL.map((m) => [m.item, dec(m.reductionPct).div(HUNDRED)]));
  const lines = costLines(input).map(
    (l): { item: CostItem | 'platform'; label: string; inHouse: Dec; automated: Dec } => {
      const automated = l.annual.times(dec(1).minus(reduction.get(l.item) ?? ZERO));
      return { item: l.item, label: COST_ITEM_LABELS[l.item], inHouse: l.annual, automated };
    },
  );
  lines.push({
    item: 'platform',
    label: 'Automation platform subscription (assumed)',
    inHouse: ZERO,
    automated: dec(PLATFORM_ANNUAL_USD),
  });
  const inHouse = sum(lines.map((l) => l.inHouse));
  const automated = sum(lines.map((l) => l.automated));
  const savings = inHouse.minus(automated);
  const aum = dec(input.aumUsd);
  const positive = savings.isPositive() && !savings.isZero();
  return {
    assumptions: {
      ...input,
      automationModel: AUTOMATION_MODEL,
      platformAnnualUsd: PLATFORM_ANNUAL_USD,
      implementationOneTimeUsd: IMPLEMENTATION_ONE_TIME_USD,
    },
    inHouseAnnualUsd: cents(inHouse),
    automatedAnnualUsd: cents(automated),
    annualSavingsUsd: cents(savings),
    savingsPct: inHouse.isZero() ? null : pctOf(savings.div(inHouse)),
    savingsBpOfAum: aum.isZero() ? null : bpOf(savings.div(aum)),
    implementationOneTimeUsd: IMPLEMENTATION_ONE_TIME_USD,
    paybackMonths: positive ? ratio(dec(IMPLEMENTATION_ONE_TIME_USD).div(savings.div(12)), 1) : null,
    fiveYearNetSavingsUsd: cents(savings.times(5).minus(IMPLEMENTATION_ONE_TIME_USD)),
    lineItems: lines.map((l) => ({
      item: l.item,
      label: l.label,
      inHouseUsd: cents(l.inHouse),
      automatedUsd: cents(l.automated),
      savingsUsd: cents(l.inHouse.minus(l.automated)),
    })),
    disclaimer: DISCLAIMER,
  };
}
