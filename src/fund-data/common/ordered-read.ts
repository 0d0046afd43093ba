import { type DataSource } from 'typeorm';

/**
 * Runs one read whose only sensible plan is an ordered walk of an index under a LIMIT (keyset
 * pages, the first lines of a window). Sorts and bitmap scans are disabled for this transaction
 * only: without fresh planner statistics (right after a bulk import, or with autovacuum off)
 * PostgreSQL otherwise reads every matching row and sorts it — seconds instead of milliseconds,
 * and a cost that grows with the data instead of the page.
 */
export async function orderedRead<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const qr = db.createQueryRunner('slave');
  await qr.connect();
  try {
    await qr.query(`BEGIN READ ONLY; SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off`);
    const rows: T[] = await qr.query(sql, params);
    await qr.query('COMMIT');
    return rows;
  } catch (err) {
    await qr.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await qr.release();
  }
}
