import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { DealingCalendarDto, ExpensesDto, LpReportsDto } from './reporting.dto';
import { ReportingService } from './reporting.service';

@ApiTags('fund data: reporting')
@FundDataProblems()
@Controller('api/v1/fund')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  @FundRead(
    'expenses',
    ExpensesDto,
    'Expense accruals and payments, most recent first, keyset-paginated with an opaque cursor',
  )
  expenses(@CurrentPrincipal() p: Principal, @Query() q: CursorPageQueryDto): Promise<ExpensesDto> {
    return this.reporting.expenses(fundIdOf(p), q);
  }

  @FundRead('dealing-calendar', DealingCalendarDto, 'Dealing frequency, notice and settlement days, next dealing date')
  dealingCalendar(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<DealingCalendarDto> {
    return this.reporting.dealingCalendar(fundIdOf(p));
  }

  @FundRead(
    'lp-reports',
    LpReportsDto,
    'LP reports: period covered, status and a short narrative preview, most recent first, keyset-paginated',
  )
  lpReports(@CurrentPrincipal() p: Principal, @Query() q: CursorPageQueryDto): Promise<LpReportsDto> {
    return this.reporting.lpReports(fundIdOf(p), q);
  }
}
