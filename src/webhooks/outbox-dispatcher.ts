import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DeliveriesRepository, type DeliveryRef, type DueDelivery } from './deliveries.repository';
import { bullPrefix, producerConnection, shutDownBull } from './bull-connections';
import { OutboxListener } from './outbox-listener';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const POLL_MS = 100;
/**
 * While events kept coming in the last HOT_FOR_MS, an idle pass is followed by a light one (new
 * events only: one statement) this soon; a full pass still runs every POLL_MS.
 */
const HOT_POLL_MS = 20;
const HOT_FOR_MS = 1000;
const BATCH = 500;
/** Deliveries of one subscription carried by one job (claimed, sent and recorded together). */
export const JOB_BATCH = 50;
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

/** A job carries a batch of one subscription's deliveries (jobs enqueued before issue 17: one delivery). */
export interface DeliveryJobData {
  deliveries?: DeliveryRef[];
  /** Whose deliveries these are, for the processor's per-subscription and per-fund caps (absent on older jobs). */
  subscriptionId?: string;
  fundId?: string;
  deliveryId?: string;
  generation?: number;
}

export interface DeliveryJob {
  jobId: string;
  deliveries: DeliveryRef[];
}

/**
 * Groups due deliveries by subscription, in order, in jobs of at most `size`. A job is named after
 * its first delivery (`<id>-g<generation>`, the name a one-delivery job always had) and, with more
 * than one, a digest of all of them: enqueueing the same rows again after a failed commit is a
 * no-op in BullMQ, and a group that gained rows meanwhile is a new job. Named by its first delivery
 * alone, such a group was ignored as a duplicate of the job already in Redis, and its new rows were
 * marked enqueued under a job that never carried them. (A delivery in two jobs is sent once: the
 * processor's claim takes a pending delivery's current generation once.)
 */
export function deliveryJobs(due: DueDelivery[], size = JOB_BATCH): DeliveryJob[] {
  const open = new Map<string, DeliveryJob>();
  const jobs: DeliveryJob[] = [];
  for (const d of due) {
    let job = open.get(d.subscription_id);
    if (!job || job.deliveries.length >= size) {
      job = { jobId: '', deliveries: [] };
      open.set(d.subscription_id, job);
      jobs.push(job);
    }
    job.deliveries.push({ id: d.id, generation: d.generation });
  }
  for (const job of jobs) job.jobId = jobIdOf(job.deliveries);
  return jobs;
}

function jobIdOf(deliveries: DeliveryRef[]): string {
  const [first] = deliveries;
  const name = `${first.id}-g${first.generation}`;
  if (deliveries.length === 1) return name;
  const digest = createHash('sha256').update(deliveries.map((d) => `${d.id}:${d.generation}`).join(','));
  return `${name}-${digest.digest('base64url').slice(0, 16)}`;
}

