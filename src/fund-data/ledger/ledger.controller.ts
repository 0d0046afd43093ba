import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../../common/auth/principal';
import { FundRead } from '../common/fund-read.decorator';
import { FundDataProblems } from '../common/problem-responses';
import { NoQuery } from '../../common/validation/parameterless';
import {
  GlDetailDto,
  GlDetailQueryDto,
  JournalEntriesDto,
  JournalEntriesQueryDto,
  LedgerAccountsDto,
  TrialBalanceDto,
  TrialBalanceQueryDto,
} from './ledger.dto';
import { LedgerService } from './ledger.service';

@ApiTags('fund data: ledger')
@FundDataProblems()
@Controller('api/v1/fund')
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @FundRead('trial-balance', TrialBalanceDto, 'Trial balance: the net balance of every account at the end of a date')
  trialBalance(@CurrentPrincipal() p: Principal, @Query() q: TrialBalanceQueryDto): Promise<TrialBalanceDto> {
    return this.ledger.trialBalance(fundIdOf(p), q.asOf);
  }

  @FundRead(
    'ledger/journal-entries',
    JournalEntriesDto,
    'Posted journal lines in a window of at most 92 days, keyset-paginated, with exact debit and credit sums over the whole window',
  )
  journalEntries(@CurrentPrincipal() p: Principal, @Query() q: JournalEntriesQueryDto): Promise<JournalEntriesDto> {
    return this.ledger.journalEntries(fundIdOf(p), q);
  }

  @FundRead(
    'ledger/gl-detail',
    GlDetailDto,
    'One GL account: opening balance, each posted line with a running balance, closing balance; keyset-paginated, each page opening where the previous one ended',
  )
  glDetail(@CurrentPrincipal() p: Principal, @Query() q: GlDetailQueryDto): Promise<GlDetailDto> {
    return this.ledger.glDetail(fundIdOf(p), q);
  }

  @FundRead('ledger/accounts', LedgerAccountsDto, 'The chart of accounts')
  accounts(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<LedgerAccountsDto> {
    return this.ledger.accounts(fundIdOf(p));
  }
}
