import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { DealingCalendarDto, ExpensesDto, LimitQueryDto, LpReportsDto } from './reporting.dto';
import { ReportingService } from './reporting.service';

@ApiTags('fund data: reporting')
@FundDataProblems()
@Controller('api/v1/fund')
export class ReportingController {
  constructor(private readonly reporting: ReportingService) {}

  @Get('expenses')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Expense accruals and payments, most recent first' })
  @Returns(ExpensesDto)
  expenses(@CurrentPrincipal() p: Principal, @Query() q: LimitQueryDto): Promise<ExpensesDto> {
    return this.reporting.expenses(fundIdOf(p), q.limit);
  }

  @Get('dealing-calendar')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Dealing frequency, notice and settlement days, next dealing date' })
  @Returns(DealingCalendarDto)
  dealingCalendar(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<DealingCalendarDto> {
    return this.reporting.dealingCalendar(fundIdOf(p));
  }

  @Get('lp-reports')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'LP reports: period covered, status and a short narrative preview' })
  @Returns(LpReportsDto)
  lpReports(@CurrentPrincipal() p: Principal, @Query() q: LimitQueryDto): Promise<LpReportsDto> {
    return this.reporting.lpReports(fundIdOf(p), q.limit);
  }
}
