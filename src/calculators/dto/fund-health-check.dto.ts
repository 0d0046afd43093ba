import { ApiProperty } from '@nestjs/swagger';
import {
  FUND_HEALTH_CHECK_DEFAULTS as D,
  LP_REPORTING_FREQUENCIES,
  LpReportingFrequency,
  NAV_FREQUENCIES,
  NavFrequency,
  RECON_FREQUENCIES,
  ReconFrequency,
} from '../engines/fund-health-check.engine';
import { POSITIONS_CSV_DESCRIPTION } from './exposure-analysis.dto';
import { BooleanField, EnumField, NumberField, TextField } from './field.decorators';
import { MAX_USD, MIN_DIVISOR_USD } from './limits';
import { TextDigestDto } from './text-digest.dto';

export class FundHealthCheckRequest {
  @NumberField({ description: 'Assets under management, USD.', default: D.aumUsd, min: MIN_DIVISOR_USD, max: MAX_USD })
  aumUsd?: number;

  @TextField({
    description: `${POSITIONS_CSV_DESCRIPTION} Empty, header only, or without non-cash exposure (only cash classes, or values of zero) = portfolio concentration is not assessed (a finding says why). Default: a sample book.`,
    default: D.positionsCsv,
  })
  positionsCsv?: string;

  @NumberField({ description: 'Management fee a year, percent.', default: D.mgmtFeePct, min: 0, max: 100 })
  mgmtFeePct?: number;

  @NumberField({ description: 'Performance fee, percent.', default: D.perfFeePct, min: 0, max: 100 })
  perfFeePct?: number;

  @BooleanField({ description: 'The performance fee has a high-water mark.', default: D.hasHwm })
  hasHwm?: boolean;

  @NumberField({
    description: 'Hurdle a year, percent; absent or null: none.',
    default: D.hurdlePct,
    example: 5,
    min: 0,
    max: 100,
    nullable: true,
  })
  hurdlePct?: number | null;

  @EnumField({ description: 'How often the NAV is struck.', values: NAV_FREQUENCIES, default: D.navFrequency })
  navFrequency?: NavFrequency;

  @EnumField({
    description: 'How often positions and cash are reconciled to custodians, exchanges and banks.',
    values: RECON_FREQUENCIES,
    default: D.reconFrequency,
  })
  reconFrequency?: ReconFrequency;

  @EnumField({
    description: 'How often LPs receive a report.',
    values: LP_REPORTING_FREQUENCIES,
    default: D.lpReportingFrequency,
  })
  lpReportingFrequency?: LpReportingFrequency;

  @NumberField({
    description:
      'People working on the back office (finance, operations), in full-time equivalents (1.5 = one full-time and one half-time).',
    default: D.backOfficeHeadcount,
    min: 0,
    max: 10_000,
  })
  backOfficeHeadcount?: number;

  @BooleanField({ description: 'An independent fund administrator is engaged.', default: D.hasFundAdmin })
  hasFundAdmin?: boolean;

  @BooleanField({ description: 'The fund is audited every year.', default: D.hasAnnualAudit })
  hasAnnualAudit?: boolean;
}

const SECTIONS = ['fees', 'operations', 'reporting', 'governance', 'portfolio'];

class SectionWeights {
  @ApiProperty() fees: number;
  @ApiProperty() operations: number;
  @ApiProperty() reporting: number;
  @ApiProperty() governance: number;
  @ApiProperty() portfolio: number;
}

class HealthAssumptions {
  @ApiProperty() aumUsd: number;
  @ApiProperty({ type: TextDigestDto }) positionsCsv: TextDigestDto;
  @ApiProperty() mgmtFeePct: number;
  @ApiProperty() perfFeePct: number;
  @ApiProperty() hasHwm: boolean;
  @ApiProperty({ type: 'number', nullable: true }) hurdlePct: number | null;
  @ApiProperty({ enum: NAV_FREQUENCIES }) navFrequency: NavFrequency;
  @ApiProperty({ enum: RECON_FREQUENCIES }) reconFrequency: ReconFrequency;
  @ApiProperty({ enum: LP_REPORTING_FREQUENCIES }) lpReportingFrequency: LpReportingFrequency;
  @ApiProperty() backOfficeHeadcount: number;
  @ApiProperty() hasFundAdmin: boolean;
  @ApiProperty() hasAnnualAudit: boolean;
  @ApiProperty({ type: SectionWeights }) sectionWeights: SectionWeights;
}

class HealthSection {
  @ApiProperty({ enum: SECTIONS }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() weight: number;
  @ApiProperty({ type: 'number', nullable: true, description: '0..100; null when not assessed.' }) score: number | null;
  @ApiProperty() assessed: boolean;
}

class HealthFinding {
  @ApiProperty({ enum: SECTIONS }) section: string;
  @ApiProperty({ enum: ['high', 'medium', 'low', 'info'] }) severity: string;
  @ApiProperty({ description: 'Points taken off the section score.' }) points: number;
  @ApiProperty() message: string;
}

export class FundHealthCheckResponse {
  @ApiProperty({ type: HealthAssumptions }) assumptions: HealthAssumptions;
  @ApiProperty({ description: 'Weighted mean of the assessed sections, 0..100.' }) overallScore: number;
  @ApiProperty({ enum: ['A', 'B', 'C', 'D', 'F'] }) grade: string;
  @ApiProperty({ type: [HealthSection] }) sections: HealthSection[];
  @ApiProperty({ type: [HealthFinding], description: 'Most severe first.' }) findings: HealthFinding[];
  @ApiProperty() disclaimer: string;
}

export const FUND_HEALTH_CHECK_EXAMPLE = {
  aumUsd: 50_000_000,
  positionsCsv:
    'Asset,Value,Venue,Class\nBTC,20000000,Coinbase Prime,crypto\nETH,12000000,Coinbase Prime,crypto\nSPY,10000000,Interactive Brokers,equity\nUSD,8000000,Operating bank,cash',
  mgmtFeePct: 1.5,
  perfFeePct: 20,
  hasHwm: true,
  hurdlePct: 5,
  navFrequency: 'daily',
  reconFrequency: 'daily',
  lpReportingFrequency: 'monthly',
  backOfficeHeadcount: 2,
  hasFundAdmin: true,
  hasAnnualAudit: true,
};
