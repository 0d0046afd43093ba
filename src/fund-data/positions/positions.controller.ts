import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import { BreakdownDto, ExposureDto, ExposureSeriesQueryDto, ExposureSeriesRowDto, PositionsDto } from './positions.dto';
import { PositionsService } from './positions.service';

@ApiTags('fund data: portfolio')
@FundDataProblems()
@Controller('api/v1/fund')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @FundRead(
    'positions',
    PositionsDto,
    'Live positions of live connections at the latest closes (never paper connections)',
  )
  list(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<PositionsDto> {
    return this.positions.positions(fundIdOf(p));
  }

  @FundRead('breakdown', BreakdownDto, 'Live market value by asset, by connection source type and by venue')
  breakdown(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<BreakdownDto> {
    return this.positions.breakdown(fundIdOf(p));
  }

  @FundRead('exposure', ExposureDto, 'Long, short, gross, net and cash exposure of the live book, with ratios over NAV')
  exposure(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<ExposureDto> {
    return this.positions.exposure(fundIdOf(p));
  }

  @FundRead(
    'exposure/series',
    ExposureSeriesRowDto,
    'Exposure per complete NAV run over a trailing window of days (one row per usable run)',
    { isArray: true },
  )
  series(@CurrentPrincipal() p: Principal, @Query() q: ExposureSeriesQueryDto): Promise<ExposureSeriesRowDto[]> {
    return this.positions.exposureSeries(fundIdOf(p), q.days);
  }
}
