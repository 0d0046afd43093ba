import { ApiProperty } from '@nestjs/swagger';
import {
  CRYSTALLIZATIONS,
  Crystallization,
  FEE_CALCULATOR_DEFAULTS as D,
  feePeriodCount,
  MAX_PERIODS,
} from '../engines/fee-calculator.engine';
import { BooleanField, CrossFieldRule, EnumField, NumberField } from './field.decorators';
import { MAX_USD, MIN_DIVISOR_USD } from './limits';

export class FeeCalculatorRequest {
  @NumberField({ description: 'NAV at the start, USD.', default: D.startingNavUsd, min: MIN_DIVISOR_USD, max: MAX_USD })
  startingNavUsd?: number;

  @NumberField({
    description: 'Gross return a year before fees, percent (12 = 12 %). Compounded per period.',
    default: D.annualGrossReturnPct,
    min: -100,
    max: 1000,
  })
  annualGrossReturnPct?: number;

  @NumberField({
    description:
      "Management fee a year, percent; charged each period (the crystallization period) on that period's opening NAV, at the yearly rate divided by the number of periods a year.",
    default: D.mgmtFeePct,
    min: 0,
    max: 100,
  })
  mgmtFeePct?: number;

  @NumberField({
    description: 'Performance fee, percent of the gain above the hurdle threshold.',
    default: D.perfFeePct,
    min: 0,
    max: 100,
  })
  perfFeePct?: number;

  @NumberField({
    description:
      'Hard hurdle a year, percent, compounded from the date the reference (HWM) was set; absent or null: no hurdle.',
    default: D.hurdlePct,
    example: 4,
    min: 0,
    max: 100,
    nullable: true,
  })
  hurdlePct?: number | null;

  @BooleanField({
    description: 'High-water mark: the performance fee is charged only above the NAV at the last fee (or the start).',
    default: D.hasHwm,
  })
  hasHwm?: boolean;

  @EnumField({
    description:
      "How often the performance fee crystallizes; also the period of each row and of the management fee, which is charged on each period's opening NAV — so on a rising NAV quarterly charges more management fee than annual (the defaults: 1,230,780.26 annual vs 1,270,140.17 quarterly).",
    values: CRYSTALLIZATIONS,
    default: D.crystallization,
  })
  crystallization?: Crystallization;

  @NumberField({
    description: `Years simulated, at most 100 and at least one crystallization period (0.5 years annual, 0.125 quarterly); rounded to whole periods (1 to ${MAX_PERIODS}).`,
    default: D.horizonYears,
    greaterThan: 0,
    max: 100,
  })
  @CrossFieldRule('wholePeriods', (value, body) => {
    if (typeof value !== 'number' || !(value > 0 && value <= 100)) return null;
    const c = body.crystallization === undefined ? D.crystallization : body.crystallization;
    if (c !== 'annual' && c !== 'quarterly') return null;
    return feePeriodCount(value, c) === null
      ? `must cover at least one ${c} period (${c === 'annual' ? '≥ 0.5' : '≥ 0.125'} years)`
      : null;
  })
  horizonYears?: number;
}

class FeeAssumptions {
  @ApiProperty() startingNavUsd: number;
  @ApiProperty() annualGrossReturnPct: number;
  @ApiProperty() mgmtFeePct: number;
  @ApiProperty() perfFeePct: number;
  @ApiProperty({ type: 'number', nullable: true }) hurdlePct: number | null;
  @ApiProperty() hasHwm: boolean;
  @ApiProperty({ enum: CRYSTALLIZATIONS }) crystallization: Crystallization;
  @ApiProperty() horizonYears: number;
  @ApiProperty({ description: '1 (annual) or 4 (quarterly).' }) periodsPerYear: number;
  @ApiProperty({ description: 'round(horizonYears × periodsPerYear).' }) periodCount: number;
  @ApiProperty({ description: 'periodCount / periodsPerYear: the horizon actually simulated.' }) years: number;
}

class FeePeriodRow {
  @ApiProperty({ example: 1 }) period: number;
  @ApiProperty({ example: 'Year 1' }) label: string;
  @ApiProperty() openingNav: number;
  @ApiProperty({ description: 'Gross return of the period on the opening NAV, USD.' }) grossReturnUsd: number;
  @ApiProperty() mgmtFeeUsd: number;
  @ApiProperty({
    description:
      'Reference (HWM or opening NAV) grown by the hurdle: the NAV above which the performance fee is charged.',
  })
  hurdleThresholdNav: number;
  @ApiProperty() perfFeeUsd: number;
  @ApiProperty() closingNav: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'The high-water mark after the period: the NAV at the last performance fee (the closing NAV of the last period that charged one; startingNavUsd before any). It does not follow the NAV to a peak reached without a fee (e.g. one a hurdle blocked). null without a high-water mark.',
  })
  highWaterMark: number | null;
  @ApiProperty({
    description:
      'NAV after the period had no fee ever been charged (the gross path; compounded per period, so the last row may differ by a cent from totals.grossEndingNavUsd).',
  })
  grossNav: number;
}

class FeeTotals {
  @ApiProperty() totalMgmtFeesUsd: number;
  @ApiProperty() totalPerfFeesUsd: number;
  @ApiProperty() totalFeesUsd: number;
  @ApiProperty() endingNavUsd: number;
  @ApiProperty({ description: 'Ending NAV with no fees at all.' }) grossEndingNavUsd: number;
  @ApiProperty() grossAnnualizedReturnPct: number;
  @ApiProperty() netAnnualizedReturnPct: number;
  @ApiProperty({ description: 'Gross minus net annualized return, percentage points.' }) feeDragPct: number;
}

export class FeeCalculatorResponse {
  @ApiProperty({ type: FeeAssumptions, description: 'The input with every default filled in.' })
  assumptions: FeeAssumptions;
  @ApiProperty({ type: [FeePeriodRow] }) periods: FeePeriodRow[];
  @ApiProperty({ type: FeeTotals }) totals: FeeTotals;
  @ApiProperty({ example: 'Illustrative estimate, not accounting or tax advice.' }) disclaimer: string;
}

export const FEE_CALCULATOR_EXAMPLE = {
  startingNavUsd: 100,
  annualGrossReturnPct: 12,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hurdlePct: 4,
  hasHwm: true,
  crystallization: 'annual',
  horizonYears: 3,
};
