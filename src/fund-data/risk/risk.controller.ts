import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { AttributionService } from './attribution.service';
import { PerformanceService } from './performance.service';
import {
  AttributionDatesDto, AttributionDto, AttributionQueryDto, PerformanceDto, PerformanceQueryDto, StressPresetsDto, StressTestDto,
  StressTestQueryDto, VarDto, VarQueryDto,
} from './risk.dto';
import { StressService } from './stress.service';
import { VarService } from './var.service';

@ApiTags('fund data: risk and analytics')
@FundDataProblems()
@Controller('api/v1/fund')
export class RiskController {
  constructor(
    private readonly var_: VarService,
    private readonly stress: StressService,
    private readonly perf: PerformanceService,
    private readonly attribution: AttributionService,
  ) {}

  @Get('risk/var')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Parametric value at risk of the live book (sample or EWMA covariance), with Euler components' })
  @ApiResponse({ status: 422, description: 'unprocessable: not enough aligned closes for windowDays' })
  @Returns(VarDto)
  valueAtRisk(@CurrentPrincipal() p: Principal, @Query() q: VarQueryDto): Promise<VarDto> {
    return this.var_.valueAtRisk(fundIdOf(p), q);
  }

  @Get('risk/stress-presets')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Historical stress scenarios with their date windows, sources and per-asset returns' })
  @Returns(StressPresetsDto)
  stressPresets(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<StressPresetsDto> {
    return this.stress.presets(fundIdOf(p));
  }

  @Get('risk/stress-test')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Applies a stress preset to the current live positions (asset-class fallback for unnamed assets)' })
  @Returns(StressTestDto)
  stressTest(@CurrentPrincipal() p: Principal, @Query() q: StressTestQueryDto): Promise<StressTestDto> {
    return this.stress.stressTest(fundIdOf(p), q.preset);
  }

  @Get('performance')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Net-of-fee performance of a share class from its NAV per unit: period returns, monthly table, volatility, drawdown' })
  @Returns(PerformanceDto)
  performance(@CurrentPrincipal() p: Principal, @Query() q: PerformanceQueryDto): Promise<PerformanceDto> {
    return this.perf.performance(fundIdOf(p), q.shareClass);
  }

  @Get('pnl/attribution')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'P&L attribution between the run on a date and the previous usable run (exact identities to the cent)' })
  @ApiResponse({ status: 422, description: 'unprocessable: the date is the first usable run (nothing to attribute against)' })
  @Returns(AttributionDto)
  attributionOn(@CurrentPrincipal() p: Principal, @Query() q: AttributionQueryDto): Promise<AttributionDto> {
    return this.attribution.attribution(fundIdOf(p), q.date);
  }

  @Get('pnl/attribution-dates')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Dates for which attribution can be run (a complete run with a usable previous run)' })
  @Returns(AttributionDatesDto)
  attributionDates(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<AttributionDatesDto> {
    return this.attribution.dates(fundIdOf(p));
  }
}
