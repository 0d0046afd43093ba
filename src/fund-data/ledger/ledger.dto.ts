import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { DecimalProperty } from '../common/decimal-property';
import { NEXT_CURSOR_DOC } from '../common/list-page';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'];

export class TrialBalanceQueryDto {
  @ApiPropertyOptional({
    format: 'date',
    description: 'balances at the end of this day; default: the latest entry date',
  })
  @IsOptional()
  @IsCalendarDate()
  asOf?: string;
}

export class TrialBalanceAccountDto {
  @ApiProperty({ example: '1000' }) accountCode: string;
  @ApiProperty({ example: 'Cash at bank' }) accountName: string;
  @ApiProperty({ enum: ACCOUNT_TYPES, example: 'asset' }) accountType: string;
  @DecimalProperty('money', { example: '1250000.00', description: 'net debit balance, or 0.00' }) debit: string;
  @DecimalProperty('money', { example: '0.00', description: 'net credit balance, or 0.00' }) credit: string;
}

export class TrialBalanceDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) asOf: string;
  @ApiProperty({ type: TrialBalanceAccountDto, isArray: true, description: 'every account of the chart, by code' })
  accounts: TrialBalanceAccountDto[];
  @DecimalProperty('money', { example: '15750000.00' }) totalDebits: string;
  @DecimalProperty('money', { example: '15750000.00' }) totalCredits: string;
  @ApiProperty({ example: true }) balanced: boolean;
}

export class JournalEntriesQueryDto extends CursorPageQueryDto {
  @ApiProperty({ format: 'date', description: 'first entry date (inclusive), REQUIRED' })
  @IsDefined()
  @IsCalendarDate()
  from: string;

  @ApiProperty({ format: 'date', description: 'last entry date (inclusive), REQUIRED; at most 92 days after `from`' })
  @IsDefined()
  @IsCalendarDate()
  to: string;
}

export class JournalLineDto {
  @ApiProperty({ example: '5812331' }) lineId: string;
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ example: '118233' }) entryNumber: string;
  @ApiProperty({ format: 'date', example: '2026-10-31' }) entryDate: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-01T00:05:12.000Z' }) postedAt: string;
  @ApiProperty({ example: '1250' }) accountCode: string;
  @ApiProperty({ example: 'Unrealized appreciation' }) accountName: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) accountType: string;
  @DecimalProperty('money', { example: '15230.11' }) debit: string;
  @DecimalProperty('money', { example: '0.00' }) credit: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'mark to market at 2026-10-31 closes' }) description: string;
  @ApiProperty({ example: 'mark_to_market' }) source: string;
  @ApiProperty({ type: String, nullable: true, example: null }) sourceRef: string | null;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) navRunId: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Class A' }) shareClass: string | null;
  @ApiProperty({ enum: ['posted', 'reversed', 'reversal'], example: 'posted' }) status: string;
}

export class JournalTotalsDto {
  @ApiProperty({ example: 48211, description: 'lines in the whole window' }) lineCount: number;
  @DecimalProperty('money', { example: '98223110.52', description: 'exact sum over the whole window' }) debits: string;
  @DecimalProperty('money', { example: '98223110.52', description: 'exact sum over the whole window' }) credits: string;
}

export class JournalEntriesDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: JournalLineDto, isArray: true, description: 'this page of the window, by (entryDate, lineId)' })
  lines: JournalLineDto[];
  @ApiProperty({ type: JournalTotalsDto, description: 'the whole window, whatever the page' }) totals: JournalTotalsDto;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string | null;
  @ApiProperty({ description: 'true when a next page exists' }) hasMore: boolean;
}

export class GlDetailQueryDto extends CursorPageQueryDto {
  @ApiProperty({ example: '1000', description: 'REQUIRED account code' })
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,32}$/, { message: 'must be an account code' })
  accountCode: string;

  @ApiPropertyOptional({ format: 'date', description: 'default: 30 days before `to`' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'default: the latest entry date' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class GlLineDto {
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty({ example: 'subscription SUB-0042 (Class A)' }) description: string;
  @DecimalProperty('money', { example: '250000.00' }) debit: string;
  @DecimalProperty('money', { example: '0.00' }) credit: string;
  @DecimalProperty('money', { example: '1750000.00', description: 'in the account’s normal-balance direction' })
  runningBalance: string;
}

export class GlAccountDto {
  @ApiProperty({ example: '1000' }) code: string;
  @ApiProperty({ example: 'Cash at bank' }) name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) type: string;
}

export class GlDetailDto {
  @ApiProperty({ type: GlAccountDto }) account: GlAccountDto;
  @ApiProperty({ format: 'date', description: 'the window, resolved (a later page keeps the first page’s)' })
  from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @DecimalProperty('money', {
    example: '1500000.00',
    description:
      'normal-balance direction: on the first page the balance before `from`; on a later page the previous page’s last running balance',
  })
  openingBalance: string;
  @ApiProperty({ type: GlLineDto, isArray: true, description: 'this page of the window, by (entryDate, line id)' })
  lines: GlLineDto[];
  @DecimalProperty('money', {
    example: '1750000.00',
    description: 'balance at the end of `to` (the whole window, whatever the page)',
  })
  closingBalance: string;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string | null;
  @ApiProperty({ description: 'true when a next page exists' }) hasMore: boolean;
}

export class LedgerAccountDto {
  @ApiProperty({ example: '1000' }) accountCode: string;
  @ApiProperty({ example: 'Cash at bank' }) accountName: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) accountType: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) normalBalance: string;
  @ApiProperty({
    example: true,
    description:
      'Whether a proposed manual journal entry may post to it: false for the control accounts the NAV engine keeps (positions, fees, dealing, the period close)',
  })
  manualPosting: boolean;
}

export class LedgerAccountsDto {
  @ApiProperty({ type: LedgerAccountDto, isArray: true }) items: LedgerAccountDto[];
  @ApiProperty({ example: 23 }) total: number;
}
