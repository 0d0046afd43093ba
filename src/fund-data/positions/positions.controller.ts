import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import { BreakdownDto, ExposureDto, ExposureSeriesQueryDto, ExposureSeriesRowDto, PositionsDto } from './positions.dto';
import { PositionsService } from './positions.service';

@ApiTags('fund data: portfolio')
@FundDataProblems()
@Controller('api/v1/fund')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get('positions')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Live positions of live connections at the latest closes (never paper connections)' })
  @Returns(PositionsDto)
  list(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<PositionsDto> {
    return this.positions.positions(fundIdOf(p));
  }

  @Get('breakdown')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Live market value by asset, by connection source type and by venue' })
  @Returns(BreakdownDto)
  breakdown(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<BreakdownDto> {
    return this.positions.breakdown(fundIdOf(p));
  }

  @Get('exposure')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Long, short, gross, net and cash exposure of the live book, with ratios over NAV' })
  @Returns(ExposureDto)
  exposure(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<ExposureDto> {
    return this.positions.exposure(fundIdOf(p));
  }

  @Get('exposure/series')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Exposure per complete NAV run over a trailing window of days (one row per usable run)' })
  @Returns(ExposureSeriesRowDto, { isArray: true })
  series(@CurrentPrincipal() p: Principal, @Query() q: ExposureSeriesQueryDto): Promise<ExposureSeriesRowDto[]> {
    return this.positions.exposureSeries(fundIdOf(p), q.days);
  }
}
