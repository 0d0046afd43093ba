import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DecimalProperty } from '../common/decimal-property';
import { QueryInteger } from '../../common/validation/query-integer';

export class PositionRowDto {
  @ApiProperty({ example: 'BTC', description: 'instrument symbol' }) asset: string;
  @ApiProperty({ example: 'Coinbase Prime', description: 'venue of the live connection holding it' }) venue: string;
  @DecimalProperty('quantity', { example: '12.5', description: 'signed; negative for a short' }) quantity: string;
  @DecimalProperty('quantity', { example: '68250.12', description: 'latest close in base currency' }) price: string;
  @DecimalProperty('money', { example: '853126.50', description: 'quantity × price; negative for a short' })
  marketValue: string;
  @DecimalProperty('ratio', { example: '0.08123456', description: 'marketValue / totalMarketValue' }) weight: string;
}

export class PositionsDto {
  @ApiProperty({ format: 'date', example: '2026-10-31', description: 'date of the latest closes used' }) asOf: string;
  @ApiProperty({ example: 'USD' }) baseCurrency: string;
  @DecimalProperty('money', { example: '10502331.07', description: 'sum of the rows (cash included, shorts negative)' })
  totalMarketValue: string;
  @ApiProperty({
    type: PositionRowDto,
    isArray: true,
    description: 'one row per live connection and asset; paper connections never appear',
  })
  positions: PositionRowDto[];
}

export class BreakdownRowDto {
  @ApiProperty({ example: 'BTC' }) key: string;
  @DecimalProperty('money', { example: '853126.50' }) marketValue: string;
  @DecimalProperty('ratio', { example: '0.08123456', description: 'marketValue / totalMarketValue' }) weight: string;
}

export class BreakdownDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) asOf: string;
  @DecimalProperty('money', { example: '10502331.07', description: 'equals /fund/positions totalMarketValue' })
  totalMarketValue: string;
  @ApiProperty({ type: BreakdownRowDto, isArray: true, description: 'by instrument, sorted by |marketValue| desc' })
  byAsset: BreakdownRowDto[];
  @ApiProperty({
    type: BreakdownRowDto,
    isArray: true,
    description: 'by connection source type (exchange, custody, bank, broker)',
  })
  bySourceType: BreakdownRowDto[];
  @ApiProperty({ type: BreakdownRowDto, isArray: true, description: 'by venue' }) byVenue: BreakdownRowDto[];
}

export class ExposureDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) asOf: string;
  @ApiProperty({ example: 'USD' }) baseCurrency: string;
  @DecimalProperty('money', { example: '10411877.20', description: 'NAV of the latest complete run', nullable: true })
  nav: string | null;
  @DecimalProperty('money', {
    example: '9200000.00',
    description: 'sum of positive market values of non-cash positions',
  })
  longExposure: string;
  @DecimalProperty('money', {
    example: '480000.00',
    description: 'sum of |negative| market values of non-cash positions',
  })
  shortExposure: string;
  @DecimalProperty('money', { example: '9680000.00', description: 'long + short' }) grossExposure: string;
  @DecimalProperty('money', { example: '8720000.00', description: 'long − short' }) netExposure: string;
  @DecimalProperty('money', { example: '1782331.07', description: 'cash and stablecoins' }) cashExposure: string;
  @DecimalProperty('ratio', { example: '0.92970000', description: 'gross / NAV', nullable: true }) grossExposureRatio:
    string | null;
  @DecimalProperty('ratio', { example: '0.83750000', description: 'net / NAV', nullable: true }) netExposureRatio:
    string | null;
  @DecimalProperty('ratio', { example: '0.17120000', description: 'cash / NAV', nullable: true }) cashExposureRatio:
    string | null;
}

export class ExposureSeriesRowDto {
  @ApiProperty({ format: 'date', example: '2026-10-31' }) date: string;
  @DecimalProperty('money', { example: '10411877.20' }) nav: string;
  @DecimalProperty('money', { example: '9200000.00' }) longExposure: string;
  @DecimalProperty('money', { example: '480000.00' }) shortExposure: string;
  @DecimalProperty('money', { example: '9680000.00' }) grossExposure: string;
  @DecimalProperty('money', { example: '8720000.00' }) netExposure: string;
  @DecimalProperty('money', { example: '1782331.07' }) cashExposure: string;
  @DecimalProperty('ratio', { example: '0.92970000', nullable: true }) grossExposureRatio: string | null;
  @DecimalProperty('ratio', { example: '0.83750000', nullable: true }) netExposureRatio: string | null;
}

export class ExposureSeriesQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1095,
    default: 30,
    description: 'trailing window in days, ending at the latest complete run',
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(1095)
  days?: number;
}
