import { ApiProperty } from '@nestjs/swagger';
import { DecimalProperty } from '../common/decimal-property';
import { STALE_RUN_DOC } from '../common/run-status';

export class FundProfileDto {
  @ApiProperty({ example: 'USD' }) baseCurrency: string;
  @ApiProperty({ format: 'date', example: '2023-10-31', nullable: true, type: String }) inceptionDate: string | null;
  @DecimalProperty('money', { example: '250000000.00', nullable: true }) aumTarget: string | null;
}

export class ShareClassDto {
  @ApiProperty({ example: 'Class A' }) name: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @DecimalProperty('ratio', { example: '0.02000000', description: 'annual management fee, fraction of 1' })
  mgmtFeeAnnualRate: string;
  @DecimalProperty('ratio', { example: '0.20000000', description: 'performance fee, fraction of 1' })
  perfFeeRate: string;
  @DecimalProperty('ratio', {
    example: '0.05000000',
    nullable: true,
    description: 'annual hard hurdle; null when there is no hurdle',
  })
  hurdleAnnualRate: string | null;
  @ApiProperty({ enum: ['monthly', 'quarterly', 'semiannual', 'annual'], example: 'quarterly' })
  crystallizationFrequency: string;
  @ApiProperty({ example: false }) feeExempt: boolean;
  @ApiProperty({ enum: ['open', 'closed', 'soft_closed'], example: 'open' }) status: string;
}

export class LatestNavDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) valuationDate: string;
  @ApiProperty({
    enum: ['complete', 'stale'],
    example: 'complete',
    description: `the latest complete run's status as served: complete, or ${STALE_RUN_DOC}`,
  })
  status: string;
  @DecimalProperty('money', { example: '10920331.07' }) grossAssetValue: string;
  @DecimalProperty('money', { example: '10411877.20' }) netAssetValue: string;
}

export class OverviewDto {
  @ApiProperty({ type: FundProfileDto }) fund: FundProfileDto;
  @ApiProperty({ type: ShareClassDto, isArray: true }) shareClasses: ShareClassDto[];
  @ApiProperty({
    type: LatestNavDto,
    nullable: true,
    description: 'the latest complete NAV run (status stale: it must be run again); null before the first complete run',
  })
  latestNav: LatestNavDto | null;
}

export class FeeTermsShareClassDto extends ShareClassDto {
  @ApiProperty({ format: 'date', example: '2023-10-31' }) launchDate: string;
}

export class FeeTermsDto {
  @ApiProperty({ example: 'USD' }) baseCurrency: string;
  @ApiProperty({ example: 'class NAV at start of day' }) managementFeeBasis: string;
  @ApiProperty({ example: 'daily, paid monthly' }) managementFeeAccrual: string;
  @ApiProperty({ example: 'ACT/365' }) dayCountConvention: string;
  @ApiProperty({ example: 'series (per subscription lot) high-water mark' }) performanceFeeMethod: string;
  @ApiProperty({ example: 'hard' }) hurdleType: string;
  @ApiProperty({ example: 'annual effective rate, accrued daily: (1 + h)^(days/365) (ACT/365)' })
  hurdleCompounding: string;
  @ApiProperty({ type: String, isArray: true, example: ['period end', 'redemption'] }) crystallizationEvents: string[];
  @ApiProperty({ type: FeeTermsShareClassDto, isArray: true }) shareClasses: FeeTermsShareClassDto[];
}
