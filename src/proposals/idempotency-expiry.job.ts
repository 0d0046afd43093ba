import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';
import { bullPrefix, producerConnection, shutDownBull, workerConnection } from '../webhooks/bull-connections';
import { IdempotencyService } from './idempotency.service';

const QUEUE = 'maintenance-idempotency';
const EVERY_MS = 10 * 60_000;

/**
 * Deletes Idempotency-Key records older than 24 h, as a BullMQ job scheduler (one schedule
 * however many workers run; worker and all roles only). Lookups already ignore expired rows,
 * so a late run never changes an answer; it only keeps the table small.
 */
@Injectable()
export class IdempotencyExpiryJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyExpiry');
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private connections: Redis[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    const prefix = bullPrefix(this.config);
    const producer = producerConnection(this.config.redisUrl);
    const blocking = workerConnection(this.config.redisUrl);
    this.connections = [producer, blocking];
    for (const c of this.connections) c.on('error', () => undefined);
    this.queue = new Queue(QUEUE, { connection: producer, prefix });
    this.queue.on('error', () => undefined);
    this.worker = new Worker(QUEUE, async () => ({ deleted: await this.idempotency.purgeExpired() }), {
      connection: blocking,
      prefix,
      concurrency: 1,
    });
    this.worker.on('error', (err) => this.logger.warn(`worker error: ${err.message}`));
    this.queue
      .upsertJobScheduler('purge-expired', { every: EVERY_MS }, { name: 'purge-expired' })
      .catch((err: Error) =>
        this.logger.warn(`could not schedule the expiry job (will retry at next start): ${err.message}`),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    await shutDownBull({ worker: this.worker, queue: this.queue, connections: this.connections }, 3000);
  }
}
