import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TEST_EVENT_TYPE } from './event-types';
import type { SendResult } from './sender';
import { SqlRepository } from '../database/sql-repository';

/** PostgreSQL LISTEN/NOTIFY channel: an event was committed to the outbox of this database. */
export const OUTBOX_CHANNEL = 'fundgate_outbox';
/** An event committed while `after` undispatched events, all younger than `withinMs`, exist sends no NOTIFY. */
export interface NotifyCoalescing {
  after: number;
  withinMs: number;
}
export const NOTIFY_COALESCING: NotifyCoalescing = { after: 3, withinMs: 50 };
/**
 * Token of the optional constructor parameter, so Nest can build the repository: no module provides
 * it, so the app always runs with NOTIFY_COALESCING; tests construct the repository with a wider window.
 */
const NOTIFY_COALESCING_TOKEN = Symbol('NotifyCoalescing');

export interface DeliveryRef {
  id: string;
  generation: number;
}

export interface DueDelivery extends DeliveryRef {
  subscription_id: string;
  fund_id?: string;
}

export interface LostJobSuspect extends DeliveryRef {
  job_id: string | null;
}

export interface ClaimedAttempt {
  id: string;
  generation: number;
  subscription_id: string;
  attempt_no: number;
  url: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  body: string;
}

export interface DeliveryFacts {
  id: string;
  status: string;
  generation: number;
  held: boolean;
  deleted: boolean;
  enabled: boolean;
  type: string;
}

/** What one attempt of a delivery came to; `status` is the delivery's state after it. */
export interface AttemptOutcome extends DeliveryRef {
  attemptNo: number;
  result: SendResult;
  status: 'succeeded' | 'cancelled' | 'failed' | 'pending';
  gone: boolean;
  /** Pending: how long after this outcome the next attempt is due (BullMQ's backoff); else null. */
  retryInMs: number | null;
}

/**
 * The delivery pipeline's SQL: fan-out of outbox events into deliveries, enqueue bookkeeping, the
 * lost-job sweep (outbox dispatcher), and the claims and outcomes of a batch of attempts, one
 * statement each (delivery processor).
 * Nest builds it over the DataSource; `with(m)` binds it to a transaction (the enqueue, an event write).
 */
/** Days without one successful delivery after which a final failure disables a subscription. */
export const FAILING_DAYS = 3;
const FAILING_DISABLED_REASON = `no delivery reached the receiver for ${FAILING_DAYS} days and its deliveries keep failing: fix the receiver, then re-enable`;

@Injectable()
export class DeliveriesRepository extends SqlRepository {
  constructor(
    @InjectDataSource() db: DataSource,
    @Optional() @Inject(NOTIFY_COALESCING_TOKEN) private readonly coalescing: NotifyCoalescing = NOTIFY_COALESCING,
  ) {
    super(db);
  }

  /**
   * An outbox event, in the caller's transaction. Its NOTIFY is delivered when (and only if) it
   * commits, and is left out in a burst: when the `coalescing.after` newest undispatched events
   * are all younger than `coalescing.withinMs`, a dispatcher is already awake for them and passes
   * again at once after every pass that moved anything. Each notifying commit takes PostgreSQL's
   * notify-queue lock until it ends, which serializes commits (a burst committed about 2× slower).
   */
  async insertEvent(e: {
    id: string;
    fundId: string;
    type: string;
    body: string;
    onlySubscriptionId: string | null;
    createdAt: string;
  }): Promise<void> {
    await this.prepared(
      'webhook_insert_event',
      `WITH e AS (INSERT INTO webhook_events (id, fund_id, type, body, only_subscription_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING 1),
       newest AS (SELECT created_at FROM webhook_events WHERE dispatched_at IS NULL ORDER BY seq DESC LIMIT $8)
       SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM e
        WHERE (SELECT count(*) FROM newest WHERE created_at > clock_timestamp() - make_interval(secs => $7)) < $8`,
      [
        e.id,
        e.fundId,
        e.type,
        e.body,
        e.onlySubscriptionId,
        e.createdAt,
        this.coalescing.withinMs / 1000,
        this.coalescing.after,
      ],
    );
  }

