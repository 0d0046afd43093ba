import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlRepository } from '../database/sql-repository';
import { utcMicros } from '../database/sql-fragments';
import { fundLockKey } from '../database/sql-fragments';

export interface SubscriptionRow {
  id: string;
  fund_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  subscription_id: string;
  status: string;
  attempt_count: number;
  created_at: Date;
  /** created_at as its exact cursor key (utcMicros). */
  created_key: string;
  last_attempt_at: Date | null;
  completed_at: Date | null;
  /** Pending after a failed attempt: when the next one is due; else null. */
  next_attempt_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt_no: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_snippet: string | null;
}

/** Fund-scoped, intention-named queries for subscriptions and their deliveries. */
@Injectable()
export class WebhooksRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  async insertSubscription(s: {
    id: string;
    fundId: string;
    url: string;
    eventTypes: string[];
    description: string | null;
    secret: string;
    keyId: string | null;
    userId: string | null;
  }): Promise<SubscriptionRow> {
    const rows = await this.q.query(
      `INSERT INTO webhook_subscriptions (id, fund_id, url, event_types, description, signing_secret, created_by_key_id, created_by_user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [s.id, s.fundId, s.url, s.eventTypes, s.description, s.secret, s.keyId, s.userId],
    );
    return rows[0];
  }

  /**
   * The fund's subscriptions (not deleted), counted under a fund-scoped transaction lock that every
   * create takes first: two creates at once cannot both pass the cap.
   */
  async lockedSubscriptionCount(fundId: string): Promise<number> {
    await this.q.query(`SELECT pg_advisory_xact_lock(${fundLockKey('webhook-subscriptions', '$1')})`, [fundId]);
    const [row] = await this.q.query(
      `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE fund_id = $1 AND deleted_at IS NULL`,
      [fundId],
    );
    return row.n;
  }

  async subscriptionsOfFund(fundId: string): Promise<SubscriptionRow[]> {
    return this.q.query(
      `SELECT * FROM webhook_subscriptions WHERE fund_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [fundId],
    );
  }

  async subscriptionOfFund(fundId: string, id: string): Promise<SubscriptionRow | null> {
    const rows = await this.q.query(
      `SELECT * FROM webhook_subscriptions WHERE fund_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [fundId, id],
    );
    return rows[0] ?? null;
  }

  /** What a holder did: each act chose where events go or handed out the secret (append-only). */
  async addHolder(
    subscriptionId: string,
    holder: { keyId: string | null; userId: string | null },
    act: 'created' | 'url_changed' | 'enabled' | 'secret_rotated',
  ): Promise<void> {
    if (!holder.keyId && !holder.userId) return;
    await this.q.query(
      `INSERT INTO webhook_subscription_holders (subscription_id, key_id, user_id, act) VALUES ($1, $2, $3, $4)`,
      [subscriptionId, holder.keyId, holder.userId, act],
    );
  }

  /**
   * Disables the fund's subscriptions a person holds (created, redirected, re-enabled or re-keyed,
   * in a console session or with a key they minted): the person is leaving, or no longer manages
   * webhooks, and chose the URL or saw the signing secret. Answers how many were enabled.
   */
  async disableHeldBy(fundId: string, userId: string, reason: string): Promise<number> {
    const [rows] = await this.q.query(
      `UPDATE webhook_subscriptions SET enabled = false, disabled_reason = $3, updated_at = now()
        WHERE fund_id = $1 AND enabled AND deleted_at IS NULL
          AND id IN (SELECT h.subscription_id FROM webhook_subscription_holders h
                      WHERE h.user_id = $2 OR h.key_id IN (SELECT id FROM api_keys WHERE created_by_user_id = $2))
        RETURNING id`,
      [fundId, userId, reason],
    ); // an UPDATE answers [rows, count]
    return rows.length;
  }

  async updateSubscription(
    fundId: string,
    id: string,
    patch: { url?: string; eventTypes?: string[]; description?: string | null; enabled?: boolean },
  ): Promise<SubscriptionRow | null> {
    const [rows] = await this.q.query(
      `UPDATE webhook_subscriptions SET
         url = COALESCE($3, url),
         event_types = COALESCE($4, event_types),
         description = CASE WHEN $5::boolean THEN $6 ELSE description END,
         enabled = COALESCE($7, enabled),
         disabled_reason = CASE WHEN $7 IS TRUE THEN NULL ELSE disabled_reason END,
         updated_at = now()
       WHERE fund_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING *`,
      [
        fundId,
        id,
        patch.url ?? null,
        patch.eventTypes ?? null,
        patch.description !== undefined,
        patch.description ?? null,
        patch.enabled ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  /**
   * Soft-deletes a subscription and, in the same statement, cancels its pending deliveries (as a
   * job that finds its subscription gone cancels them): none waits in the queue for its next
   * attempt, and the deliveries list shows them ended at once.
   */
  async deleteSubscription(fundId: string, id: string): Promise<boolean> {
    const rows = await this.q.query(
      `WITH s AS (
         UPDATE webhook_subscriptions SET deleted_at = now(), enabled = false, updated_at = now()
          WHERE fund_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id
       ), c AS (
         UPDATE webhook_deliveries d SET status = 'cancelled', completed_at = clock_timestamp(), claimed_until = NULL,
                next_attempt_at = NULL
           FROM s WHERE d.subscription_id = s.id AND d.status = 'pending'
       )
       SELECT id FROM s`,
      [fundId, id],
    );
    return rows.length > 0;
  }

  /** The old secret keeps signing until `overlapUntil`; the new one signs from now on. */
  async rotateSecret(fundId: string, id: string, secret: string, overlapUntil: Date): Promise<SubscriptionRow | null> {
    const [rows] = await this.q.query(
      `UPDATE webhook_subscriptions SET previous_signing_secret = signing_secret, previous_secret_expires_at = $4,
         signing_secret = $3, updated_at = now()
       WHERE fund_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING *`,
      [fundId, id, secret, overlapUntil],
    );
    return rows[0] ?? null;
  }

  async deliveriesOfSubscription(
    subscriptionId: string,
    limit: number,
    after: { createdAt: string; id: string } | null,
  ): Promise<DeliveryRow[]> {
    return this.q.query(
      `SELECT d.id, d.event_id, e.type AS event_type, d.subscription_id, d.status, d.attempt_count, d.created_at,
              ${utcMicros('d.created_at')} AS created_key, d.last_attempt_at, d.completed_at, d.next_attempt_at
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.subscription_id = $1
          AND ($2::timestamptz IS NULL OR (d.created_at, d.id) < ($2::timestamptz, $3::uuid))
        ORDER BY d.created_at DESC, d.id DESC LIMIT $4`,
      [subscriptionId, after?.createdAt ?? null, after?.id ?? null, limit],
    );
  }

  async attemptsOf(deliveryIds: string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.q.query(
      `SELECT delivery_id, attempt_no, attempted_at, status_code, latency_ms, error, response_snippet
         FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_no`,
      [deliveryIds],
    );
  }

  async deliveryOfSubscription(subscriptionId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const rows = await this.q.query(
      `SELECT d.id, d.event_id, e.type AS event_type, d.subscription_id, d.status, d.attempt_count, d.created_at,
              d.last_attempt_at, d.completed_at, d.next_attempt_at
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.subscription_id = $1 AND d.id = $2`,
      [subscriptionId, deliveryId],
    );
    return rows[0] ?? null;
  }

  /** A manual retry (or a resend of one that succeeded) starts a new generation of the delivery; the dispatcher enqueues it. */
  async requeueDelivery(subscriptionId: string, deliveryId: string): Promise<boolean> {
    const [, count] = await this.q.query(
      `UPDATE webhook_deliveries SET status = 'pending', generation = generation + 1, enqueued_at = NULL,
              claimed_until = NULL, completed_at = NULL, next_attempt_at = NULL
        WHERE subscription_id = $1 AND id = $2 AND status IN ('failed', 'cancelled', 'succeeded')`,
      [subscriptionId, deliveryId],
    );
    return count > 0;
  }
}
