import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { DealingCalendarDto, ExpensesDto, LimitQueryDto, LpReportsDto } from './reporting.dto';
import { ReportingService } from './reporting.service';

@ApiTags('fund data: reporting')
@FundDataProblems()
@Controller('api/v1/fund')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  @FundRead('expenses', ExpensesDto, 'Expense accruals and payments, most recent first')
  expenses(@CurrentPrincipal() p: Principal, @Query() q: LimitQueryDto): Promise<ExpensesDto> {
    return this.reporting.expenses(fundIdOf(p), q.limit);
  }

  @FundRead('dealing-calendar', DealingCalendarDto, 'Dealing frequency, notice and settlement days, next dealing date')
  dealingCalendar(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<DealingCalendarDto> {
    return this.reporting.dealingCalendar(fundIdOf(p));
  }

  @FundRead('lp-reports', LpReportsDto, 'LP reports: period covered, status and a short narrative preview')
  lpReports(@CurrentPrincipal() p: Principal, @Query() q: LimitQueryDto): Promise<LpReportsDto> {
    return this.reporting.lpReports(fundIdOf(p), q.limit);
  }
}
