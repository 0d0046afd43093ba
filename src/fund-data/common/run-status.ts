/**
 * A NAV run's status as the reads serve it: a complete run dated on or after `funds.nav_restart_from`
 * is `stale` — something was booked on or before its date since it ran (an approved proposal, an
 * import), or a run was cut short, so the NAV must be run again from that date (POST
 * /api/v1/admin/nav-runs) and the run that replaces it is `complete`. The reconciliation's word too.
 */
export function servedRunStatus(status: string, stale: boolean): string {
  return stale && status === 'complete' ? 'stale' : status;
}

/** The served statuses' meaning, for the OpenAPI descriptions. */
export const STALE_RUN_DOC =
  'stale: a complete run that something booked on or before its date since (an approved proposal, an import), or a run cut short, has made out of date; its figures are its own; the NAV must be run again from that date and the new run is complete';
