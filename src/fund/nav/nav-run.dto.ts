import { ApiProperty } from '@nestjs/swagger';
import { IsCalendarDate } from '../../common/validation/calendar-date';

export class RunNavRequestDto {
  @ApiProperty({ example: '2026-10-31', description: 'Valuation date (calendar date, UTC)' })
  @IsCalendarDate()
  valuationDate: string;
}

export class NavRunResultDto {
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ example: '2026-10-31' }) valuationDate: string;
  @ApiProperty({ enum: ['running', 'complete', 'failed', 'superseded'] }) status: string;
  @ApiProperty({ nullable: true, type: String, example: null }) failureReason: string | null;
  @ApiProperty({ nullable: true, type: String, example: '171234567.89' }) grossAssetValue: string | null;
  @ApiProperty({ nullable: true, type: String, example: '170000000.00' }) netAssetValue: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) supersedesRunId: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completedAt: string | null;
  @ApiProperty({ description: 'Complete runs written by this request (earlier missing dates and cascaded re-runs included)' }) completedRuns: number;
  @ApiProperty({ description: 'Complete runs this request superseded' }) supersededRuns: number;
}
