import type { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { bullPrefix, shutDownBull } from './bull-connections';

/** Redis Cluster hashes only the first `{...}` of a key; BullMQ's scripts touch many keys at once. */
const hashTag = (key: string) => /\{([^{}]+)\}/.exec(key)?.[1] ?? key;

describe('bullPrefix', () => {
  const config = {
    redisUrl: 'redis://127.0.0.1:6379/4',
    redisClusterNodes: [],
    databaseUrl: 'postgres://postgres@127.0.0.1:5432/fundgate_x',
  };
  const prefix = bullPrefix(config);
  const tag = prefix.slice(1, -1);

  it('is one hash tag naming the Redis index and the database', () => {
    expect(prefix).toBe('{fundgate:r4:fundgate_x}');
  });

  it('puts every key of every queue in one cluster slot', () => {
    const keys = [
      'webhook-deliveries:wait',
      'webhook-deliveries:1',
      'nav-runs:active',
      'idempotency-expiry:repeat:x',
    ].map((k) => `${prefix}:${k}`);
    expect(new Set(keys.map(hashTag))).toEqual(new Set([tag]));
  });

  it('differs between databases sharing one Redis; the same database however it is reached', () => {
    const of = (databaseUrl: string) => bullPrefix({ ...config, databaseUrl });
    expect(of('postgres://h/a')).not.toBe(of('postgres://h/b'));
    // the API through PgBouncer, the worker directly: one set of queues
    expect(of('postgres://app@pgbouncer:6432/fundgate')).toBe(of('postgres://app@10.0.0.5:5432/fundgate'));
  });

  it('on a Redis Cluster names database 0 (a cluster has no other)', () => {
    expect(bullPrefix({ ...config, redisClusterNodes: ['redis://n1:7000'] })).toBe('{fundgate:r0:fundgate_x}');
  });
});

describe('shutDownBull', () => {
  const never = () => new Promise<void>(() => undefined);
  const parts = (status: string, close: () => Promise<void>) => {
    const calls: string[] = [];
    const connection = { status, disconnect: () => calls.push('disconnect') } as unknown as Redis;
    const worker = { close: (force: boolean) => (calls.push(`worker.close(${force})`), close()) } as unknown as Worker;
    const queue = { close: () => (calls.push('queue.close'), close()) } as unknown as Queue;
    return { calls, worker, queue, connections: [connection] };
  };

  it('with Redis away: closes the worker with force, waits at most 200 ms each, then disconnects', async () => {
    const p = parts('reconnecting', never); // BullMQ's close never ends while Redis is unreachable
    const started = Date.now();
    await shutDownBull(p, 5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(p.calls).toEqual(['worker.close(true)', 'queue.close', 'disconnect']);
  });

  it('with Redis ready: lets running jobs finish (no force), then disconnects', async () => {
    const p = parts('ready', () => Promise.resolve());
    await shutDownBull(p, 5000);
    expect(p.calls).toEqual(['worker.close(false)', 'queue.close', 'disconnect']);
  });
});
