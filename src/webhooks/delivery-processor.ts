import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Job, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SecretSealer } from '../common/crypto/sealer';
import { APP_CONFIG, AppConfig } from '../config/config';
import { bullPrefix, closeWithin, workerConnection } from './bull-connections';
import { DELIVERY_QUEUE, DeliveryJobData } from './outbox-dispatcher';
import { SendResult, sendWebhook } from './sender';
import { signatureHeader } from './signing';
import { TEST_EVENT_TYPE } from './event-types';
import { type ClaimedAttempt, DeliveriesRepository } from './deliveries.repository';

const CONCURRENCY = 64;

export class DeliveryAttemptFailed extends Error {}

/**
 * The BullMQ delivery processor (worker and all roles). Load, act, record, rethrow: every attempt
 * is claimed in PostgreSQL first (UNIQUE (delivery, attempt_no) — two workers never make the same
 * attempt), signed over the exact bytes sent, recorded, and any non-2xx throws so BullMQ retries
 * on WEBHOOK_RETRY_DELAYS. A 410 disables the subscription and ends the delivery.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryProcessor');
  private worker: Worker<DeliveryJobData> | null = null;
  private connection: Redis | null = null;

  private readonly deliveries: DeliveriesRepository;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() db: DataSource,
    private readonly sealer: SecretSealer,
  ) {
    this.deliveries = new DeliveriesRepository(db);
  }

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    const delays = this.config.webhookRetryDelaysMs;
    this.connection = workerConnection(this.config.redisUrl);
    this.connection.on('error', () => undefined);
    this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: bullPrefix(this.config),
      concurrency: CONCURRENCY,
      // attemptsMade is 1 after the first failure: wait delays[0], then delays[1], …
      settings: {
        backoffStrategy: (attemptsMade: number) => delays[Math.min(Math.max(attemptsMade, 1), delays.length) - 1],
      },
      // A stalled job may be picked up again; the PostgreSQL claim keeps the attempt single.
      lockDuration: Math.max(30_000, this.config.webhookTimeoutMs * 2),
    });
    this.worker.on('error', (err) => this.logger.warn(`worker error: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    // With Redis away there is nothing to hand back; do not wait for it.
    const grace = this.connection?.status === 'ready' ? this.config.webhookTimeoutMs + 2000 : 200;
    if (this.worker)
      await closeWithin(
        grace,
        () => this.worker!.close(),
        () => undefined,
      );
    this.connection?.disconnect();
  }

  async process(job: Job<DeliveryJobData>): Promise<string> {
    const { deliveryId, generation } = job.data;
    const ctx = await this.claim(deliveryId, generation);
    if (!ctx) return this.unclaimable(deliveryId, generation);

    const now = new Date();
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const secrets = this.openSecrets(ctx, now);
    if (typeof secrets === 'string')
      return this.record(
        deliveryId,
        generation,
        ctx.attempt_no,
        { statusCode: null, latencyMs: 0, error: secrets, responseSnippet: null },
        final,
      );
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'fundgate-webhooks/1',
      'webhook-id': ctx.event_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, ctx.event_id, now, ctx.body),
    };
    const result = await sendWebhook(ctx.url, ctx.body, headers, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivate: this.config.webhookAllowPrivate,
    });
    return this.record(deliveryId, generation, ctx.attempt_no, result, final);
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
   * One statement: claims the next attempt of a pending delivery whose subscription is live,
   * records the attempt row (UNIQUE (delivery, attempt_no)) and returns what sending needs.
   */
  private async claim(deliveryId: string, generation: number): Promise<ClaimedAttempt | null> {
    const holdSeconds = Math.ceil(this.config.webhookTimeoutMs / 1000) + 30;
    return this.deliveries.claim(deliveryId, generation, holdSeconds);
  }

  /** Why the claim failed: stale job, subscription gone or disabled, or another worker's attempt in flight. */
  private async unclaimable(deliveryId: string, generation: number): Promise<string> {
    const d = await this.deliveries.facts(deliveryId);
    if (!d || d.generation !== generation || d.status !== 'pending') return 'stale';
    if (d.deleted || (!d.enabled && d.type !== TEST_EVENT_TYPE)) {
      await this.deliveries.cancel(deliveryId, generation);
      return 'cancelled';
    }
    // Another worker holds this delivery's current attempt (a stalled job picked up twice).
    throw new DeliveryAttemptFailed('an attempt of this delivery is in progress on another worker');
  }

  /** One statement: the attempt's outcome, the delivery's state, and a 410's disabling of the subscription. */
  private async record(
    deliveryId: string,
    generation: number,
    attemptNo: number,
    r: SendResult,
    final: boolean,
  ): Promise<string> {
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    const status = ok ? 'succeeded' : gone ? 'cancelled' : final ? 'failed' : 'pending';
    await this.deliveries.record(deliveryId, generation, attemptNo, r, status, gone);
    if (ok) return 'delivered';
    if (gone) return 'gone: subscription disabled';
    throw new DeliveryAttemptFailed(r.error ? `delivery failed: ${r.error}` : `receiver answered ${r.statusCode}`);
  }
}
