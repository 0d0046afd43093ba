import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { SecretSealer } from '../common/crypto/sealer';
import { APP_CONFIG, AppConfig } from '../config/config';
import { bullPrefix, shutDownBull, workerConnection } from './bull-connections';
import { DELIVERY_QUEUE, DeliveryJobData } from './outbox-dispatcher';
import { SendResult, sendWebhook } from './sender';
import { signatureHeader } from './signing';
import { TEST_EVENT_TYPE } from './event-types';
import { retryDelayMs } from './retry-schedule';
import {
  type AttemptOutcome,
  type ClaimedAttempt,
  DeliveriesRepository,
  type DeliveryRef,
} from './deliveries.repository';

/** Jobs in progress at once (each a batch of one subscription's deliveries). */
const CONCURRENCY = 64;
/** Requests in flight at once within one job, i.e. towards one subscription's target. */
const IN_FLIGHT_PER_JOB = 16;
/**
 * What one subscription, and one fund, may hold of this process. A receiver that accepts
 * connections and never answers keeps each POST for WEBHOOK_TIMEOUT_MS: one fund's such
 * subscriptions (fed by `POST …/test`) filled every job slot and delayed every other fund's
 * deliveries by tens of seconds. Only slow jobs are capped tightly (a healthy receiver answers in
 * milliseconds, and a busy fund's many quick jobs must not wait for one another); a job over a cap
 * is re-delayed for a moment (not an attempt, nothing claimed). A subscription or fund seen with a
 * slow job stays slow for `slowMemoryMs`: all its jobs then count as slow from their start, so the
 * jobs that replace a batch of timed-out ones are held to the slow caps at once (without it, a
 * fund's jobs were admitted up to jobsPerFund again every time the last batch timed out).
 */
export const CAPS = {
  /** A job still running after this long is slow: its receiver is holding it. */
  slowAfterMs: 1000,
  /** How long a subscription or fund seen with a slow job counts every job of its as slow. */
  slowMemoryMs: 60_000,
  /** Slow jobs of one subscription at once. */
  slowJobsPerSubscription: 2,
  /** Slow jobs of one fund at once. */
  slowJobsPerFund: 8,
  /** Jobs of one fund at once, slow or not: half of CONCURRENCY. */
  jobsPerFund: 32,
  /** POSTs in flight at once to one subscription, across its jobs. */
  postsPerSubscription: 16,
  /** POSTs in flight at once for one fund: half of IN_FLIGHT. */
  postsPerFund: 128,
};
/**
 * Requests in flight at once in the process: at most the sender's sockets per host, so a request
 * never waits in the agent's queue for a socket while its timeout runs.
 */
const IN_FLIGHT = 256;

/** A counting semaphore: at most `slots` holders at once, the others wait in order. */
export class Slots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

interface Running {
  /** When each of its jobs started. */
  jobs: Set<{ at: number }>;
  posts: Slots;
}

/** An admitted job: its POSTs run within its subscription's and fund's slots; `leave` when it ends. */
export interface Admitted {
  post<T>(work: () => Promise<T>): Promise<T>;
  leave(): void;
}

/** The jobs in progress in this process, per subscription and per fund, and their POST slots. */
export class JobAdmission {
  private readonly running = new Map<string, Running>();
  /** Subscriptions and funds seen with a slow job, and until when all their jobs count as slow. */
  private readonly slowUntil = new Map<string, number>();
  constructor(private readonly caps: typeof CAPS) {}

  /** Admits a job, or answers null when its subscription or fund is at a cap. */
  enter(subscriptionId: string, fundId: string): Admitted | null {
    const now = Date.now();
    const sub = this.entry(`s:${subscriptionId}`, this.caps.postsPerSubscription);
    const fund = this.entry(`f:${fundId}`, this.caps.postsPerFund);
    if (
      this.slowJobs(`s:${subscriptionId}`, sub, now) >= this.caps.slowJobsPerSubscription ||
      this.slowJobs(`f:${fundId}`, fund, now) >= this.caps.slowJobsPerFund ||
      fund.jobs.size >= this.caps.jobsPerFund
    )
      return null;
    const job = { at: now };
    for (const [key, r] of [
      [`s:${subscriptionId}`, sub],
      [`f:${fundId}`, fund],
    ] as const) {
      r.jobs.add(job);
      this.running.set(key, r);
    }
    return {
      post: (work) => sub.posts.run(() => fund.posts.run(work)),
      leave: () => {
        const wasSlow = Date.now() - job.at >= this.caps.slowAfterMs;
        for (const key of [`s:${subscriptionId}`, `f:${fundId}`]) {
          if (wasSlow) this.markSlow(key, Date.now());
          const r = this.running.get(key);
          if (r?.jobs.delete(job) && r.jobs.size === 0) this.running.delete(key);
        }
      },
    };
  }

