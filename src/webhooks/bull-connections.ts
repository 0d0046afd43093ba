import type { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { type RedisOptions } from 'ioredis';
import { type AppConfig } from '../config/config';
import { redisClient, redisLabel, type RedisTarget } from '../redis/redis-client';
import { watchRedis } from '../redis/redis-state';

/**
 * BullMQ keys live under a prefix naming the Redis database index and the PostgreSQL database's
 * name, so that two deployments (or two test runs) sharing one Redis index never take each other's
 * jobs: a job only makes sense against the database its delivery rows live in. Only the name:
 * the API may reach the database through PgBouncer and the worker directly, or by another host
 * name, and both must find the same queues. (Two deployments whose databases have the same name
 * need their own Redis index or cluster.)
 * The prefix is one Redis Cluster hash tag (`{...}`): every key of every queue hashes to the same
 * slot, so BullMQ's multi-key Lua scripts run on Redis Cluster (BullMQ's own guidance).
 */
export function bullPrefix(config: Pick<AppConfig, 'redisUrl' | 'redisClusterNodes' | 'databaseUrl'>): string {
  const redisDb = config.redisClusterNodes.length ? '0' : new URL(config.redisUrl).pathname.replace(/^\//, '') || '0';
  const pgDb = decodeURIComponent(new URL(config.databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
  return `{fundgate:r${redisDb}:${pgDb}}`;
}

/** A blocking connection for a BullMQ Worker (BullMQ requires maxRetriesPerRequest: null). */
export function workerConnection(target: RedisTarget): Redis {
  return watchRedis(
    redisClient(target, { maxRetriesPerRequest: null, enableReadyCheck: true }),
    'bullmq worker',
    redisLabel(target),
  );
}

/**
 * A producer connection that fails fast when Redis is away: the caller (the outbox dispatcher)
 * keeps the rows in PostgreSQL and tries again later, so nothing waits in process memory.
 */
export function producerConnection(target: RedisTarget): Redis {
  const opts: RedisOptions = {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 5000,
    connectTimeout: 2000,
  };
  return watchRedis(redisClient(target, opts), 'bullmq producer', redisLabel(target));
}

/** Closes a BullMQ object, waiting at most `ms` (its close never ends while Redis is unreachable). */
async function closeWithin(ms: number, close: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([close().catch(() => undefined), timeout]);
  clearTimeout(timer);
}

/**
 * Shuts down a BullMQ worker and queue, then their connections. With Redis ready, a worker lets its
 * running jobs finish within `graceMs`. With Redis away there is nothing to hand back: the worker
 * is closed with `force` (its lock-renewal timer stops at once instead of after jobs that cannot
 * finish), and the worker and the queue each wait at most 200 ms. The connections are disconnected
 * last either way.
 */
export async function shutDownBull(
  parts: { worker?: Worker | null; queue?: Queue | null; connections: Redis[] },
  graceMs: number,
): Promise<void> {
  const ready = parts.connections.every((c) => c.status === 'ready');
  const grace = ready ? graceMs : 200;
  const { worker, queue } = parts;
  if (worker) await closeWithin(grace, () => worker.close(!ready));
  if (queue) await closeWithin(grace, () => queue.close());
  for (const c of parts.connections) c.disconnect();
}
