import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import { FeeTermsDto, OverviewDto } from './overview.dto';
import { OverviewService } from './overview.service';

@ApiTags('fund data: overview')
@FundDataProblems()
@Controller('api/v1/fund')
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @FundRead('overview', OverviewDto, 'The fund, its share classes and the latest complete NAV')
  get(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<OverviewDto> {
    return this.overview.overview(fundIdOf(p));
  }

  @FundRead('fee-terms', FeeTermsDto, 'Management and performance fee terms and the share classes they apply to')
  feeTerms(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<FeeTermsDto> {
    return this.overview.feeTerms(fundIdOf(p));
  }
}
