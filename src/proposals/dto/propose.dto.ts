import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  type ValidationArguments,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { ENGINE_CONTROLLED_ACCOUNTS } from '../../fund/ledger/chart-of-accounts';
import { NotBlank } from '../../common/validation/not-blank';

/** Money in base currency: a decimal string with at most 2 decimals. */
export const MONEY = /^\d{1,16}(\.\d{1,2})?$/;
/** A fraction of 1 (0 < f ≤ 1) with at most 8 decimals. */
export const FRACTION = /^(0(\.\d{1,8})?|1(\.0{1,8})?)$/;
/** A money string's failure: more whole digits than MONEY takes is "too large", anything else the format. */
const money = {
  message: ({ value }: ValidationArguments) =>
    typeof value === 'string' && /^\d{17,}(\.\d{1,2})?$/.test(value)
      ? 'is too large: at most 16 whole digits (9999999999999999.99)'
      : 'must be a decimal string with at most 2 decimals, e.g. "1250.00"',
};

export const EXPENSE_CATEGORIES = ['administration', 'audit', 'legal', 'other'] as const;
export const CAPITAL_ACTIVITY_TYPES = ['subscription', 'redemption'] as const;

export class JournalLineInputDto {
  @ApiProperty({
    example: '5600',
    description: `An account of the fund's chart of accounts, not one of the control accounts the NAV engine keeps (${[...ENGINE_CONTROLLED_ACCOUNTS.keys()].join(', ')}: 422)`,
  })
  @IsString()
  @Length(1, 20)
  accountCode: string;

  @ApiPropertyOptional({ example: '1250.00', description: 'Exactly one of debit and credit, positive' })
  @Optional()
  @IsString()
  @Matches(MONEY, money)
  debit?: string;

  @ApiPropertyOptional({ example: '1250.00' })
  @Optional()
  @IsString()
  @Matches(MONEY, money)
  credit?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 500,
    nullable: true,
    description:
      "The line's own text; absent or null: none (a proposal record shows null, and may be sent back as it is)",
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  @NotBlank()
  description?: string | null;
}

export class JournalEntryProposalDto {
  @ApiProperty({ example: '2026-03-31' })
  @IsCalendarDate()
  entryDate: string;

  @ApiProperty({ example: 'Reclassify Q1 legal fees', maxLength: 500 })
  @IsString()
  @Length(1, 500)
  @NotBlank()
  description: string;

  @ApiProperty({
    type: JournalLineInputDto,
    isArray: true,
    minItems: 2,
    maxItems: 100,
    description: 'Debits must equal credits exactly',
  })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => JournalLineInputDto)
  lines: JournalLineInputDto[];
}

export class ExpenseProposalDto {
  @ApiProperty({ enum: EXPENSE_CATEGORIES })
  @IsIn(EXPENSE_CATEGORIES)
  category: string;

  @ApiProperty({ example: 'Acme Fund Services', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @NotBlank()
  vendor: string;

  @ApiProperty({ example: '4200.00' })
  @IsString()
  @Matches(MONEY, money)
  amount: string;

  @ApiProperty({ example: '2026-03-31' })
  @IsCalendarDate()
  accrualDate: string;

  @ApiPropertyOptional({
    example: '2026-03-31',
    description: 'Last day the expense accrues over (default: accrualDate)',
  })
  @Optional()
  @IsCalendarDate()
  periodEnd?: string;

  @ApiProperty({ example: 'Q1 administration fee', maxLength: 500 })
  @IsString()
  @Length(1, 500)
  @NotBlank()
  description: string;
}

export class CapitalActivityProposalDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  investorId: string;

  @ApiProperty({ enum: CAPITAL_ACTIVITY_TYPES })
  @IsIn(CAPITAL_ACTIVITY_TYPES)
  type: string;

  @ApiProperty({ example: 'Class A', description: 'Share class name (as the read API shows it) or id' })
  @IsString()
  @Length(1, 200)
  shareClass: string;

  @ApiPropertyOptional({
    example: '250000.00',
    description:
      "Exactly one of amount and fraction; a subscription needs an amount. A redemption amount above the value of the investor's holding on the dealing date is dealt as a full redemption, not refused",
  })
  @Optional()
  @IsString()
  @Matches(MONEY, money)
  amount?: string;

  @ApiPropertyOptional({ example: '0.5', description: 'Redemptions only: fraction of the holding, 0 < f ≤ 1' })
  @Optional()
  @IsString()
  @Matches(FRACTION, { message: 'must be a decimal fraction 0 < f ≤ 1 with at most 8 decimals' })
  fraction?: string;

  @ApiProperty({
    example: '2026-06-30',
    description:
      "A dealing date on the fund's dealing calendar, at least the notice period away (422 otherwise; the dealing calendar's nextDealingDate may be inside it)",
  })
  @IsCalendarDate()
  dealingDate: string;
}

export class LpReportProposalDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Distribute this existing draft report; or give periodStart, periodEnd and narrative for a new one',
  })
  @Optional()
  @IsUUID()
  lpReportId?: string;

  @ApiPropertyOptional({ example: '2026-01-01' })
  @Optional()
  @IsCalendarDate()
  periodStart?: string;

  @ApiPropertyOptional({ example: '2026-03-31' })
  @Optional()
  @IsCalendarDate()
  periodEnd?: string;

  @ApiPropertyOptional({ maxLength: 20000 })
  @Optional()
  @IsString()
  @Length(1, 20000)
  @NotBlank()
  narrative?: string;
}