  /** The jobs of `key` that count as slow: all of them while it is remembered slow, else those running long. */
  private slowJobs(key: string, r: Running, now: number): number {
    const long = [...r.jobs].filter((j) => now - j.at >= this.caps.slowAfterMs).length;
    if (long > 0) this.markSlow(key, now);
    const until = this.slowUntil.get(key);
    if (until !== undefined && until <= now) this.slowUntil.delete(key);
    return until !== undefined && until > now ? r.jobs.size : long;
  }

  private markSlow(key: string, now: number): void {
    this.slowUntil.set(key, now + this.caps.slowMemoryMs);
  }

  private entry(key: string, posts: number): Running {
    return this.running.get(key) ?? { jobs: new Set(), posts: new Slots(posts) };
  }
}

/** The deliveries a job carries (a job enqueued before batching carries one). */
export function jobDeliveries(data: DeliveryJobData): DeliveryRef[] {
  return data.deliveries ?? [{ id: data.deliveryId!, generation: data.generation! }];
}

/** Runs `work` over `items` with at most `limit` at once; answers in the order of `items`. */
export async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

export class DeliveryAttemptFailed extends Error {}

/**
 * The BullMQ delivery processor (worker and all roles). A job is a batch of one subscription's
 * deliveries. Claim, act, record, rethrow: the batch's attempts are claimed in PostgreSQL first, in
 * one statement (UNIQUE (delivery, attempt_no) — two workers never make the same attempt), each is
 * signed over the exact bytes sent and POSTed (IN_FLIGHT_PER_JOB at once per job, within its
 * subscription's and the process's caps, over the keep-alive pool),
 * and all outcomes are recorded in one statement. When any attempt failed, the job keeps only the
 * deliveries still to retry and throws, so BullMQ retries those on WEBHOOK_RETRY_DELAYS (the same
 * job: same webhook-id, next attempt number). A 410 disables the subscription and ends the delivery.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryProcessor');
  private worker: Worker<DeliveryJobData> | null = null;
  private connection: Redis | null = null;

  private readonly inFlight = new Slots(IN_FLIGHT);
  private readonly admission = new JobAdmission(CAPS);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: DeliveriesRepository,
    private readonly sealer: SecretSealer,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    const delays = this.config.webhookRetryDelaysMs;
    this.connection = workerConnection(this.config);
    this.connection.on('error', () => undefined);
    this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job, token) => this.process(job, token), {
      connection: this.connection,
      prefix: bullPrefix(this.config),
      concurrency: CONCURRENCY,
      // attemptsMade is 1 after the first failure: wait delays[0], then delays[1], … (deliver dates next_attempt_at with the same function)
      settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(delays, attemptsMade) },
      // A stalled job may be picked up again; the PostgreSQL claim keeps the attempt single.
      lockDuration: Math.max(30_000, this.config.webhookTimeoutMs * 2),
    });
    this.worker.on('error', (err) => this.logger.warn(`worker error: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    const connections = this.connection ? [this.connection] : [];
    await shutDownBull({ worker: this.worker, connections }, this.config.webhookTimeoutMs + 2000);
  }

  /**
   * Runs a job within its subscription's and fund's caps; a job over one goes back to the delayed
   * set for a moment (BullMQ does not count it as an attempt) without claiming anything.
   */
  async process(job: Job<DeliveryJobData>, token?: string): Promise<string> {
    const { subscriptionId, fundId } = job.data;
    // an older job (enqueued without its subscription and fund) runs uncapped, as it always did
    if (!subscriptionId || !fundId) return this.deliver(job, (work) => work());
    const admitted = this.admission.enter(subscriptionId, fundId);
    if (!admitted) {
      const wait = Math.min(this.config.webhookTimeoutMs, 2000) * (0.5 + Math.random());
      await job.moveToDelayed(Date.now() + Math.round(wait), token);
      throw new DelayedError();
    }
    try {
      return await this.deliver(job, admitted.post);
    } finally {
      admitted.leave();
    }
  }

  private async deliver(job: Job<DeliveryJobData>, post: Admitted['post']): Promise<string> {
    const refs = jobDeliveries(job.data);
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    // should this attempt fail, BullMQ counts it (attemptsMade + 1) and waits this long before the next
    const retryInMs = final ? null : retryDelayMs(this.config.webhookRetryDelaysMs, job.attemptsMade + 1);
    // The claim holds every attempt of the batch until its last wave of POSTs could have timed
    // out, counting the waits for the process's slots when every job is sending at once.
    const waves = Math.ceil(refs.length / IN_FLIGHT_PER_JOB) * Math.ceil((CONCURRENCY * IN_FLIGHT_PER_JOB) / IN_FLIGHT);
    const holdSeconds = Math.ceil((waves * this.config.webhookTimeoutMs) / 1000) + 30;
    const claimed = await this.deliveries.claim(refs, holdSeconds);
    const claimedIds = new Set(claimed.map((c) => c.id));
    const elsewhere = await this.unclaimable(refs.filter((r) => !claimedIds.has(r.id)));

    const now = new Date();
    const secrets = new Map<string, string[] | string>();
    const outcomes = await mapLimit(claimed, IN_FLIGHT_PER_JOB, async (ctx) => {
      if (!secrets.has(ctx.subscription_id)) secrets.set(ctx.subscription_id, this.openSecrets(ctx, now));
      const live = secrets.get(ctx.subscription_id)!;
      const result =
        typeof live === 'string'
          ? { statusCode: null, latencyMs: 0, error: live, responseSnippet: null }
          : // the subscription's and fund's slots first (waiting for them holds none of the process's POST slots,
            // though the job keeps its BullMQ slot), then the process's;
            // signed when its slot comes up: a wave waiting behind others would carry a stale webhook-timestamp
            await post(() => this.inFlight.run(() => this.send(ctx, live, new Date())));
      return outcome(ctx, result, retryInMs);
    });
    await this.deliveries.record(outcomes);

    const failed = outcomes.filter((o) => o.status === 'pending' || o.status === 'failed');
    if (failed.length === 0 && elsewhere.length === 0) return `${outcomes.length} delivered or ended`;
    const retry = [...failed.filter((o) => o.status === 'pending'), ...elsewhere].map(({ id, generation }) => ({
      id,
      generation,
    }));
    // Only what is still to retry stays in the job; its next attempt skips what succeeded or ended.
    if (!final && retry.length < refs.length) await job.updateData({ ...job.data, deliveries: retry });
    const first = failed[0]?.result;
    throw new DeliveryAttemptFailed(
      `${failed.length + elsewhere.length} of ${refs.length} deliveries to retry or failed` +
        (first
          ? ` (${first.error ? `delivery failed: ${first.error}` : `receiver answered ${first.statusCode}`})`
          : '') +
        (elsewhere.length > 0 ? `; ${elsewhere.length} in progress on another worker` : ''),
    );
  }

  private send(ctx: ClaimedAttempt, secrets: string[], now: Date): Promise<SendResult> {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'fundgate-webhooks/1',
      'webhook-id': ctx.event_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, ctx.event_id, now, ctx.body),
    };
    return sendWebhook(ctx.url, ctx.body, headers, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivate: this.config.webhookAllowPrivate,
      requireHttps: this.config.webhookRequireHttps,
    });
  }

  /** Secrets are stored sealed; they are opened here, only to sign. A message instead when the ring cannot open them. */
  private openSecrets(ctx: ClaimedAttempt, now: Date): string[] | string {
    try {
      const secrets = [this.sealer.unseal(ctx.signing_secret)];
      const overlap = ctx.previous_secret_expires_at && new Date(ctx.previous_secret_expires_at) > now;
      if (ctx.previous_signing_secret && overlap) secrets.push(this.sealer.unseal(ctx.previous_signing_secret));
      return secrets;
    } catch (err) {
      return `the signing secret cannot be opened (${(err as Error).message}); check SECRETS_KEY`;
    }
  }

  /**
   * Why some deliveries were not claimed: stale job (done, or a newer generation), subscription
   * gone or disabled (cancelled, in one statement), or another worker's attempt in flight (a
   * stalled job picked up twice): those are answered, to be retried.
   */
  private async unclaimable(refs: DeliveryRef[]): Promise<DeliveryRef[]> {
    const facts = new Map((await this.deliveries.facts(refs.map((r) => r.id))).map((f) => [f.id, f]));
    const cancel: DeliveryRef[] = [];
    const elsewhere: DeliveryRef[] = [];
    for (const r of refs) {
      const d = facts.get(r.id);
      if (!d || d.generation !== r.generation || d.status !== 'pending') continue;
      if (d.deleted || (!d.enabled && d.type !== TEST_EVENT_TYPE)) cancel.push(r);
      else elsewhere.push(r);
    }
    await this.deliveries.cancel(cancel);
    return elsewhere;
  }
}

/**
 * What an attempt's answer makes of its delivery: 2xx succeeded, 410 cancelled (and the subscription
 * disabled), else retry in `retryInMs` (the job's next backoff) or, on the last attempt (null), failed.
 * Only a delivery left pending carries a wait: its next attempt is due that long after the outcome.
 */
function outcome(ctx: ClaimedAttempt, r: SendResult, retryInMs: number | null): AttemptOutcome {
  const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
  const gone = r.statusCode === 410;
  const status = ok ? 'succeeded' : gone ? 'cancelled' : retryInMs === null ? 'failed' : 'pending';
  const retry = status === 'pending' ? retryInMs : null;
  return {
    id: ctx.id,
    generation: ctx.generation,
    attemptNo: ctx.attempt_no,
    result: r,
    status,
    gone,
    retryInMs: retry,
  };
}
