import { ApiProperty } from '@nestjs/swagger';
import { CSV_MAX_BYTES } from '../engines/csv';
import { EXPOSURE_ANALYSIS_DEFAULTS as D } from '../engines/exposure-analysis.engine';
import { CASH_CLASSES } from '../engines/positions';
import { INPUT_METHODS, InputMethod } from '../engines/text-input';
import { EnumField, NumberField, TextField } from './field.decorators';
import { MAX_USD, MIN_DIVISOR_USD } from './limits';
import { TextDigestDto } from './text-digest.dto';

export const POSITIONS_CSV_DESCRIPTION =
  `Positions, CSV with the header Asset,Value,Venue,Class (names case-insensitive, any order), one row per position, ` +
  `Value in USD (shorts negative; 1,234.50, $1,234 and (1,234.50) are read). Quoted fields, CRLF and blank lines are fine; ` +
  `every bad row is reported by line number. Classes ${CASH_CLASSES.join(', ')} count as cash. At most ${CSV_MAX_BYTES} bytes (413 beyond).`;

export class ExposureAnalysisRequest {
  @TextField({ description: `${POSITIONS_CSV_DESCRIPTION} Default: a sample book.`, default: D.positionsCsv })
  positionsCsv?: string;

  @NumberField({
    description: 'NAV in USD for the ratios; null = the sum of all values (long − short + cash).',
    default: null,
    example: 10_000_000,
    min: MIN_DIVISOR_USD,
    max: MAX_USD,
    nullable: true,
  })
  navUsd?: number | null;

  @EnumField({ description: 'How the positions were entered (echoed).', values: INPUT_METHODS, default: D.inputMethod })
  inputMethod?: InputMethod;
}

class ExposureAssumptions {
  @ApiProperty({ type: TextDigestDto }) positionsCsv: TextDigestDto;
  @ApiProperty({ type: 'number', nullable: true }) navUsd: number | null;
  @ApiProperty({ enum: INPUT_METHODS }) inputMethod: InputMethod;
  @ApiProperty({ enum: ['navUsd', 'sumOfValues'] }) ratioBasis: 'navUsd' | 'sumOfValues';
  @ApiProperty() ratioBasisUsd: number;
  @ApiProperty({ type: [String] }) cashClasses: string[];
}

class ExposureFigures {
  @ApiProperty({ description: 'Σ positive non-cash values.' }) longUsd: number;
  @ApiProperty({ description: 'Σ |negative non-cash values|.' }) shortUsd: number;
  @ApiProperty() grossUsd: number;
  @ApiProperty() netUsd: number;
  @ApiProperty({ description: 'Σ values of cash classes.' }) cashUsd: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Percent of the ratio basis; null when the basis is not positive.',
  })
  longPct: number | null;
  @ApiProperty({ type: 'number', nullable: true }) shortPct: number | null;
  @ApiProperty({ type: 'number', nullable: true }) grossPct: number | null;
  @ApiProperty({ type: 'number', nullable: true }) netPct: number | null;
  @ApiProperty({ type: 'number', nullable: true }) cashPct: number | null;
}

class TopAsset {
  @ApiProperty() asset: string;
  @ApiProperty() grossUsd: number;
  @ApiProperty({ description: 'Percent of the non-cash gross exposure.' }) weightPct: number;
}

class ConcentrationDto {
  @ApiProperty() assetCount: number;
  @ApiProperty({ type: [TopAsset] }) top5: TopAsset[];
  @ApiProperty() top5WeightPct: number;
  @ApiProperty() largestWeightPct: number;
  @ApiProperty({ description: 'Σ weight² of non-cash assets, 0..1.' }) herfindahlIndex: number;
  @ApiProperty({ type: 'number', nullable: true, description: '1 / Herfindahl index.' }) effectivePositions:
    number | null;
}

export class GroupRowDto {
  @ApiProperty({ description: 'Class (lower case) or venue.' }) key: string;
  @ApiProperty() longUsd: number;
  @ApiProperty() shortUsd: number;
  @ApiProperty() netUsd: number;
  @ApiProperty() grossUsd: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'Percent of Σ |value| of all rows.' }) shareOfGrossPct:
    number | null;
}

export class ExposureAnalysisResponse {
  @ApiProperty({ type: ExposureAssumptions }) assumptions: ExposureAssumptions;
  @ApiProperty() positionsCount: number;
  @ApiProperty({ type: ExposureFigures }) exposure: ExposureFigures;
  @ApiProperty({ type: ConcentrationDto }) concentration: ConcentrationDto;
  @ApiProperty({ type: [GroupRowDto] }) byClass: GroupRowDto[];
  @ApiProperty({ type: [GroupRowDto] }) byVenue: GroupRowDto[];
  @ApiProperty() disclaimer: string;
}

export const EXPOSURE_ANALYSIS_EXAMPLE = {
  positionsCsv:
    'Asset,Value,Venue,Class\r\nBTC,"4,200,000",Coinbase Prime,crypto\r\nETH,2100000,Kraken,crypto\r\nQQQ,-600000,Interactive Brokers,equity\r\nUSDC,900000,Coinbase Prime,stablecoin\r\n',
  navUsd: 6_600_000,
  inputMethod: 'upload',
};
