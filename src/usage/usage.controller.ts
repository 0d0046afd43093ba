import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequiresScopes } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { ActivityPageDto, ActivityQueryDto, UsageDto, UsageQueryDto } from './dto/usage.dto';
import { RateLimitPolicy } from './rate-limit/rate-limit.decorator';
import { UsageService } from './usage.service';

@ApiTags('account')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @RequiresScopes()
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Requests per day and per route for the calling key, errors, and current rate-limit windows' })
  @Returns(UsageDto)
  get(@CurrentPrincipal() p: Principal, @Req() req: FastifyRequest, @Query() q: UsageQueryDto): Promise<UsageDto> {
    return this.usage.usage(p, req.ip, q.from, q.to);
  }
}

@ApiTags('admin: activity')
@Controller('api/v1/admin/activity')
export class AdminActivityController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @RequiresScopes('keys:manage')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'The per-request activity log of the keys the caller manages, newest first' })
  @Returns(ActivityPageDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ActivityQueryDto): Promise<ActivityPageDto> {
    return this.usage.activityPage(p, q);
  }
}
