import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NavHistoryDto, NavHistoryQueryDto, ReconciliationDto, ReconciliationQueryDto } from './nav.dto';
import { NavService } from './nav.service';

@ApiTags('fund data: NAV')
@FundDataProblems()
@Controller('api/v1/fund/nav')
export class NavController {
  constructor(private readonly nav: NavService) {}

  @Get('history')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'NAV runs (all statuses) with class NAV per unit, latest first' })
  @Returns(NavHistoryDto)
  history(@CurrentPrincipal() p: Principal, @Query() q: NavHistoryQueryDto): Promise<NavHistoryDto> {
    return this.nav.history(fundIdOf(p), q);
  }

  @Get('reconciliation')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Shadow NAV against the administrator NAV, with the difference and the tolerance check' })
  @Returns(ReconciliationDto)
  reconciliation(@CurrentPrincipal() p: Principal, @Query() q: ReconciliationQueryDto): Promise<ReconciliationDto> {
    return this.nav.reconciliation(fundIdOf(p), q.limit);
  }
}
