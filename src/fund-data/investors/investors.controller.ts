import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import {
  CapitalAccountsDto,
  CapitalActivityListDto,
  CapitalActivityQueryDto,
  InvestorsDto,
  InvestorsQueryDto,
} from './investors.dto';
import { InvestorsService } from './investors.service';

@ApiTags('fund data: investors')
@FundDataProblems()
@Controller('api/v1/fund')
export class InvestorsController {
  constructor(private readonly investors: InvestorsService) {}

  @FundRead(
    'investors',
    InvestorsDto,
    'Investor register: display name, status, type, open subscription lots and units; by display name, keyset-paginated',
  )
  list(@CurrentPrincipal() p: Principal, @Query() q: InvestorsQueryDto): Promise<InvestorsDto> {
    return this.investors.investors(fundIdOf(p), q);
  }

  @FundRead(
    'capital-accounts',
    CapitalAccountsDto,
    'Per-investor capital accounts of the latest complete NAV run (closing capital sums to its NAV)',
  )
  capitalAccounts(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<CapitalAccountsDto> {
    return this.investors.capitalAccounts(fundIdOf(p));
  }

  @FundRead(
    'capital-activity',
    CapitalActivityListDto,
    'Subscription and redemption requests: type, amount or fraction, dealing date, status; latest dealing date first, keyset-paginated',
  )
  capitalActivity(
    @CurrentPrincipal() p: Principal,
    @Query() q: CapitalActivityQueryDto,
  ): Promise<CapitalActivityListDto> {
    return this.investors.capitalActivity(fundIdOf(p), q);
  }
}
