import { TEST_EVENT_TYPE } from './event-types';
import type { SendResult } from './sender';
import { SqlRepository } from '../database/sql-repository';

/** PostgreSQL LISTEN/NOTIFY channel: an event was committed to the outbox of this database. */
export const OUTBOX_CHANNEL = 'fundgate_outbox';

export interface DeliveryRef {
  id: string;
  generation: number;
}

export interface ClaimedAttempt {
  attempt_no: number;
  url: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  body: string;
}

export interface DeliveryFacts {
  status: string;
  generation: number;
  held: boolean;
  deleted: boolean;
  enabled: boolean;
  type: string;
}

/**
 * The delivery pipeline's SQL: fan-out of outbox events into deliveries, enqueue bookkeeping, the
 * lost-job sweep (outbox dispatcher), and each attempt's claim and outcome (delivery processor).
 * Built over the DataSource, or over the enqueue transaction's manager.
 */
export class DeliveriesRepository extends SqlRepository {
  /** An outbox event, in the caller's transaction; the NOTIFY is delivered when (and only if) it commits. */
  async insertEvent(e: {
    id: string;
    fundId: string;
    type: string;
    body: string;
    onlySubscriptionId: string | null;
    createdAt: string;
  }): Promise<void> {
    await this.q.query(
      `WITH e AS (INSERT INTO webhook_events (id, fund_id, type, body, only_subscription_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING 1)
       SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM e`,
      [e.id, e.fundId, e.type, e.body, e.onlySubscriptionId, e.createdAt],
    );
  }

  /** Events not yet dispatched become one delivery per matching subscription; answers how many events. */
  async fanOut(batch: number): Promise<number> {
    const rows: unknown[] = await this.q.query(
      `WITH ev AS (
         SELECT id, fund_id, type, only_subscription_id FROM webhook_events
          WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${batch} FOR UPDATE SKIP LOCKED
       ), ins AS (
         INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, created_at)
         SELECT gen_random_uuid(), ev.id, s.id, ev.fund_id, 'pending', clock_timestamp()
           FROM ev JOIN webhook_subscriptions s ON s.fund_id = ev.fund_id AND s.deleted_at IS NULL
          WHERE (ev.only_subscription_id IS NULL AND s.enabled AND ev.type = ANY (s.event_types))
             OR s.id = ev.only_subscription_id
         ON CONFLICT (event_id, subscription_id) DO NOTHING
       )
       UPDATE webhook_events e SET dispatched_at = clock_timestamp() FROM ev WHERE e.id = ev.id RETURNING e.id`,
    );
    return Array.isArray(rows[0]) ? (rows[0] as unknown[]).length : rows.length;
  }

  /** Pending deliveries not yet handed to BullMQ, locked (inside the enqueue transaction). */
  async lockDueForEnqueue(batch: number): Promise<DeliveryRef[]> {
    return this.q.query(
      `SELECT id, generation FROM webhook_deliveries WHERE enqueued_at IS NULL AND status = 'pending'
          ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`,
    );
  }

  async markEnqueued(ids: string[]): Promise<void> {
    await this.q.query(`UPDATE webhook_deliveries SET enqueued_at = clock_timestamp() WHERE id = ANY ($1::uuid[])`, [
      ids,
    ]);
  }

  /** Pending deliveries enqueued longer ago than `afterSeconds` and not held by an attempt. */
  async lostJobSuspects(afterSeconds: number): Promise<DeliveryRef[]> {
    return this.q.query(
      `SELECT id, generation FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at < clock_timestamp() - make_interval(secs => $1)
          AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
        ORDER BY enqueued_at LIMIT 200`,
      [afterSeconds],
    );
  }

  /** Hands a delivery whose job is gone back to the enqueue step. */
  async requeue(d: DeliveryRef): Promise<void> {
    await this.q.query(
      `UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      [d.id, d.generation],
    );
  }

  /** A delivery whose job ended without a recorded outcome: failed, retryable by hand. */
  async failLost(d: DeliveryRef): Promise<void> {
    await this.q.query(
      `UPDATE webhook_deliveries SET status = 'failed', completed_at = clock_timestamp() WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      [d.id, d.generation],
    );
  }

  /** Claims the next attempt of a delivery's current generation (null: not claimable now). */
  async claim(deliveryId: string, generation: number, holdSeconds: number): Promise<ClaimedAttempt | null> {
    const rows: ClaimedAttempt[] = await this.q.query(
      `WITH c AS (
         UPDATE webhook_deliveries d SET attempt_count = d.attempt_count + 1, last_attempt_at = clock_timestamp(),
                claimed_until = clock_timestamp() + make_interval(secs => $3)
           FROM webhook_subscriptions s, webhook_events e
          WHERE d.id = $1 AND d.generation = $2 AND d.status = 'pending'
            AND (d.claimed_until IS NULL OR d.claimed_until < clock_timestamp())
            AND s.id = d.subscription_id AND e.id = d.event_id
            AND s.deleted_at IS NULL AND (s.enabled OR e.type = $4)
          RETURNING d.id, d.attempt_count AS attempt_no, d.last_attempt_at, s.url, s.signing_secret, s.previous_signing_secret,
                    s.previous_secret_expires_at, e.id AS event_id, e.body
       ), a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt_no, attempted_at) SELECT id, attempt_no, last_attempt_at FROM c
       )
       SELECT * FROM c`,
      [deliveryId, generation, holdSeconds, TEST_EVENT_TYPE],
    );
    return rows[0] ?? null;
  }

  async facts(deliveryId: string): Promise<DeliveryFacts | null> {
    const rows: DeliveryFacts[] = await this.q.query(
      `SELECT d.status, d.generation, d.claimed_until > clock_timestamp() AS held, s.deleted_at IS NOT NULL AS deleted, s.enabled, e.type
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return rows[0] ?? null;
  }

  async cancel(deliveryId: string, generation: number): Promise<void> {
    await this.q.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', completed_at = clock_timestamp(), claimed_until = NULL
                            WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      [deliveryId, generation],
    );
  }

  /** One statement: the attempt's outcome, the delivery's state, and a 410's disabling of the subscription. */
  async record(
    deliveryId: string,
    generation: number,
    attemptNo: number,
    r: SendResult,
    status: string,
    gone: boolean,
  ): Promise<void> {
    await this.q.query(
      `WITH a AS (
         UPDATE webhook_attempts SET status_code = $3, latency_ms = $4, error = $5, response_snippet = $6 WHERE delivery_id = $1 AND attempt_no = $2
       ), d AS (
         UPDATE webhook_deliveries SET status = $7, claimed_until = NULL,
                completed_at = CASE WHEN $7 = 'pending' THEN NULL ELSE clock_timestamp() END
          WHERE id = $1 AND generation = $8 RETURNING subscription_id
       )
       UPDATE webhook_subscriptions s SET enabled = false, disabled_reason = 'the receiver answered 410 Gone', updated_at = now()
         FROM d WHERE $9::boolean AND s.id = d.subscription_id`,
      [deliveryId, attemptNo, r.statusCode, r.latencyMs, r.error, r.responseSnippet, status, generation, gone],
    );
  }
}
