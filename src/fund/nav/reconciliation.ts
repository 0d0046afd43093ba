import { Decimal } from '../money';
import type { NavRunRepository } from './nav-run.repository';

export interface ReconciliationRow {
  valuationDate: string;
  shadowNav: string;
  administratorNav: string;
  difference: string;
  differenceRatio: string;
  withinTolerance: boolean;
  status: ReconciliationStatus;
}

/**
 * within_tolerance / break: the comparison; not_valued: no complete run on that date (not run yet,
 * or it failed); stale: the run predates something booked on or before its date (funds.nav_restart_from)
 * and will be superseded by the next run.
 */
export type ReconciliationStatus = 'within_tolerance' | 'break' | 'not_valued' | 'stale';

/** Shadow NAV vs the administrator's: difference = shadow − administrator, ratio over the administrator's NAV. */
export function reconcile(
  valuationDate: string,
  shadowNav: Decimal,
  administratorNav: Decimal,
  toleranceRatio: Decimal,
): ReconciliationRow {
  const difference = shadowNav.minus(administratorNav);
  const ratio = administratorNav.isZero() ? new Decimal(0) : difference.dividedBy(administratorNav);
  // judged on the ratio as served, so the flag never contradicts the figures beside it
  const served = ratio.toDecimalPlaces(8);
  const within = served.abs().lte(toleranceRatio);
  return {
    valuationDate,
    shadowNav: shadowNav.toFixed(2),
    administratorNav: administratorNav.toFixed(2),
    difference: difference.toFixed(2),
    differenceRatio: served.toFixed(8),
    withinTolerance: within,
    status: within ? 'within_tolerance' : 'break',
  };
}

/** A figure the administrator sent for a date, and when it was imported (null: before fundgate kept their history). */
export interface AdministratorVersion {
  nav: string;
  importedAt: Date | null;
}

/** A figure the administrator replaced: when it was imported, and when the import that replaced it ran. */
export interface AdministratorRestatement {
  administratorNav: string;
  importedAt: string | null;
  replacedAt: string;
}

/**
 * The administrator's history for a date, from all its figures oldest first (the last is the current
 * one): when the current figure was imported, and each earlier figure, latest first, replaced when
 * the next was imported. Only the first figure may lack its import time (it predates the history).
 */
export function administratorHistory(versions: AdministratorVersion[]): {
  currentImportedAt: string | null;
  restatements: AdministratorRestatement[];
} {
  const iso = (t: Date | null) => (t === null ? null : new Date(t).toISOString());
  const restatements: AdministratorRestatement[] = [];
  for (let i = versions.length - 2; i >= 0; i--) {
    const replacedAt = iso(versions[i + 1].importedAt);
    if (replacedAt === null) throw new Error(`administrator NAV version ${i + 2} has no import time`);
    restatements.push({
      administratorNav: new Decimal(versions[i].nav).toFixed(2),
      importedAt: iso(versions[i].importedAt),
      replacedAt,
    });
  }
  return { currentImportedAt: iso(versions.at(-1)?.importedAt ?? null), restatements };
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
