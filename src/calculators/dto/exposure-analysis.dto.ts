import { ApiProperty } from '@nestjs/swagger';
import { CSV_MAX_BYTES } from '../engines/csv';
import { EXPOSURE_ANALYSIS_DEFAULTS as D } from '../engines/exposure-analysis.engine';
import { CASH_CLASSES } from '../engines/positions';
import { INPUT_METHODS, InputMethod } from '../engines/text-input';
import { EnumField, NumberField, TextField } from './field.decorators';
import { MAX_USD, MIN_DIVISOR_USD } from './limits';
import { TextDigestDto } from './text-digest.dto';

export const POSITIONS_CSV_DESCRIPTION =
  `Positions, CSV (comma-separated) with the header Asset,Value,Venue,Class (names case-insensitive, any order; an empty ` +
  `trailing column, as Excel writes, is ignored), one row per position, Value in USD (shorts negative; 1,234.50, $1,234, ` +
  `-$1, $-1, (1,234.50), −100 with a Unicode minus (U+2212) and thousands separated by no-break or thin spaces (U+00A0, U+2009, U+202F) are read; quote an amount ` +
  `with thousands commas). Quoted fields, CRLF and blank lines are fine; every bad row is reported by line number. ` +
  `Venues merge case-insensitively (the first spelling is shown). Classes ${CASH_CLASSES.join(', ')} count as cash ` +
  `(stablecoins is read as stablecoin). At most ${CSV_MAX_BYTES} bytes (a larger one is refused with 413).`;

export class ExposureAnalysisRequest {
  @TextField({ description: `${POSITIONS_CSV_DESCRIPTION} Default: a sample book.`, default: D.positionsCsv })
  positionsCsv?: string;

  @NumberField({
    description: 'NAV in USD for the ratios; absent or null: the sum of all values (long − short + cash).',
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
  @ApiProperty({ description: 'longUsd + shortUsd (row by row: both legs of a hedge count).' }) grossUsd: number;
  @ApiProperty({ description: 'longUsd − shortUsd.' }) netUsd: number;
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
  @ApiProperty({ description: 'Asset (rows of any venue and letter case combined; the first spelling seen).' })
  asset: string;
  @ApiProperty({
    description:
      "Net exposure: Σ signed values of the asset's non-cash rows (shorts negative). A hedged pair (BTC +5M spot, BTC −5M perp) nets to 0.",
  })
  netUsd: number;
  @ApiProperty({
    description: "Σ |value| of the asset's rows (both legs of a hedge), for reference; not the weight's basis.",
  })
  grossUsd: number;
  @ApiProperty({
    description: '|netUsd| as a percent of Σ |net exposure| over all non-cash assets (concentration is net by asset).',
  })
  weightPct: number;
}

class ConcentrationDto {
  @ApiProperty({ description: 'Non-cash assets (rows combined across venues and letter case).' }) assetCount: number;
  @ApiProperty({ type: [TopAsset], description: 'The five largest assets by |net exposure|, ties by name.' })
  top5: TopAsset[];
  @ApiProperty({ description: 'Combined weight of top5 (net by asset).' }) top5WeightPct: number;
  @ApiProperty({ description: 'weightPct of the largest asset (net by asset).' }) largestWeightPct: number;
  @ApiProperty({
    description:
      'Σ weight² over non-cash assets, weights on net exposure by asset (as weightPct / 100), 0..1; 0 when every asset nets to 0.',
  })
  herfindahlIndex: number;
  @ApiProperty({ type: 'number', nullable: true, description: '1 / Herfindahl index; null when it is 0.' })
  effectivePositions: number | null;
}

export class GroupRowDto {
  @ApiProperty({ description: 'Class (lower case) or venue.' }) key: string;
  @ApiProperty() longUsd: number;
  @ApiProperty() shortUsd: number;
  @ApiProperty() netUsd: number;
  @ApiProperty({ description: 'Σ |value| of the rows (long + short).' }) grossUsd: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'grossUsd as a percent of Σ |value| of all rows (gross: a venue holds both legs of a hedge).',
  })
  shareOfGrossPct: number | null;
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
