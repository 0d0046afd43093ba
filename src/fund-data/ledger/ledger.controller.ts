import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';
import { fundIdOf } from '../common/fund-scope';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../common/no-query';
import {
  GlDetailDto, GlDetailQueryDto, JournalEntriesDto, JournalEntriesQueryDto, LedgerAccountsDto, TrialBalanceDto, TrialBalanceQueryDto,
} from './ledger.dto';
import { LedgerService } from './ledger.service';

@ApiTags('fund data: ledger')
@FundDataProblems()
@Controller('api/v1/fund')
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @Get('trial-balance')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Trial balance: the net balance of every account at the end of a date' })
  @Returns(TrialBalanceDto)
  trialBalance(@CurrentPrincipal() p: Principal, @Query() q: TrialBalanceQueryDto): Promise<TrialBalanceDto> {
    return this.ledger.trialBalance(fundIdOf(p), q.asOf);
  }

  @Get('ledger/journal-entries')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'Posted journal lines in a window of at most 92 days, with exact debit and credit sums over the whole window' })
  @Returns(JournalEntriesDto)
  journalEntries(@CurrentPrincipal() p: Principal, @Query() q: JournalEntriesQueryDto): Promise<JournalEntriesDto> {
    return this.ledger.journalEntries(fundIdOf(p), q);
  }

  @Get('ledger/gl-detail')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'One GL account: opening balance, each posted line with a running balance, closing balance' })
  @Returns(GlDetailDto)
  glDetail(@CurrentPrincipal() p: Principal, @Query() q: GlDetailQueryDto): Promise<GlDetailDto> {
    return this.ledger.glDetail(fundIdOf(p), q);
  }

  @Get('ledger/accounts')
  @RequiresScopes('fund:read')
  @RateLimitPolicy('fund-minute')
  @ApiOperation({ summary: 'The chart of accounts' })
  @Returns(LedgerAccountsDto)
  accounts(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<LedgerAccountsDto> {
    return this.ledger.accounts(fundIdOf(p));
  }
}
