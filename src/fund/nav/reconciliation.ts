import { Decimal } from '../money';
import type { NavRunRepository } from './nav-run.repository';

export interface ReconciliationRow {
  valuationDate: string;
  shadowNav: string;
  administratorNav: string;
  difference: string;
  differenceRatio: string;
  withinTolerance: boolean;
}

/** Shadow NAV vs the administrator's: difference = shadow − administrator, ratio over the administrator's NAV. */
export function reconcile(
  valuationDate: string,
  shadowNav: Decimal,
  administratorNav: Decimal,
  toleranceRatio: Decimal,
): ReconciliationRow {
  const difference = shadowNav.minus(administratorNav);
  const ratio = administratorNav.isZero() ? new Decimal(0) : difference.dividedBy(administratorNav);
  return {
    valuationDate,
    shadowNav: shadowNav.toFixed(2),
    administratorNav: administratorNav.toFixed(2),
    difference: difference.toFixed(2),
    differenceRatio: ratio.toDecimalPlaces(8).toFixed(8),
    withinTolerance: ratio.abs().lte(toleranceRatio),
  };
}

/** Every administrator NAV that has a complete shadow run for its date, newest first. */
export async function reconciliationForFund(
  runs: NavRunRepository,
  fundId: string,
  toleranceRatio: string,
  limit = 100,
): Promise<ReconciliationRow[]> {
  const rows = await runs.reconciliationPairs(fundId, limit);
  const tolerance = new Decimal(toleranceRatio);
  return rows.map((r) => reconcile(r.d, new Decimal(r.shadow), new Decimal(r.admin), tolerance));
}
