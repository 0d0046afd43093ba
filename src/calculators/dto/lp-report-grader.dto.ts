import { ApiProperty } from '@nestjs/swagger';
import {
  LP_REPORT_GRADER_DEFAULTS as D,
  REPORT_TEXT_MAX_CHARS,
  REPORTING_FREQUENCIES,
  ReportingFrequency,
} from '../engines/lp-report-grader.engine';
import { INPUT_METHODS, InputMethod } from '../engines/text-input';
import { EnumField, TextField } from './field.decorators';
import { TextDigestDto } from './text-digest.dto';

export class LpReportGraderRequest {
  @TextField({
    description: `The LP letter or report as plain text, at most ${REPORT_TEXT_MAX_CHARS} characters (a longer one is refused with 413). Default: a sample quarterly letter.`,
    default: D.reportText,
    example:
      'Monthly update, March 2025. The fund returned +1.2% net of fees (MTD), +3.4% YTD, versus +0.8% for the benchmark. Outlook: we expect volatility to stay high.',
  })
  reportText?: string;

  @EnumField({
    description: 'The reporting cycle the letter belongs to (timeliness is judged against it).',
    values: REPORTING_FREQUENCIES,
    default: D.reportingFrequency,
  })
  reportingFrequency?: ReportingFrequency;

  @EnumField({ description: 'How the text was entered (echoed).', values: INPUT_METHODS, default: D.inputMethod })
  inputMethod?: InputMethod;
}

class GraderAssumptions {
  @ApiProperty({ type: TextDigestDto }) reportText: TextDigestDto;
  @ApiProperty({ enum: REPORTING_FREQUENCIES }) reportingFrequency: ReportingFrequency;
  @ApiProperty({ enum: INPUT_METHODS }) inputMethod: InputMethod;
}

class CriterionDto {
  @ApiProperty({ example: 'performance' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() weight: number;
  @ApiProperty({ enum: ['pass', 'partial', 'missing'] }) status: string;
  @ApiProperty({ description: 'weight for pass, half for partial, 0 for missing.' }) points: number;
  @ApiProperty({ type: [String], description: 'Text found, with a little context.' }) evidence: string[];
  @ApiProperty({ type: [String], description: 'Elements not found.' }) missing: string[];
}

class GraderSummary {
  @ApiProperty() pass: number;
  @ApiProperty() partial: number;
  @ApiProperty() missing: number;
}

export class LpReportGraderResponse {
  @ApiProperty({ type: GraderAssumptions }) assumptions: GraderAssumptions;
  @ApiProperty({ description: '0..100.' }) score: number;
  @ApiProperty({ enum: ['A', 'B', 'C', 'D', 'F'] }) grade: string;
  @ApiProperty({ type: [CriterionDto] }) criteria: CriterionDto[];
  @ApiProperty({ type: GraderSummary }) summary: GraderSummary;
  @ApiProperty() disclaimer: string;
}

export const LP_REPORT_GRADER_EXAMPLE = {
  reportText: 'Dear partners, a good quarter. Returns were strong and we remain optimistic.',
  reportingFrequency: 'quarterly',
  inputMethod: 'manual',
};