  /** Events not yet dispatched become one delivery per matching subscription; answers how many events. */
  async fanOut(batch: number): Promise<number> {
    const rows = await this.prepared(
      'webhook_fan_out',
      `WITH ev AS (
         SELECT id, fund_id, type, only_subscription_id FROM webhook_events
          WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED
       ), ins AS (
         INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, created_at)
         SELECT gen_random_uuid(), ev.id, s.id, ev.fund_id, 'pending', clock_timestamp()
           FROM ev JOIN webhook_subscriptions s ON s.fund_id = ev.fund_id AND s.deleted_at IS NULL
          WHERE (ev.only_subscription_id IS NULL AND s.enabled AND ev.type = ANY (s.event_types))
             OR s.id = ev.only_subscription_id
         ON CONFLICT (event_id, subscription_id) DO NOTHING
       )
       UPDATE webhook_events e SET dispatched_at = clock_timestamp() FROM ev WHERE e.id = ev.id RETURNING e.id`,
      [batch],
    );
    return rows.length;
  }

  /** Pending deliveries not yet handed to BullMQ, locked (inside the enqueue transaction). */
  async lockDueForEnqueue(batch: number): Promise<DueDelivery[]> {
    return this.prepared<DueDelivery>(
      'webhook_lock_due',
      `SELECT id, generation, subscription_id, fund_id FROM webhook_deliveries WHERE enqueued_at IS NULL AND status = 'pending'
          ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batch],
    );
  }

  /** One statement for the whole pass: each delivery is enqueued in the job named beside it. */
  async markEnqueued(ids: string[], jobIds: string[]): Promise<void> {
    await this.prepared(
      'webhook_mark_enqueued',
      `UPDATE webhook_deliveries d SET enqueued_at = clock_timestamp(), job_id = j.job_id
         FROM unnest($1::uuid[], $2::text[]) AS j(id, job_id) WHERE d.id = j.id`,
      [ids, jobIds],
    );
  }

  /** Pending deliveries enqueued longer ago than `afterSeconds` and not held by an attempt. */
  async lostJobSuspects(afterSeconds: number): Promise<LostJobSuspect[]> {
    return this.q.query(
      `SELECT id, generation, job_id FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at < clock_timestamp() - make_interval(secs => $1)
          AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
        ORDER BY enqueued_at LIMIT 200`,
      [afterSeconds],
    );
  }

  /** Hands a delivery whose job is gone back to the enqueue step. */
  async requeue(d: DeliveryRef): Promise<void> {
    await this.q.query(
      `UPDATE webhook_deliveries SET enqueued_at = NULL, job_id = NULL, next_attempt_at = NULL
        WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      [d.id, d.generation],
    );
  }

