import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { ProblemError, invalidParameter } from '../../common/errors/problem';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { isIsoDate } from '../dates';
import { NavRunResultDto, RunNavRequestDto } from './nav-run.dto';
import { NavRunService } from './nav-run.service';

@ApiTags('admin: NAV runs')
@Controller('api/v1/admin/nav-runs')
@RequiresScopes('nav:publish')
@RateLimitPolicy('fund-minute')
export class NavRunsController {
  constructor(private readonly navRuns: NavRunService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run the NAV engine for a valuation date (superseding a complete run for that date) and answer the run' })
  @Returns(NavRunResultDto)
  async run(@CurrentPrincipal() caller: Principal, @Body() body: RunNavRequestDto): Promise<NavRunResultDto> {
    const fundId = fundIdOf(caller);
    if (!isIsoDate(body.valuationDate)) throw invalidParameter('valuationDate', 'must be a calendar date YYYY-MM-DD');
    let outcome;
    try {
      outcome = await this.navRuns.runNavForDate(fundId, body.valuationDate);
    } catch (err) {
      throw new ProblemError('unprocessable', (err as Error).message);
    }
    const run = await this.navRuns.latestRunFor(fundId, body.valuationDate);
    if (!run) {
      const reason = outcome.failed ? `the run for ${outcome.failed.date} failed: ${outcome.failed.reason}` : 'no run was made for that date';
      throw new ProblemError('unprocessable', reason);
    }
    return { ...run, completedRuns: outcome.completed, supersededRuns: outcome.superseded };
  }
}
