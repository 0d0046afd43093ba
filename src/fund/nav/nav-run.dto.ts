import { ApiProperty } from '@nestjs/swagger';
import { IsCalendarDate } from '../../common/validation/calendar-date';

export class RunNavRequestDto {
  @ApiProperty({ example: '2026-10-31', description: 'Valuation date (calendar date, UTC)' })
  @IsCalendarDate()
  valuationDate: string;
}

export class NavJobProgressDto {
  @ApiProperty({ example: 15, description: 'valuation dates done so far (complete or failed)' }) completedDates: number;
  @ApiProperty({ example: 40 }) totalDates: number;
}

export class NavJobFailedRunDto {
  @ApiProperty({ example: '2026-06-07' }) valuationDate: string;
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ example: 'missing price for SOL on 2026-06-07' }) reason: string;
}

export class NavJobOutcomeDto {
  @ApiProperty({ description: 'complete runs written (earlier missing dates and cascaded re-runs included)' })
  completedRuns: number;
  @ApiProperty({ description: 'complete runs this job superseded' }) supersededRuns: number;
  @ApiProperty({
    type: NavJobFailedRunDto,
    nullable: true,
    description: 'the date that could not be valued; the job stops there',
  })
  failedRun: NavJobFailedRunDto | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-10-31' }) lastCompleteDate: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'the newest run for valuationDate' })
  navRunId: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['running', 'complete', 'failed', 'superseded'] }) runStatus:
    string | null;
  @ApiProperty({ type: String, nullable: true, example: '170000000.00' }) netAssetValue: string | null;
}

export class NavJobDto {
  @ApiProperty({ format: 'uuid' }) jobId: string;
  @ApiProperty({ example: '2026-10-31', description: 'the date requested' }) valuationDate: string;
  @ApiProperty({ example: '2026-10-31', description: 'first date the job runs (earlier missing dates included)' })
  fromDate: string;
  @ApiProperty({ example: '2026-10-31', description: 'last date (a correction cascades to the last complete date)' })
  toDate: string;
  @ApiProperty({ enum: ['queued', 'running', 'succeeded', 'failed'] }) status: string;
  @ApiProperty({ type: NavJobProgressDto }) progress: NavJobProgressDto;
  @ApiProperty({ type: NavJobOutcomeDto, nullable: true, description: 'set when the job has run' })
  outcome: NavJobOutcomeDto | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'why the job failed (a date that could not be valued, or an error)',
  })
  error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) finishedAt: string | null;
}

export class NavRunListItemDto {
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ example: '2026-10-31' }) valuationDate: string;
  @ApiProperty({
    enum: ['running', 'complete', 'stale', 'failed', 'superseded'],
    description:
      'stale: a complete run that something booked on or before its date since (an approved proposal, an import), or a run cut short, has made out of date: run the NAV again from that date (publishing it is 409)',
  })
  status: string;
  @ApiProperty({ type: String, nullable: true, example: null }) failureReason: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '170000000.00',
    description: 'complete, stale and superseded runs',
  })
  netAssetValue: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) completedAt: string | null;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    description: 'set once published (POST /api/v1/admin/nav-runs/{id}/publish)',
  })
  publishedAt: string | null;
}

export class NavRunListDto {
  @ApiProperty({ type: NavRunListItemDto, isArray: true, description: "the fund's runs, newest first" })
  items: NavRunListItemDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}
