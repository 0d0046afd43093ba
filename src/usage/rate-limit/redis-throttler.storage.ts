import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

type IncrementFn = (
  hitKey: string,
  blockKey: string,
  name: string,
  ttl: number,
  limit: number,
  block: number,
) => Promise<number[]>;
type ReserveFn = (hitKey: string, n: number, ttl: number) => Promise<number>;

/** INCRBY n on the window's counter (the library's `{key:name}:hits`), expiring with the window. */
const RESERVE_LUA = `local t = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return t`;

/**
 * The library's atomic Lua counter, registered once with ioredis `defineCommand` so each request
 * sends EVALSHA and a few bytes instead of the whole script text (falls back to EVAL on NOSCRIPT).
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly incrementScript: IncrementFn;
  private readonly reserveScript: ReserveFn;

  constructor(redis: Redis) {
    super(redis);
    redis.defineCommand('fundgateThrottle', { numberOfKeys: 2, lua: this.scriptSrc });
    this.incrementScript = (redis as unknown as { fundgateThrottle: IncrementFn }).fundgateThrottle.bind(redis);
    redis.defineCommand('fundgateReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
    this.reserveScript = (redis as unknown as { fundgateReserve: ReserveFn }).fundgateReserve.bind(redis);
  }

  /** Adds `n` hits to the window `key` of `throttlerName` (same counter as increment); answers the total. */
  incrementBy(key: string, throttlerName: string, n: number, ttlMs: number): Promise<number> {
    return this.reserveScript(`{${key}:${throttlerName}}:hits`, n, ttlMs);
  }

  override async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = await this.incrementScript(
      `{${key}:${throttlerName}}:hits`,
      `{${key}:${throttlerName}}:blocked`,
      throttlerName,
      ttl,
      limit,
      blockDuration,
    );
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}
