import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NavHistoryDto, NavHistoryQueryDto, ReconciliationDto, ReconciliationQueryDto } from './nav.dto';
import { NavService } from './nav.service';

@ApiTags('fund data: NAV')
@FundDataProblems()
@Controller('api/v1/fund/nav')
export class NavController {
  constructor(private readonly nav: NavService) {}

  @FundRead('history', NavHistoryDto, 'NAV runs (all statuses) with class NAV per unit, latest first, keyset-paginated')
  history(@CurrentPrincipal() p: Principal, @Query() q: NavHistoryQueryDto): Promise<NavHistoryDto> {
    return this.nav.history(fundIdOf(p), q);
  }

  @FundRead(
    'reconciliation',
    ReconciliationDto,
    'Shadow NAV against the administrator NAV, with the difference and the tolerance check; latest first, keyset-paginated',
  )
  reconciliation(@CurrentPrincipal() p: Principal, @Query() q: ReconciliationQueryDto): Promise<ReconciliationDto> {
    return this.nav.reconciliation(fundIdOf(p), q);
  }
}
