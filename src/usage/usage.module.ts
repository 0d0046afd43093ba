import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.module';
import { ActivityLogWriter } from './activity-log.writer';
import { ActivityRepository } from './activity.repository';
import { RateLimitService } from './rate-limit/rate-limit.service';
import { RedisThrottlerStorage } from './rate-limit/redis-throttler.storage';
import { AdminActivityController, UsageController } from './usage.controller';
import { UsageService } from './usage.service';

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [REDIS],
      // Our guard picks the policy per route; the module supplies the shared Redis storage.
      useFactory: (redis: Redis) => ({
        throttlers: [{ ttl: 60_000, limit: 1 }],
        storage: new RedisThrottlerStorage(redis),
      }),
    }),
  ],
  controllers: [UsageController, AdminActivityController],
  providers: [ActivityRepository, ActivityLogWriter, RateLimitService, UsageService],
  exports: [ActivityLogWriter, RateLimitService],
})
export class UsageModule {}
