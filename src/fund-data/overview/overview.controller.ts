import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { FeeTermsDto, OverviewDto } from './overview.dto';
import { OverviewService } from './overview.service';

@ApiTags('fund data: overview')
@FundDataProblems()
@Controller('api/v1/fund')
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get('overview')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'The fund, its share classes and the latest complete NAV' })
  @Returns(OverviewDto)
  get(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<OverviewDto> {
    return this.overview.overview(fundIdOf(p));
  }

  @Get('fee-terms')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Management and performance fee terms and the share classes they apply to' })
  @Returns(FeeTermsDto)
  feeTerms(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<FeeTermsDto> {
    return this.overview.feeTerms(fundIdOf(p));
  }
}
