import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/config';
import { redisClient, redisLabel, type RedisTarget } from './redis-client';
import { watchRedis } from './redis-state';

export const REDIS = Symbol('REDIS');

export function createRedis(target: RedisTarget): Redis {
  // Commands fail fast when Redis is unreachable instead of queueing forever. Auto-pipelining sends
  // the commands of concurrent requests (one rate-limit check each) in one socket write.
  // Its reachability is logged once per change (JSON), and requests needing it answer 503 while it is away.
  return watchRedis(
    redisClient(target, {
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
    }),
    'main',
    redisLabel(target),
  );
}

@Global()
@Module({
  providers: [{ provide: REDIS, inject: [APP_CONFIG], useFactory: (c: AppConfig) => createRedis(c) }],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
