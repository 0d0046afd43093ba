import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type Redis from 'ioredis';
import { PublicRoute } from '../common/auth/auth.decorators';
import { ProblemError } from '../common/errors/problem';
import { REDIS } from '../redis/redis.module';
import { readyWithin } from '../redis/redis-state';
import { HealthRepository } from './health.repository';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

@ApiTags('health')
@Controller('health')
@PublicRoute()
export class HealthController {
  constructor(
    private readonly db: HealthRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: PostgreSQL and Redis reachable (503 problem otherwise)' })
  async ready() {
    const [pg, redis] = await Promise.allSettled([
      withTimeout(this.db.ping(), 2000),
      readyWithin(this.redis, 2000).then((ready) =>
        ready ? withTimeout(this.redis.ping(), 2000) : Promise.reject(new Error('redis away')),
      ),
    ]);
    const down = [pg.status === 'rejected' ? 'postgresql' : null, redis.status === 'rejected' ? 'redis' : null].filter(
      Boolean,
    );
    if (down.length > 0) throw new ProblemError('unavailable', `not ready: ${down.join(' and ')} unreachable`);
    return { status: 'ready', checks: { postgresql: 'up', redis: 'up' } };
  }
}
