import { ProblemError } from '../common/errors/problem';
import type { Queryable } from './queryable';

/**
 * A timestamptz column as its exact cursor key: UTC, ISO 8601, all six fractional digits, whatever
 * the session's DateStyle and TimeZone. A JS Date keeps only milliseconds (a cursor built from one
 * can skip rows of the same millisecond), and `::text` follows the session's settings.
 */
export const utcMicros = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The advisory-lock key of a fund's NAV inputs (`fundId`: an SQL expression of the fund's id, a uuid
 * or its text; hashed in the uuid's canonical spelling). A NAV run holds it for its whole run (a
 * transaction lock on a connection of its own), an import for its transaction, each before any row
 * lock of the fund: a run never values days from inputs an import is replacing, and two runs of one
 * fund never interleave.
 */
export const navInputsLockKey = (fundId: string): string => fundLockKey('nav-inputs', fundId);

/** The advisory-lock key of one `purpose` of a fund (`fundId`: an SQL expression of its id). */
export const fundLockKey = (purpose: string, fundId: string): string =>
  `hashtextextended('fundgate:${purpose}:' || (${fundId})::uuid::text, 0)`;

/** A wait for a lock that gave up: lock_timeout (55P03) or statement_timeout (57014). */
export const isLockWaitTimeout = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  return code === '55P03' || code === '57014';
};

/**
 * Takes the fund's NAV-inputs lock for the rest of `q`'s transaction, within the transaction's
 * lock_timeout; a wait that gives up becomes `busy()` (each caller says what to do next).
 */
export async function lockNavInputs(q: Queryable, fundId: string, busy: () => Error): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(${navInputsLockKey('$1')})`, [fundId]).catch((err: unknown) => {
    if (!isLockWaitTimeout(err)) throw err;
    throw Object.assign(busy(), { cause: err });
  });
}

/**
 * The NAV-inputs lock taken by a request (an approval, a publication): a wait that gives up is a
 * 409 saying to `retry` when the run, import or approval holding it has finished.
 */
export async function lockNavInputsForRequest(q: Queryable, fundId: string, retry: string): Promise<void> {
  await lockNavInputs(
    q,
    fundId,
    () =>
      new ProblemError(
        'invalid_state',
        `a NAV run, an import or an approval of this fund is in progress; ${retry} again when it has finished`,
      ),
  );
}
