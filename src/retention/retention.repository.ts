import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SqlRepository } from '../database/sql-repository';

/** What one batch of the activity sweep moved: rows deleted, of which anonymous (deleted without a count); done: nothing older is left to find. */
export interface ActivityBatch {
  moved: number;
  anonymous: number;
  done: boolean;
}

/** What one batch of the webhook sweep deleted. */
export interface DeliveryBatch {
  deliveries: number;
  attempts: number;
}

/**
 * The retention sweeps' SQL. Each batch is ONE statement, so it is atomic and short: what it deletes
 * and what it adds in its place commit together, and a reader (one statement too) sees either all of
 * a batch or none of it.
 */
@Injectable()
export class RetentionRepository extends SqlRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /**
   * The activity rows before `cutoff` among the `span` lowest ids leave activity_log and are added to
   * their day's counts in activity_daily (per key, person, method and route; errors are statuses
   * ≥ 400, as /usage counts them). Ids are assigned when rows are written, a second or so after their
   * requests, so the lowest ids are the oldest rows: the batch is a primary-key range, and no index on
   * occurred_at is kept for it (one index entry less per request on the hot write path). `done`: the
   * range reached the cutoff (it holds a row from the cutoff on; the few rows that were written out of
   * order behind it go with a later day's run) or the log is empty. Rows with neither key nor person
   * (keyless calculator calls) are deleted uncounted: no /usage ever shows them. Only the rows this
   * statement deleted are counted (RETURNING), so two sweeps racing over the same rows never count one
   * twice; a day cut by the batch boundary is added to by the next batch (the upsert sums).
   */
  async moveActivityBatch(cutoff: Date, span: number): Promise<ActivityBatch> {
    const [row] = await this.q.query(
      `WITH range AS (SELECT min(id) AS lo FROM activity_log),
       gone AS (
         DELETE FROM activity_log
          WHERE id >= (SELECT lo FROM range) AND id < (SELECT lo FROM range) + $2 AND occurred_at < $1
         RETURNING occurred_at, key_id, user_id, method, route, status
       ), counted AS (
         INSERT INTO activity_daily AS t (day, key_id, user_id, method, route, requests, errors)
         SELECT (occurred_at AT TIME ZONE 'UTC')::date, key_id, user_id, method, route,
                count(*), count(*) FILTER (WHERE status >= 400)
           FROM gone WHERE key_id IS NOT NULL OR user_id IS NOT NULL
          GROUP BY 1, 2, 3, 4, 5
         ON CONFLICT (key_id, day, user_id, method, route)
         DO UPDATE SET requests = t.requests + EXCLUDED.requests, errors = t.errors + EXCLUDED.errors
       )
       SELECT count(*)::int AS moved, count(*) FILTER (WHERE key_id IS NULL AND user_id IS NULL)::int AS anonymous,
              (SELECT lo IS NULL FROM range) OR EXISTS (
                SELECT 1 FROM activity_log
                 WHERE id >= (SELECT lo FROM range) AND id < (SELECT lo FROM range) + $2 AND occurred_at >= $1
              ) AS done
         FROM gone`,
      [cutoff, span],
    );
    return row as ActivityBatch;
  }

  /**
   * The `limit` ended deliveries (succeeded, failed or cancelled) whose last change is before `cutoff`,
   * oldest first, with their attempts (webhook_attempts references them without ON DELETE CASCADE:
   * both deletes are in this one statement). The rows are locked and re-checked first, skipping any
   * another transaction holds: a manual retry turning one pending either commits first (then it is
   * not ended, and stays) or waits and then finds it gone (the retry route answers 404).
   */
  async deleteEndedDeliveries(cutoff: Date, limit: number): Promise<DeliveryBatch> {
    const [row] = await this.q.query(
      `WITH ended AS (
         SELECT id FROM webhook_deliveries
          WHERE status <> 'pending' AND completed_at < $1
          ORDER BY completed_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), attempts AS (
         DELETE FROM webhook_attempts WHERE delivery_id = ANY (ARRAY(SELECT id FROM ended)) RETURNING 1
       ), deliveries AS (
         DELETE FROM webhook_deliveries WHERE id = ANY (ARRAY(SELECT id FROM ended)) RETURNING 1
       )
       SELECT (SELECT count(*) FROM deliveries)::int AS deliveries, (SELECT count(*) FROM attempts)::int AS attempts`,
      [cutoff, limit],
    );
    return row as DeliveryBatch;
  }

  /**
   * The `limit` oldest events created before `cutoff` that were dispatched (an undispatched one is
   * still in the outbox) and that no delivery references any more. Deliveries are made only from
   * undispatched events (fan-out), so a dispatched event never gains one; the row lock keeps it so.
   */
  async deleteOrphanEvents(cutoff: Date, limit: number): Promise<number> {
    const [, count] = await this.q.query(
      `WITH orphans AS (
         SELECT e.id FROM webhook_events e
          WHERE e.dispatched_at IS NOT NULL AND e.created_at < $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
          ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       DELETE FROM webhook_events WHERE id = ANY (ARRAY(SELECT id FROM orphans))`,
      [cutoff, limit],
    );
    return count as number;
  }
}
