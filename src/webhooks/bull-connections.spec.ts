import { bullPrefix } from './bull-connections';

/** Redis Cluster hashes only the first `{...}` of a key; BullMQ's scripts touch many keys at once. */
const hashTag = (key: string) => /\{([^{}]+)\}/.exec(key)?.[1] ?? key;

describe('bullPrefix', () => {
  const prefix = bullPrefix({
    redisUrl: 'redis://127.0.0.1:6379/4',
    databaseUrl: 'postgres://postgres@127.0.0.1:5432/fundgate_x',
  });

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
    expect(new Set(keys.map(hashTag))).toEqual(new Set(['fundgate:r4:fundgate_x']));
  });

  it('differs between databases sharing one Redis', () => {
    expect(bullPrefix({ redisUrl: 'redis://h/4', databaseUrl: 'postgres://h/a' })).not.toBe(
      bullPrefix({ redisUrl: 'redis://h/4', databaseUrl: 'postgres://h/b' }),
    );
  });
});
