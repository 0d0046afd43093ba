import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { TradesPageDto, TradesQueryDto } from './trades.dto';
import { TradesService } from './trades.service';

@ApiTags('fund data: trades')
@FundDataProblems()
@Controller('api/v1/fund')
export class TradesController {
  constructor(private readonly trades: TradesService) {}

  @Get('trades')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Executed trades of live connections, most recent first, keyset-paginated with an opaque cursor' })
  @Returns(TradesPageDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: TradesQueryDto): Promise<TradesPageDto> {
    return this.trades.trades(fundIdOf(p), q);
  }
}
