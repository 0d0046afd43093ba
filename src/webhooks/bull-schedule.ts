import { Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { type AppConfig } from '../config/config';
import { bullPrefix, producerConnection, shutDownBull, workerConnection } from './bull-connections';

/** A running BullMQ job scheduler; `stop` closes its worker, queue and connections. */
export interface ScheduledJob {
  stop(): Promise<void>;
}

/**
 * Runs `run` every `everyMs` as a BullMQ job scheduler: one schedule however many worker processes
 * run (the `api` role runs none). A failed run is logged and tried again at the next tick; a
 * schedule that cannot be written (Redis away) is written at the next start.
 */
export function startScheduledJob(
  config: Pick<AppConfig, 'role' | 'redisUrl' | 'redisClusterNodes' | 'databaseUrl'>,
  spec: { queue: string; name: string; everyMs: number; run: () => Promise<unknown> },
): ScheduledJob | null {
  if (config.role === 'api') return null;
  const logger = new Logger(spec.queue);
  const prefix = bullPrefix(config);
  const connections: Redis[] = [producerConnection(config), workerConnection(config)];
  for (const c of connections) c.on('error', () => undefined);
  const queue = new Queue(spec.queue, { connection: connections[0], prefix });
  queue.on('error', () => undefined);
  const worker = new Worker(spec.queue, spec.run, { connection: connections[1], prefix, concurrency: 1 });
  worker.on('error', (err) => logger.warn(`worker error: ${err.message}`));
  worker.on('failed', (_job, err) => logger.warn(`run failed (tried again at the next tick): ${err.message}`));
  queue
    .upsertJobScheduler(spec.name, { every: spec.everyMs }, { name: spec.name })
    .catch((err: Error) => logger.warn(`could not schedule the job (will retry at next start): ${err.message}`));
  return { stop: () => shutDownBull({ worker, queue, connections }, 3000) };
}