  /** A delivery whose job ended without a recorded outcome: failed, retryable by hand. */
  async failLost(d: DeliveryRef): Promise<void> {
    await this.q.query(
      `UPDATE webhook_deliveries SET status = 'failed', completed_at = clock_timestamp(), next_attempt_at = NULL
        WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      [d.id, d.generation],
    );
  }

  /**
   * One statement for a batch: claims the next attempt of each delivery's current generation that
   * is pending, not held by another attempt and whose subscription is live, and records each
   * attempt row (UNIQUE (delivery, attempt_no)). Rows are locked in id order (concurrent claims of
   * overlapping batches wait, never deadlock); a row still locked by the enqueue transaction that
   * made this job is waited for, as the single-row claim did.
   */
  async claim(refs: DeliveryRef[], holdSeconds: number): Promise<ClaimedAttempt[]> {
    if (refs.length === 0) return [];
    return this.prepared<ClaimedAttempt>(
      'webhook_claim',
      `WITH l AS (
         SELECT d.id FROM webhook_deliveries d JOIN unnest($1::uuid[], $2::int[]) AS r(id, generation)
             ON d.id = r.id AND d.generation = r.generation
          WHERE d.status = 'pending' AND (d.claimed_until IS NULL OR d.claimed_until < clock_timestamp())
          ORDER BY d.id FOR UPDATE OF d
       ), c AS (
         UPDATE webhook_deliveries d SET attempt_count = d.attempt_count + 1, last_attempt_at = clock_timestamp(),
                claimed_until = clock_timestamp() + make_interval(secs => $3), next_attempt_at = NULL
           FROM l, webhook_subscriptions s, webhook_events e
          WHERE d.id = l.id AND s.id = d.subscription_id AND e.id = d.event_id
            AND s.deleted_at IS NULL AND (s.enabled OR e.type = $4)
          RETURNING d.id, d.generation, d.subscription_id, d.attempt_count AS attempt_no, d.last_attempt_at, s.url,
                    s.signing_secret, s.previous_signing_secret, s.previous_secret_expires_at, e.id AS event_id, e.body
       ), a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt_no, attempted_at) SELECT id, attempt_no, last_attempt_at FROM c
       )
       SELECT * FROM c`,
      [refs.map((r) => r.id), refs.map((r) => r.generation), holdSeconds, TEST_EVENT_TYPE],
    );
  }

  async facts(deliveryIds: string[]): Promise<DeliveryFacts[]> {
    if (deliveryIds.length === 0) return [];
    return this.q.query(
      `SELECT d.id, d.status, d.generation, d.claimed_until > clock_timestamp() AS held, s.deleted_at IS NOT NULL AS deleted, s.enabled, e.type
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id = ANY ($1::uuid[])`,
      [deliveryIds],
    );
  }

  async cancel(refs: DeliveryRef[]): Promise<void> {
    if (refs.length === 0) return;
    await this.q.query(
      `UPDATE webhook_deliveries d SET status = 'cancelled', completed_at = clock_timestamp(), claimed_until = NULL,
              next_attempt_at = NULL
         FROM unnest($1::uuid[], $2::int[]) AS r(id, generation)
        WHERE d.id = r.id AND d.generation = r.generation AND d.status = 'pending'`,
      [refs.map((r) => r.id), refs.map((r) => r.generation)],
    );
  }

  /**
   * One statement for a batch: each attempt's outcome, each delivery's state, and the disabling of
   * subscriptions: those that answered 410, and those where a delivery has just failed for good and
   * nothing reached the receiver for FAILING_DAYS (an endpoint down for days would otherwise cost
   * every event eight attempts, for ever). A delivery left pending is due again `retryInMs` after
   * this statement (`next_attempt_at`): its job fails just after it, and BullMQ waits that long from
   * then, so the attempt comes at that time or a little later (clock skew between the worker and
   * PostgreSQL aside). Every other outcome clears it.
   */
  async record(outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const col = <T>(f: (o: AttemptOutcome) => T) => outcomes.map(f);
    await this.prepared(
      'webhook_record',
      `WITH o AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::boolean[],
                              $12::bigint[])
             AS o(id, generation, attempt_no, status_code, latency_ms, error, response_snippet, status, gone, retry_in_ms)
       ), a AS (
         UPDATE webhook_attempts a SET status_code = o.status_code, latency_ms = o.latency_ms, error = o.error,
                response_snippet = o.response_snippet
           FROM o WHERE a.delivery_id = o.id AND a.attempt_no = o.attempt_no
       ), d AS (
         UPDATE webhook_deliveries d SET status = o.status, claimed_until = NULL,
                completed_at = CASE WHEN o.status = 'pending' THEN NULL ELSE clock_timestamp() END,
                next_attempt_at = clock_timestamp() + o.retry_in_ms * interval '1 millisecond'
           -- a delivery cancelled while its attempt was in flight (its subscription deleted) stays cancelled
           FROM o WHERE d.id = o.id AND d.generation = o.generation AND d.status = 'pending'
         RETURNING d.subscription_id, o.gone, o.status
       )
       UPDATE webhook_subscriptions s SET enabled = false, updated_at = now(),
              disabled_reason = CASE WHEN s.id IN (SELECT subscription_id FROM d WHERE gone)
                                     THEN 'the receiver answered 410 Gone' ELSE $10 END
         WHERE s.id IN (SELECT subscription_id FROM d WHERE gone OR status = 'failed') AND s.enabled
           AND (s.id IN (SELECT subscription_id FROM d WHERE gone)
                OR (s.id NOT IN (SELECT subscription_id FROM d WHERE status = 'succeeded')
                    AND s.created_at < now() - make_interval(days => $11)
                    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries x
                                     WHERE x.subscription_id = s.id AND x.status = 'succeeded'
                                       AND x.completed_at > now() - make_interval(days => $11))))`,
      [
        col((o) => o.id),
        col((o) => o.generation),
        col((o) => o.attemptNo),
        col((o) => o.result.statusCode),
        col((o) => o.result.latencyMs),
        col((o) => o.result.error),
        col((o) => o.result.responseSnippet),
        col((o) => o.status),
        col((o) => o.gone),
        FAILING_DISABLED_REASON,
        FAILING_DAYS,
        col((o) => o.retryInMs),
      ],
    );
  }
}
