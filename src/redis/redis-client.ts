import Redis, { Cluster, type RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config';

/** Where Redis is: the one server of REDIS_URL, or the Redis Cluster whose seed nodes REDIS_CLUSTER_NODES lists. */
export type RedisTarget = Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>;

/**
 * A client of the configured Redis. On a cluster it is an ioredis `Cluster`, which learns the
 * slot map from the seed nodes and follows MOVED/ASK redirects; every multi-key command and script
 * fundgate runs names keys of one hash tag (BullMQ's prefix, a rate-limit window's `{…}`), so each
 * runs on one node. Typed as `Redis` for its callers: the commands fundgate uses (get, set, del,
 * call, eval, defineCommand, multi, ping, quit, status and the ready/error events) are the same
 * on both, and BullMQ takes either.
 */
export function redisClient(target: RedisTarget, options: RedisOptions): Redis {
  if (target.redisClusterNodes.length === 0) return new Redis(target.redisUrl, options);
  const { enableOfflineQueue, enableAutoPipelining, enableReadyCheck, ...perNode } = options;
  const first = new URL(target.redisClusterNodes[0]);
  const cluster = new Cluster(
    target.redisClusterNodes.map((node) => {
      const u = new URL(node);
      return { host: u.hostname, port: Number(u.port || 6379) };
    }),
    {
      redisOptions: {
        ...perNode,
        username: decodeURIComponent(first.username) || undefined,
        password: decodeURIComponent(first.password) || undefined,
        tls: first.protocol === 'rediss:' ? {} : undefined,
      },
      enableOfflineQueue,
      enableAutoPipelining,
      enableReadyCheck,
      slotsRefreshTimeout: 2000,
    },
  );
  return cluster as unknown as Redis;
}

/** The URL named in Redis reachability log lines (credentials are redacted by the logger). */
export function redisLabel(target: RedisTarget): string {
  return target.redisClusterNodes[0] ?? target.redisUrl;
}
