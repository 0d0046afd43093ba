import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { CapitalAccountsDto, CapitalActivityListDto, CapitalActivityQueryDto, InvestorsDto, InvestorsQueryDto } from './investors.dto';
import { InvestorsService } from './investors.service';

@ApiTags('fund data: investors')
@FundDataProblems()
@Controller('api/v1/fund')
export class InvestorsController {
  constructor(private readonly investors: InvestorsService) {}

  @Get('investors')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Investor register: display name, status, type, open subscription lots and units' })
  @Returns(InvestorsDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: InvestorsQueryDto): Promise<InvestorsDto> {
    return this.investors.investors(fundIdOf(p), q.limit);
  }

  @Get('capital-accounts')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Per-investor capital accounts of the latest complete NAV run (closing capital sums to its NAV)' })
  @Returns(CapitalAccountsDto)
  capitalAccounts(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<CapitalAccountsDto> {
    return this.investors.capitalAccounts(fundIdOf(p));
  }

  @Get('capital-activity')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Subscription and redemption requests: type, amount or fraction, dealing date, status' })
  @Returns(CapitalActivityListDto)
  capitalActivity(@CurrentPrincipal() p: Principal, @Query() q: CapitalActivityQueryDto): Promise<CapitalActivityListDto> {
    return this.investors.capitalActivity(fundIdOf(p), q.status, q.limit);
  }
}
