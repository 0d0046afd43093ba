import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { DecimalProperty } from '../common/decimal-property';
import { LimitParam } from '../common/query-params';
import { CURSOR_MAX_LENGTH } from '../../common/pagination/cursor';

export class TradesQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'first UTC calendar day of executedAt (inclusive)' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'last UTC calendar day of executedAt (inclusive)' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;

  @ApiPropertyOptional({ example: 'BTC', description: 'instrument symbol' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,32}$/, { message: 'must be an instrument symbol' })
  symbol?: string;

  @ApiPropertyOptional({ enum: ['buy', 'sell'] })
  @IsOptional()
  @IsIn(['buy', 'sell'])
  side?: 'buy' | 'sell';

  @LimitParam(500) limit?: number;

  @ApiPropertyOptional({ description: 'opaque cursor from the previous page (nextCursor)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty (leave it out for the first page)' })
  @MaxLength(CURSOR_MAX_LENGTH)
  cursor?: string;
}

export class TradeDto {
  @ApiProperty({ example: '184467', description: 'trade id' }) id: string;
  @ApiProperty({ format: 'date-time', example: '2026-10-31T15:42:07.123Z' }) executedAt: string;
  @ApiProperty({ example: 'BTC' }) symbol: string;
  @ApiProperty({ enum: ['buy', 'sell'] }) side: string;
  @DecimalProperty('quantity', { example: '1.25' }) quantity: string;
  @DecimalProperty('quantity', { example: '68250.12' }) price: string;
  @DecimalProperty('money', { example: '85312.65', description: 'quantity × price' }) notional: string;
  @DecimalProperty('quantity', {
    example: '42.66',
    description:
      'in feeCurrency: money with at least 2 decimals when that is the fund\'s base currency ("3.00", "22.50"; a sub-cent fee keeps its digits as booked, "0.004"), a quantity when it is an asset (a crypto fee, "0.0005")',
  })
  fee: string;
  @ApiProperty({ example: 'USD' }) feeCurrency: string;
  @ApiProperty({ example: 'Coinbase Prime', description: 'the exchange or broker it was executed on' }) venue: string;
}

export class TradesPageDto {
  @ApiProperty({ type: TradeDto, isArray: true, description: 'most recent first: (executedAt desc, id desc)' })
  items: TradeDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'opaque, integrity-checked; pass as `cursor` for the next page',
  })
  nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}
