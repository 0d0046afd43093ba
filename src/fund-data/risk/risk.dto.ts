import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { DecimalProperty } from '../common/decimal-property';
import { QueryInteger } from '../../common/validation/query-integer';
import { NotBlank } from '../../common/validation/not-blank';

export class VarQueryDto {
  @ApiPropertyOptional({ enum: ['0.95', '0.99'], default: '0.99' })
  @IsOptional()
  @IsIn(['0.95', '0.99'])
  confidence?: '0.95' | '0.99';

  @ApiPropertyOptional({ type: 'integer', enum: [1, 10], default: 1 })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @IsIn([1, 10])
  horizonDays?: number;

  @ApiPropertyOptional({ enum: ['sample', 'ewma'], default: 'ewma' })
  @IsOptional()
  @IsIn(['sample', 'ewma'])
  method?: 'sample' | 'ewma';

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 30,
    maximum: 1000,
    default: 250,
    description: 'daily returns in the estimation window',
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(30)
  @Max(1000)
  windowDays?: number;
}

export class VarComponentDto {
  @ApiProperty({ example: 'BTC' }) asset: string;
  @DecimalProperty('money', { example: '4000000.00', description: 'signed net market value across live connections' })
  marketValue: string;
  @DecimalProperty('money', { example: '310867.92', description: 'Euler component; components sum to valueAtRisk' })
  componentVar: string;
  @DecimalProperty('ratio', { example: '0.55746533', description: 'componentVar / valueAtRisk' })
  contributionRatio: string;
}

export class VarDto {
  @ApiProperty({ format: 'date', example: '2026-10-31', description: 'last close of the estimation window' })
  asOf: string;
  @ApiProperty({ enum: ['sample', 'ewma'] }) method: string;
  @DecimalProperty('ratio', { example: '0.99000000' }) confidence: string;
  @ApiProperty({ example: 1 }) horizonDays: number;
  @ApiProperty({ example: 250 }) windowDays: number;
  @DecimalProperty('money', { example: '10411877.20', nullable: true }) nav: string | null;
  @DecimalProperty('money', { example: '557644.56', description: 'z × σ_p × sqrt(horizonDays)' }) valueAtRisk: string;
  @DecimalProperty('ratio', { example: '0.05355808', nullable: true, description: 'valueAtRisk / NAV' })
  valueAtRiskRatio: string | null;
  @DecimalProperty('money', {
    example: '239708.16',
    description: 'σ_p: one-day standard deviation of portfolio P&L, base currency',
  })
  portfolioVolatility: string;
  @ApiProperty({ type: VarComponentDto, isArray: true, description: 'non-cash assets (cash and stablecoins excluded)' })
  components: VarComponentDto[];
}

export class StressPresetDto {
  @ApiProperty({ example: 'covid-2020' }) id: string;
  @ApiProperty({ example: 'COVID-19 crash' }) name: string;
  @ApiProperty({ example: 'Global risk-off, 19 Feb – 23 Mar 2020' }) description: string;
  @ApiProperty({ format: 'date', example: '2020-02-19' }) windowStart: string;
  @ApiProperty({ format: 'date', example: '2020-03-23' }) windowEnd: string;
  @ApiProperty({ example: 'S&P Dow Jones Indices; CoinMetrics (approximate)' }) source: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { SPY: '-0.33920000', BTC: '-0.50000000' },
    description: 'asset symbol → return (decimal fraction)',
  })
  returns: Record<string, string>;
}

export class StressPresetsDto {
  @ApiProperty({ type: StressPresetDto, isArray: true }) items: StressPresetDto[];
  @ApiProperty({ example: 5 }) total: number;
}

export class StressTestQueryDto {
  @ApiProperty({ example: 'covid-2020', description: 'REQUIRED preset id (see /fund/risk/stress-presets)' })
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'must be a preset id' })
  preset: string;
}

export class StressAssetDto {
  @ApiProperty({ example: 'BTC' }) asset: string;
  @ApiProperty({ example: 'crypto' }) assetClass: string;
  @DecimalProperty('money', { example: '4000000.00' }) marketValue: string;
  @DecimalProperty('ratio', { example: '-0.50000000' }) returnRatio: string;
  @DecimalProperty('money', { example: '-2000000.00' }) pnl: string;
  @ApiProperty({ example: false, description: 'true when the asset-class fallback return was used' }) fallback: boolean;
}

export class StressTestDto {
  @ApiProperty({ example: 'covid-2020' }) preset: string;
  @ApiProperty({ format: 'date', example: '2026-10-31' }) asOf: string;
  @DecimalProperty('money', { example: '10411877.20', nullable: true }) nav: string | null;
  @DecimalProperty('money', { example: '-3120554.10' }) pnl: string;
  @DecimalProperty('ratio', { example: '-0.29970000', nullable: true, description: 'pnl / NAV' }) pnlRatio:
    string | null;
  @ApiProperty({ type: StressAssetDto, isArray: true }) byAsset: StressAssetDto[];
  @ApiProperty({
    type: String,
    isArray: true,
    example: ['SOL', 'USDC'],
    description: 'assets the preset does not name (asset-class fallback used)',
  })
  fallbackAssets: string[];
}