/**
 * Moves outbox rows to BullMQ (worker and all roles). Two steps, each its own transaction:
 * 1. events → one delivery row per matching subscription (same fund, subscribed to the type),
 *    event marked dispatched; 2. unenqueued deliveries → BullMQ jobs, one per subscription and
 *    batch of up to JOB_BATCH of its deliveries (jobId = first delivery's id and generation, so a
 *    re-enqueue is a no-op), marked enqueued (with their job's id) only once Redis accepted them.
 * Redis being away fails step 2, which rolls back: the rows wait in PostgreSQL for the next tick.
 * Several dispatchers share the work with FOR UPDATE SKIP LOCKED. A committed event wakes the
 * dispatcher through LISTEN/NOTIFY (OutboxListener); events committed in a burst send none (see
 * DeliveriesRepository.insertEvent: a dispatcher is awake for them): a pass that moved anything is
 * followed by another at once, and for HOT_FOR_MS after the last work an idle pass by a light one
 * within HOT_POLL_MS. The 100 ms poll is the safety net.
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
  private listener: OutboxListener | null = null;
  private ticking = false;
  private woken = false;
  private lastWorkAt = 0;
  private lastFullAt = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.connection = producerConnection(this.config);
    this.connection.on('error', () => undefined); // reported per tick instead
    this.queue = new Queue(DELIVERY_QUEUE, { connection: this.connection, prefix: bullPrefix(this.config) });
    this.queue.on('error', () => undefined);
    this.schedule(0);
    this.listener = new OutboxListener(this.config.databaseUrl, () => this.wake(), this.logger);
    this.listener.start();
  }

  /** An event was committed: run now, or right after the pass in progress. */
  private wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.woken = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.listener?.stop();
    await withTimeout(2000, 'dispatch tick', this.running ?? Promise.resolve()).catch(() => undefined);
    await shutDownBull({ queue: this.queue, connections: this.connection ? [this.connection] : [] }, 3000);
  }

  /** `light`: a hot poll, which only looks for new events (the enqueue step runs when it found some). */
  private schedule(ms: number, light = false): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = true;
      this.woken = false;
      const full = !light || Date.now() - this.lastFullAt >= POLL_MS;
      if (full) this.lastFullAt = Date.now();
      this.running = this.tick(!full)
        .then((busy) => {
          this.ticking = false;
          if (this.lastError) this.logger.log('outbox dispatch recovered');
          this.lastError = null;
          if (busy) this.lastWorkAt = Date.now();
          if (busy || this.woken) return this.schedule(0);
          const hot = Date.now() - this.lastWorkAt < HOT_FOR_MS;
          this.schedule(hot ? HOT_POLL_MS : POLL_MS, hot);
        })
        .catch((err: Error) => {
          this.ticking = false;
          if (this.lastError !== err.message)
            this.logger.warn(`outbox dispatch failed (rows stay in PostgreSQL): ${err.message}`);
          this.lastError = err.message;
          this.schedule(1000);
        });
    }, ms);
  }

  /**
   * One pass; true when it moved anything (more may be waiting: the next pass runs at once).
   * A light pass (hot poll) skips the enqueue step when it found no new event.
   */
  async tick(light = false): Promise<boolean> {
    const events = await this.fanOut();
    const enqueued = light && events === 0 ? 0 : await this.enqueue();
    if (Date.now() >= this.nextSweepAt) {
      this.nextSweepAt = Date.now() + SWEEP_EVERY_MS;
      await this.sweepLostJobs();
    }
    return events > 0 || enqueued > 0;
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
    const suspects = await this.deliveries.lostJobSuspects(LOST_AFTER_SECONDS);
    let recovered = 0;
    for (const d of suspects) {
      const jobId = d.job_id ?? `${d.id}-g${d.generation}`;
      const job = await withTimeout(ENQUEUE_TIMEOUT_MS, 'Redis did not answer', queue.getJob(jobId));
      const state = job ? await withTimeout(ENQUEUE_TIMEOUT_MS, 'Redis did not answer', job.getState()) : 'missing';
      if (state === 'missing' || state === 'unknown') {
        await this.deliveries.requeue(d);
        recovered++;
      } else if (state === 'completed' || state === 'failed') {
        await this.deliveries.failLost(d);
      }
    }
    if (recovered > 0) this.logger.warn(`${recovered} deliveries had lost their BullMQ job; enqueued again`);
    return recovered;
  }

  private async fanOut(): Promise<number> {
    return this.deliveries.fanOut(BATCH);
  }

  private async enqueue(): Promise<number> {
    const queue = this.queue;
    if (!queue) return 0;
    const attempts = this.config.webhookRetryDelaysMs.length + 1;
    return this.db.transaction(async (m) => {
      const deliveries = this.deliveries.with(m);
      const due = await deliveries.lockDueForEnqueue(BATCH);
      if (due.length === 0) return 0;
      const jobs = deliveryJobs(due);
      const byId = new Map(due.map((d) => [d.id, d]));
      // BullMQ waits for a connection that may never come; give up and keep the rows instead.
      await withTimeout(
        ENQUEUE_TIMEOUT_MS,
        'Redis did not accept the jobs',
        queue.addBulk(
          jobs.map((j) => ({
            name: 'deliver',
            data: {
              deliveries: j.deliveries,
              subscriptionId: byId.get(j.deliveries[0].id)!.subscription_id,
              fundId: byId.get(j.deliveries[0].id)!.fund_id,
            } satisfies DeliveryJobData,
            opts: {
              jobId: j.jobId,
              attempts,
              backoff: { type: 'schedule' },
              removeOnComplete: { age: 3600, count: 10_000 },
              removeOnFail: { age: 7 * 86_400 },
            },
          })),
        ),
      );
      const members = jobs.flatMap((j) => j.deliveries.map((d) => [d.id, j.jobId] as const));
      await deliveries.markEnqueued(
        members.map(([id]) => id),
        members.map(([, jobId]) => jobId),
      );
      return due.length;
    });
  }
}
