import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { ActivityAppsDto, ActivityPageDto, ActivityQueryDto, UsageDto, UsageQueryDto } from './dto/usage.dto';
import { NoQuery } from '../common/validation/parameterless';
import { RateLimitPolicy } from './rate-limit/rate-limit.decorator';
import { UsageService } from './usage.service';

@ApiTags('account')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @RequiresScopes()
  @SessionAccess()
  @RateLimitPolicy('fund-minute')
  @ApiOperation({
    summary:
      "Requests per day and per route for the calling key (a console session: the person's keys on the fund and their console requests), errors, and current rate-limit windows",
  })
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
  @SessionAccess({ selfService: true })
  @RateLimitPolicy('fund-minute')
  @ApiOperation({
    summary:
      "The per-request activity log of the keys the caller manages (a console session without keys:manage: the person's own keys and console requests), newest first. " +
      'It covers the retention period only (ACTIVITY_RETENTION_DAYS whole UTC days, 90 by default): older requests are kept as daily counts, which /usage reports',
  })
  @Returns(ActivityPageDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ActivityQueryDto): Promise<ActivityPageDto> {
    return this.usage.activityPage(p, q);
  }

  @Get('apps')
  @RequiresScopes('keys:manage')
  @SessionAccess({ selfService: true })
  @RateLimitPolicy('fund-minute')
  @ApiOperation({
    summary:
      'The connected OAuth apps whose requests the activity log shows the caller (every app on the fund with keys:manage, else their own), connected or since disconnected, oldest first: filter the log by an app with its keyId',
  })
  @Returns(ActivityAppsDto)
  apps(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<ActivityAppsDto> {
    return this.usage.activityApps(p);
  }
}
