import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { DecimalProperty } from '../common/decimal-property';
import { ListPageDto } from '../common/list-page';

export class InvestorsQueryDto extends CursorPageQueryDto {}

export class InvestorDto {
  @ApiProperty({ format: 'uuid' }) investorId: string;
  @ApiProperty({
    example: 'Investor 017',
    description: 'display name only; legal names and contact details never leave the service',
  })
  displayName: string;
  @ApiProperty({ enum: ['active', 'pending', 'redeemed', 'closed'], example: 'active' }) status: string;
  @ApiProperty({ example: 'family_office' }) investorType: string;
  @ApiProperty({ example: 3, description: 'subscription lots holding units in the latest complete run' })
  openLots: number;
  @DecimalProperty('units', {
    example: '1523.40912345',
    description:
      "units held in the latest complete run, summed over the investor's share classes (units of different classes are priced differently: per class, see /fund/capital-accounts)",
  })
  units: string;
}

export class InvestorsDto {
  @ApiProperty({ type: InvestorDto, isArray: true, description: 'by display name, then id' }) items: InvestorDto[];
  @ApiProperty({ type: ListPageDto }) page: ListPageDto;
}

export class CapitalAccountDto {
  @ApiProperty({ format: 'uuid' }) investorId: string;
  @ApiProperty({ example: 'Investor 017' }) displayName: string;
  @ApiProperty({ example: 'Class A' }) shareClass: string;
  @DecimalProperty('money', { example: '1500000.00' }) openingCapital: string;
  @DecimalProperty('money', { example: '0.00' }) contributions: string;
  @DecimalProperty('money', { example: '0.00' }) redemptions: string;
  @DecimalProperty('money', { example: '2310.55' }) pnl: string;
  @DecimalProperty('money', { example: '82.19' }) managementFee: string;
  @DecimalProperty('money', { example: '441.03' }) performanceFee: string;
  @DecimalProperty('money', { example: '1501787.33' }) closingCapital: string;
  @DecimalProperty('units', { example: '1203.11881188' }) units: string;
  @DecimalProperty('navPerUnit', {
    example: '1248.252101',
    nullable: true,
    description:
      "the share class's NAV per unit in this run (class NAV / class units), the same for every investor of the class; not this investor's value per unit",
  })
  classNavPerUnit: string | null;
  @DecimalProperty('valuePerUnit', {
    example: '1231.004560187202',
    nullable: true,
    description:
      "this investor's own value per unit: closingCapital / units (below the class figure while a performance fee is accrued on the investor's lots); units × investorNavPerUnit = closingCapital to the cent; null without units",
  })
  investorNavPerUnit: string | null;
  @DecimalProperty('ratio', { example: '0.14423411', description: 'closing capital / run NAV' }) ownershipRatio: string;
}

export class CapitalAccountTotalsDto {
  @DecimalProperty('money', { example: '10400000.00' }) openingCapital: string;
  @DecimalProperty('money', { example: '0.00' }) contributions: string;
  @DecimalProperty('money', { example: '0.00' }) redemptions: string;
  @DecimalProperty('money', { example: '16021.10' }) pnl: string;
  @DecimalProperty('money', { example: '570.00' }) managementFee: string;
  @DecimalProperty('money', { example: '3573.90' }) performanceFee: string;
  @DecimalProperty('money', { example: '10411877.20', description: 'equals the run netAssetValue exactly' })
  closingCapital: string;
}

export class CapitalAccountsDto {
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) navRunId: string | null;
  @ApiProperty({ format: 'date', type: String, nullable: true, example: '2026-10-31' }) valuationDate: string | null;
  @ApiProperty({
    type: CapitalAccountDto,
    isArray: true,
    description: 'per investor and share class for the latest complete run',
  })
  accounts: CapitalAccountDto[];
  @ApiProperty({ type: CapitalAccountTotalsDto }) totals: CapitalAccountTotalsDto;
}

export const CAPITAL_ACTIVITY_STATUSES = ['pending', 'running', 'executed', 'settled', 'cancelled', 'failed'] as const;

export class CapitalActivityQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: CAPITAL_ACTIVITY_STATUSES })
  @IsOptional()
  @IsIn(CAPITAL_ACTIVITY_STATUSES)
  status?: (typeof CAPITAL_ACTIVITY_STATUSES)[number];
}

export class DealtFlowDto {
  @DecimalProperty('money', {
    example: '250000.00',
    description: 'the amount dealt: the requested amount, or what a redeemed fraction came to',
  })
  amount: string;
  @DecimalProperty('units', { example: '2116.23174412', description: 'units issued (subscription) or cancelled' })
  units: string;
  @DecimalProperty('valuePerUnit', {
    example: '118.133964125800',
    description:
      "the price dealt at (kept to 10 decimals): the class's gross NAV per unit that day (before accrued performance fees), or its initial price for a class with no units all day. A subscription's units = amount / this price; a redemption's units × this price = amount + performanceFeeCrystallized (the redeemed lots' accrued fee goes to the manager), to the cent",
  })
  navPerUnit: string;
  @DecimalProperty('money', {
    example: '0.00',
    description: "the performance fee the redeemed units' accrual crystallized (0 for a subscription)",
  })
  performanceFeeCrystallized: string;
}

export class CapitalActivityDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) investorId: string;
  @ApiProperty({ example: 'Investor 017' }) displayName: string;
  @ApiProperty({ enum: ['subscription', 'redemption'] }) type: string;
  @ApiProperty({ example: 'Class A' }) shareClass: string;
  @DecimalProperty('money', {
    example: '250000.00',
    nullable: true,
    description: 'exactly one of requestedAmount / requestedFraction is non-null',
  })
  requestedAmount: string | null;
  @DecimalProperty('ratio', { nullable: true, example: '0.50000000' }) requestedFraction: string | null;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) dealingDate: string;
  @ApiProperty({ enum: CAPITAL_ACTIVITY_STATUSES, example: 'pending' }) status: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-02T09:30:00.000Z' }) createdAt: string;
  @ApiProperty({
    type: DealtFlowDto,
    nullable: true,
    description:
      'what the complete NAV run of the dealing date dealt; null until that run completes, and for a request it could not deal',
  })
  dealt: DealtFlowDto | null;
}

export class CapitalActivityListDto {
  @ApiProperty({
    type: CapitalActivityDto,
    isArray: true,
    description: 'latest dealing date first: (dealingDate, createdAt, id) desc',
  })
  items: CapitalActivityDto[];
  @ApiProperty({ type: ListPageDto }) page: ListPageDto;
}
