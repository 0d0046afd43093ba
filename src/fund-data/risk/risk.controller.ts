import { Controller, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import { AttributionService } from './attribution.service';
import { PerformanceService } from './performance.service';
import {
  AttributionDatesDto,
  AttributionDto,
  AttributionQueryDto,
  PerformanceDto,
  PerformanceQueryDto,
  StressPresetsDto,
  StressTestDto,
  StressTestQueryDto,
  VarDto,
  VarQueryDto,
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

  @FundRead(
    'risk/var',
    VarDto,
    'Parametric value at risk of the live book (sample or EWMA covariance), with Euler components',
  )
  @ApiResponse({ status: 422, description: 'unprocessable: not enough aligned closes for windowDays' })
  valueAtRisk(@CurrentPrincipal() p: Principal, @Query() q: VarQueryDto): Promise<VarDto> {
    return this.var_.valueAtRisk(fundIdOf(p), q);
  }

  @FundRead(
    'risk/stress-presets',
    StressPresetsDto,
    'Historical stress scenarios with their date windows, sources and per-asset returns',
  )
  stressPresets(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<StressPresetsDto> {
    return this.stress.presets(fundIdOf(p));
  }

  @FundRead(
    'risk/stress-test',
    StressTestDto,
    'Applies a stress preset to the current live positions (asset-class fallback for unnamed assets)',
  )
  stressTest(@CurrentPrincipal() p: Principal, @Query() q: StressTestQueryDto): Promise<StressTestDto> {
    return this.stress.stressTest(fundIdOf(p), q.preset);
  }

  @FundRead(
    'performance',
    PerformanceDto,
    'Net-of-fee performance of a share class from its lead series (the value per original unit of a lot issued when the class first had units, net of every fee): period returns, monthly table, volatility, drawdown',
  )
  performance(@CurrentPrincipal() p: Principal, @Query() q: PerformanceQueryDto): Promise<PerformanceDto> {
    return this.perf.performance(fundIdOf(p), q.shareClass);
  }

  @FundRead(
    'pnl/attribution',
    AttributionDto,
    'P&L attribution between the run on a date and the previous usable run (exact identities to the cent)',
  )
  @ApiResponse({
    status: 422,
    description: 'unprocessable: the date is the first usable run (nothing to attribute against)',
  })
  attributionOn(@CurrentPrincipal() p: Principal, @Query() q: AttributionQueryDto): Promise<AttributionDto> {
    return this.attribution.attribution(fundIdOf(p), q.date);
  }

  @FundRead(
    'pnl/attribution-dates',
    AttributionDatesDto,
    'Dates for which attribution can be run (a complete run with a usable previous run)',
  )
  attributionDates(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<AttributionDatesDto> {
    return this.attribution.dates(fundIdOf(p));
  }
}
