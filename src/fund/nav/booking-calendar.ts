import { type Queryable } from '../../database/queryable';
import { type IsoDate } from '../dates';

/**
 * The fund's calendar for anything booked into its books (an approved proposal, an imported row):
 * the inception day, and the last published NAV — the books are closed through it.
 */
export async function bookingDates(
  q: Queryable,
  fundId: string,
): Promise<{ inception: IsoDate | null; closedThrough: IsoDate | null }> {
  const [row] = await q.query(
    `SELECT to_char(f.inception_date, 'YYYY-MM-DD') AS inception,
            (SELECT to_char(max(r.valuation_date), 'YYYY-MM-DD') FROM nav_runs r
              WHERE r.fund_id = f.id AND r.published_at IS NOT NULL) AS "closedThrough"
       FROM funds f WHERE f.id = $1`,
    [fundId],
  );
  return row ?? { inception: null, closedThrough: null };
}

/**
 * Something booked on or before a complete NAV run's date: the next run starts there at the latest
 * (`funds.nav_restart_from`), superseding the runs valued without it, instead of the books and the
 * NAV silently disagreeing. Answers whether a run must be redone.
 */
export async function restartNavFrom(q: Queryable, fundId: string, date: IsoDate): Promise<boolean> {
  const [rows] = await q.query(
    `UPDATE funds SET nav_restart_from = LEAST(coalesce(nav_restart_from, $2::date), $2::date)
      WHERE id = $1 AND EXISTS (SELECT 1 FROM nav_runs r WHERE r.fund_id = $1 AND r.status = 'complete'
                                  AND r.valuation_date >= $2::date)
      RETURNING id`,
    [fundId, date],
  ); // an UPDATE answers [rows, count]
  return (rows as unknown[]).length > 0;
}
