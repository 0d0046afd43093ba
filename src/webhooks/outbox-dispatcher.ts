import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { bullPrefix, closeWithin, producerConnection } from './bull-connections';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const POLL_MS = 100;
const BATCH = 500;
const ENQUEUE_TIMEOUT_MS = 5000;
const SWEEP_EVERY_MS = 30_000;
/** A pending delivery enqueued this long ago and not being attempted gets its job checked. */
const LOST_AFTER_SECONDS = 60;

function withTimeout<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface DeliveryJobData {
  deliveryId: string;
  generation: number;
}

/**
 * Moves outbox rows to BullMQ (worker and all roles). Two steps, each its own transaction:
 * 1. events → one delivery row per matching subscription (same fund, subscribed to the type),
 *    event marked dispatched; 2. unenqueued deliveries → BullMQ jobs (jobId = delivery id and
 *    generation, so a re-enqueue is a no-op), marked enqueued only once Redis accepted them.
 * Redis being away fails step 2, which rolls back: the rows wait in PostgreSQL for the next tick.
 * Several dispatchers share the work with FOR UPDATE SKIP LOCKED.
 */
@Injectable()
export class OutboxDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxDispatcher');
  private queue: Queue | null = null;
  private connection: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private lastError: string | null = null;
  private nextSweepAt = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.connection = producerConnection(this.config.redisUrl);
    this.connection.on('error', () => undefined); // reported per tick instead
    this.queue = new Queue(DELIVERY_QUEUE, { connection: this.connection, prefix: bullPrefix(this.config) });
    this.queue.on('error', () => undefined);
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await withTimeout(2000, 'dispatch tick', this.running ?? Promise.resolve()).catch(() => undefined);
    if (this.queue) await closeWithin(this.connection?.status === 'ready' ? 3000 : 200, () => this.queue!.close(), () => undefined);
    this.connection?.disconnect();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .then((busy) => {
          if (this.lastError) this.logger.log('outbox dispatch recovered');
          this.lastError = null;
          this.schedule(busy ? 0 : POLL_MS);
        })
        .catch((err: Error) => {
          if (this.lastError !== err.message) this.logger.warn(`outbox dispatch failed (rows stay in PostgreSQL): ${err.message}`);
          this.lastError = err.message;
          this.schedule(1000);
        });
    }, ms);
  }

  /** One pass; true when a full batch was seen (more may be waiting). */
  async tick(): Promise<boolean> {
    const events = await this.fanOut();
    const enqueued = await this.enqueue();
    if (Date.now() >= this.nextSweepAt) {
      this.nextSweepAt = Date.now() + SWEEP_EVERY_MS;
      await this.sweepLostJobs();
    }
    return events >= BATCH || enqueued >= BATCH;
  }

  /**
   * A delivery marked enqueued whose job Redis no longer has (Redis restarted without its data,
   * a job removed by hand) would wait forever: hand it back to step 2. A job that ended while its
   * delivery is still pending (retries exhausted without a recorded outcome) marks it failed,
   * retryable by hand.
   */
  async sweepLostJobs(): Promise<number> {
    const queue = this.queue;
    if (!queue) return 0;
    const suspects: { id: string; generation: number }[] = await this.db.query(
      `SELECT id, generation FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at < clock_timestamp() - make_interval(secs => $1)
          AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
        ORDER BY enqueued_at LIMIT 200`,
      [LOST_AFTER_SECONDS],
    );
    let recovered = 0;
    for (const d of suspects) {
      const job = await withTimeout(ENQUEUE_TIMEOUT_MS, 'Redis did not answer', queue.getJob(`${d.id}-g${d.generation}`));
      const state = job ? await withTimeout(ENQUEUE_TIMEOUT_MS, 'Redis did not answer', job.getState()) : 'missing';
      if (state === 'missing' || state === 'unknown') {
        await this.db.query(`UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id = $1 AND generation = $2 AND status = 'pending'`, [d.id, d.generation]);
        recovered++;
      } else if (state === 'completed' || state === 'failed') {
        await this.db.query(`UPDATE webhook_deliveries SET status = 'failed', completed_at = clock_timestamp() WHERE id = $1 AND generation = $2 AND status = 'pending'`, [d.id, d.generation]);
      }
    }
    if (recovered > 0) this.logger.warn(`${recovered} deliveries had lost their BullMQ job; enqueued again`);
    return recovered;
  }

  private async fanOut(): Promise<number> {
    const rows: unknown[] = await this.db.query(
      `WITH ev AS (
         SELECT id, fund_id, type, only_subscription_id FROM webhook_events
          WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
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

  private async enqueue(): Promise<number> {
    const queue = this.queue;
    if (!queue) return 0;
    const attempts = this.config.webhookRetryDelaysMs.length + 1;
    return this.db.transaction(async (m) => {
      const due: { id: string; generation: number }[] = await m.query(
        `SELECT id, generation FROM webhook_deliveries WHERE enqueued_at IS NULL AND status = 'pending'
          ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (due.length === 0) return 0;
      // BullMQ waits for a connection that may never come; give up and keep the rows instead.
      await withTimeout(ENQUEUE_TIMEOUT_MS, 'Redis did not accept the jobs', queue.addBulk(due.map((d) => ({
        name: 'deliver',
        data: { deliveryId: d.id, generation: d.generation } satisfies DeliveryJobData,
        opts: {
          jobId: `${d.id}-g${d.generation}`,
          attempts,
          backoff: { type: 'schedule' },
          removeOnComplete: { age: 3600, count: 10_000 },
          removeOnFail: { age: 7 * 86_400 },
        },
      }))));
      await m.query(`UPDATE webhook_deliveries SET enqueued_at = clock_timestamp() WHERE id = ANY ($1::uuid[])`, [due.map((d) => d.id)]);
      return due.length;
    });
  }
}
