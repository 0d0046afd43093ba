import { type DataSource } from 'typeorm';

/**
 * Runs one read whose only sensible plan is an ordered walk of an index under a LIMIT (keyset
 * pages, the first lines of a window). Sorts and bitmap scans are disabled for this transaction
 * only: without fresh planner statistics (right after a bulk import, or with autovacuum off)
 * PostgreSQL otherwise reads every matching row and sorts it — seconds instead of milliseconds,
 * and a cost that grows with the data instead of the page. JIT is off too: a node the settings
 * penalise (the final sort of a page's 100 rows) lifts the plan's cost over jit_above_cost, and
 * compiling it would take 150 ms for a sub-millisecond read.
 */
export async function orderedRead<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const qr = db.createQueryRunner('slave') as ReturnType<DataSource['createQueryRunner']> & {
    releasePostgresConnection(err?: Error): Promise<void>;
  };
  await qr.connect();
  let rows: T[];
  try {
    await qr.query(
      `BEGIN READ ONLY; SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off; SET LOCAL jit = off`,
    );
    rows = await qr.query(sql, params);
  } catch (err) {
    await qr.query('ROLLBACK').catch(() => undefined);
    await qr.release();
    throw err;
  }
  // Ending a read-only transaction changes nothing: COMMIT runs while the answer is on its way
  // (off the request's critical path); a connection whose COMMIT fails is destroyed, never reused.
  void qr.query('COMMIT').then(
    () => qr.release(),
    (err: Error) => qr.releasePostgresConnection(err),
  );
  return rows;
}
