import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { TradesPageDto, TradesQueryDto } from './trades.dto';
import { TradesService } from './trades.service';

@ApiTags('fund data: trades')
@FundDataProblems()
@Controller('api/v1/fund')
export class TradesController {
  constructor(private readonly trades: TradesService) {}

  @FundRead(
    'trades',
    TradesPageDto,
    'Executed trades of live connections, most recent first, keyset-paginated with an opaque cursor',
    {
      details:
        'The interface document\'s "executed exchange trades" covers every execution on a real (live) connection: on exchanges (e.g. Coinbase Prime, Kraken) and through brokers (e.g. Interactive Brokers, Goldman Sachs prime brokerage); venue names where. Trades of paper-trading connections never appear',
    },
  )
  list(@CurrentPrincipal() p: Principal, @Query() q: TradesQueryDto): Promise<TradesPageDto> {
    return this.trades.trades(fundIdOf(p), q);
  }
}
