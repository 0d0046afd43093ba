/**
 * The wait before a delivery job's next attempt, after its `failedAttempts`-th failed one (1 after the
 * first): `delays[0]`, then `delays[1]`, …, the last step repeated past the end (the job's attempts
 * are `delays.length + 1`, so it is not reached). BullMQ's backoffStrategy waits this long (it passes
 * the job's attemptsMade, already counting the failure), and the same figure dates a pending
 * delivery's `next_attempt_at`: one function, so the time shown is the time the worker waits for.
 */
export function retryDelayMs(delays: readonly number[], failedAttempts: number): number {
  return delays[Math.min(Math.max(failedAttempts, 1), delays.length) - 1];
}
