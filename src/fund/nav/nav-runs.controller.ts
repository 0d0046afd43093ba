import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { invalidParameter } from '../../common/errors/problem';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { isIsoDate } from '../dates';
import { NavJobDto, NavRunListDto, RunNavRequestDto } from './nav-run.dto';
import { jobLocation, NavJobsService } from './nav-jobs.service';
import { NoQuery } from '../../common/validation/parameterless';
import { uuidParam } from '../../common/validation/uuid-param';

const uuid = uuidParam('id');

@ApiTags('admin: NAV runs')
@Controller('api/v1/admin/nav-runs')
@RequiresScopes('nav:publish')
@SessionAccess()
@RateLimitPolicy('fund-minute')
export class NavRunsController {
  constructor(private readonly jobs: NavJobsService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Queue a NAV run for a valuation date (earlier missing dates included; a correction supersedes and cascades). Answers the job to poll; at most NAV_RUN_MAX_DAYS dates per call, one job per fund at a time (409)',
  })
  @Returns(NavJobDto, { status: 202, description: 'The queued job (Location: where to poll it)' })
  async run(
    @CurrentPrincipal() caller: Principal,
    @Body() body: RunNavRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NavJobDto> {
    if (!isIsoDate(body.valuationDate)) throw invalidParameter('valuationDate', 'must be a calendar date YYYY-MM-DD');
    const job = await this.jobs.request(fundIdOf(caller), caller.keyId ?? null, body.valuationDate);
    reply.header('location', jobLocation(job.jobId));
    return job;
  }

  /** The first path of a job, kept for clients written before /api/v1/admin/nav-jobs/{id} (ambiguous beside /{id}/publish). */
  @Get('jobs/:id')
  @ApiExcludeEndpoint()
  @Returns(NavJobDto)
  job(
    @CurrentPrincipal() caller: Principal,
    @Param('id', uuid) id: string,
    @NoQuery() _none: unknown,
  ): Promise<NavJobDto> {
    return this.jobs.job(fundIdOf(caller), id);
  }

  @Get()
  @ApiOperation({
    summary:
      "The fund's NAV runs, newest first (complete, failed with the reason, superseded), cursor-paged; publish one with POST /{id}/publish",
  })
  @Returns(NavRunListDto)
  runs(@CurrentPrincipal() caller: Principal, @Query() q: CursorPageQueryDto): Promise<NavRunListDto> {
    return this.jobs.runs(fundIdOf(caller), q.limit ?? 100, q.cursor);
  }
}

@ApiTags('admin: NAV runs')
@Controller('api/v1/admin/nav-jobs')
@RequiresScopes('nav:publish')
@SessionAccess()
@RateLimitPolicy('fund-minute')
export class NavJobsController {
  constructor(private readonly jobs: NavJobsService) {}

  @Get(':id')
  @ApiOperation({ summary: 'A NAV run job: status, progress (dates done of total) and, once run, its outcome' })
  @Returns(NavJobDto)
  job(
    @CurrentPrincipal() caller: Principal,
    @Param('id', uuid) id: string,
    @NoQuery() _none: unknown,
  ): Promise<NavJobDto> {
    return this.jobs.job(fundIdOf(caller), id);
  }
}