export class PerformanceQueryDto {
  @ApiPropertyOptional({
    example: 'Class A',
    description: 'share class name; default: the first class (leave it out for that: a blank name is 400)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @NotBlank()
  shareClass?: string;
}

export class PeriodReturnsDto {
  @DecimalProperty('ratio', { example: '0.01230000', nullable: true }) mtd: string | null;
  @DecimalProperty('ratio', { example: '0.04100000', nullable: true }) qtd: string | null;
  @DecimalProperty('ratio', { example: '0.18200000', nullable: true }) ytd: string | null;
  @DecimalProperty('ratio', {
    example: '0.61000000',
    nullable: true,
    description: 'since the class first had units (from its initial NAV per unit)',
  })
  itd: string | null;
  @DecimalProperty('ratio', {
    example: '0.17250000',
    nullable: true,
    description: '(1 + itd)^(365 / days) − 1; null under a year of history (a shorter return is not annualised)',
  })
  annualizedItd: string | null;
}

export class MonthlyReturnDto {
  @ApiProperty({ example: '2026-10' }) month: string;
  @DecimalProperty('ratio', { example: '0.01230000' }) return: string;
}

export class PerformanceDto {
  @ApiProperty({ example: 'Class A' }) shareClass: string;
  @ApiProperty({ format: 'date', type: String, nullable: true, example: '2026-10-31' }) asOf: string | null;
  @ApiProperty({ type: PeriodReturnsDto }) returns: PeriodReturnsDto;
  @ApiProperty({
    type: MonthlyReturnDto,
    isArray: true,
    description:
      'net of every fee: the lead series value per original unit at month end over the previous month end (not class NAV per unit, which jumps back at each crystallization; docs/books-figures.md)',
  })
  monthly: MonthlyReturnDto[];
  @DecimalProperty('ratio', {
    example: '0.34100000',
    nullable: true,
    description: 'stdev of daily returns × sqrt(365)',
  })
  annualizedVolatility: string | null;
  @DecimalProperty('ratio', {
    example: '-0.22310000',
    nullable: true,
    description: 'worst peak-to-trough fall of the lead series value per original unit (≤ 0)',
  })
  maxDrawdown: string | null;
}

export class AttributionQueryDto {
  @ApiProperty({ format: 'date', example: '2026-10-31', description: 'REQUIRED valuation date of a complete NAV run' })
  @IsDefined()
  @IsCalendarDate()
  date: string;
}

export class AttributionAssetDto {
  @ApiProperty({ example: 'BTC' }) asset: string;
  @DecimalProperty('money', { example: '4000000.00' }) openingMarketValue: string;
  @DecimalProperty('money', { example: '4100000.00' }) closingMarketValue: string;
  @DecimalProperty('money', {
    example: '50000.00',
    description: 'buys (cost incl. fees) − sells (proceeds net of fees) in (previousDate, date]',
  })
  netTrades: string;
  @DecimalProperty('money', { example: '40000.00', description: 'opening quantity × price change' })
  priceEffect: string;
  @DecimalProperty('money', { example: '10000.00', description: 'pnl − priceEffect' }) tradingEffect: string;
  @DecimalProperty('money', { example: '50000.00', description: 'closing − opening − netTrades' }) pnl: string;
}

export class AttributionFeesDto {
  @DecimalProperty('money', { example: '570.00' }) management: string;
  @DecimalProperty('money', { example: '3573.90' }) performance: string;
  @DecimalProperty('money', { example: '410.96' }) expenses: string;
}

export class AttributionFlowsDto {
  @DecimalProperty('money', { example: '250000.00' }) subscriptions: string;
  @DecimalProperty('money', { example: '0.00' }) redemptions: string;
}

export class AttributionDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) date: string;
  @ApiProperty({ format: 'date', example: '2026-10-30' }) previousDate: string;
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ format: 'uuid' }) previousNavRunId: string;
  @DecimalProperty('money', { example: '10395856.10' }) openingNav: string;
  @DecimalProperty('money', { example: '10411877.20' }) closingNav: string;
  @DecimalProperty('money', {
    example: '16021.10',
    description: 'closingNav − openingNav − subscriptions + redemptions = Σ byAsset.pnl − fees',
  })
  totalPnl: string;
  @ApiProperty({ type: AttributionAssetDto, isArray: true }) byAsset: AttributionAssetDto[];
  @ApiProperty({ type: AttributionFeesDto }) fees: AttributionFeesDto;
  @ApiProperty({ type: AttributionFlowsDto }) flows: AttributionFlowsDto;
}

export class AttributionDatesDto {
  @ApiProperty({
    type: String,
    isArray: true,
    format: 'date',
    description: 'ascending; each date has a complete run and a usable previous run',
  })
  dates: string[];
  @ApiProperty({ format: 'date', type: String, nullable: true, example: '2026-10-31' }) latest: string | null;
}
