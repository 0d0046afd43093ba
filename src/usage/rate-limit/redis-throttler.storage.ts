import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

type IncrementFn = (hitKey: string, blockKey: string, name: string, ttl: number, limit: number, block: number) => Promise<number[]>;

/**
 * The library's atomic Lua counter, registered once with ioredis `defineCommand` so each request
 * sends EVALSHA and a few bytes instead of the whole script text (falls back to EVAL on NOSCRIPT).
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  private readonly incrementScript: IncrementFn;

  constructor(redis: Redis) {
    super(redis);
    redis.defineCommand('fundgateThrottle', { numberOfKeys: 2, lua: this.scriptSrc });
    this.incrementScript = (redis as unknown as { fundgateThrottle: IncrementFn }).fundgateThrottle.bind(redis);
  }

  override async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): ReturnType<ThrottlerStorage['increment']> {
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = await this.incrementScript(
      `{${key}:${throttlerName}}:hits`, `{${key}:${throttlerName}}:blocked`, throttlerName, ttl, limit, blockDuration,
    );
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}
