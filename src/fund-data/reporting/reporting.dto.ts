import { ApiProperty } from '@nestjs/swagger';
import { DecimalProperty } from '../common/decimal-property';
import { ListPageDto } from '../common/list-page';

export class ExpenseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['administration', 'audit', 'legal', 'other'], example: 'audit' }) category: string;
  @ApiProperty({ example: 'Example Audit LLP' }) vendor: string;
  @ApiProperty({ example: 'Annual audit fee, FY2026 (monthly accrual)' }) description: string;
  @ApiProperty({ format: 'date', example: '2026-10-01' }) accrualDate: string;
  @DecimalProperty('money', { example: '4166.67' }) amount: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: ['accrued', 'paid'], example: 'paid' }) status: string;
  @ApiProperty({ format: 'date', type: String, nullable: true, example: '2026-10-15' }) paidDate: string | null;
}

export class ExpensesDto {
  @ApiProperty({
    type: ExpenseDto,
    isArray: true,
    description: 'most recent accrual first: (accrualDate desc, external id desc)',
  })
  items: ExpenseDto[];
  @ApiProperty({ type: ListPageDto }) page: ListPageDto;
}

export class DealingTermsDto {
  @ApiProperty({ enum: ['daily', 'weekly', 'monthly', 'quarterly'], example: 'monthly' }) frequency: string;
  @ApiProperty({ example: 5 }) subscriptionNoticeDays: number;
  @ApiProperty({ example: 30 }) redemptionNoticeDays: number;
  @ApiProperty({ example: 3 }) settlementDays: number;
  @ApiProperty({
    format: 'date',
    example: '2026-11-30',
    description:
      'the next dealing date on or after today (UTC). It may be inside the notice period: a subscription or redemption proposed for it is then 422 (field dealingDate); a request needs a dealing date at least subscriptionNoticeDays or redemptionNoticeDays away',
  })
  nextDealingDate: string;
}

export class DealingCalendarDto {
  @ApiProperty({ type: DealingTermsDto }) dealing: DealingTermsDto;
}

export class LpReportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date', example: '2026-07-01' }) periodStart: string;
  @ApiProperty({ format: 'date', example: '2026-09-30' }) periodEnd: string;
  @ApiProperty({ enum: ['draft', 'distributed'], example: 'distributed' }) status: string;
  @ApiProperty({ example: 'Q3 2026: the fund returned 4.1% net of fees…', description: 'short narrative preview' })
  preview: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true, example: '2026-10-20T14:00:00.000Z' })
  distributedAt: string | null;
}

export class LpReportsDto {
  @ApiProperty({
    type: LpReportDto,
    isArray: true,
    description: 'most recent period first: (periodEnd desc, periodStart desc, id desc)',
  })
  items: LpReportDto[];
  @ApiProperty({ type: ListPageDto }) page: ListPageDto;
}
