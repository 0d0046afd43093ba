import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { DecimalProperty } from '../common/decimal-property';
import { NEXT_CURSOR_DOC } from '../common/list-page';
import { STALE_RUN_DOC } from '../common/run-status';

export class NavHistoryQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'first valuation date (inclusive)' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'last valuation date (inclusive)' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class NavClassDto {
  @ApiProperty({ example: 'Class A' }) name: string;
  @DecimalProperty('navPerUnit', { example: '1248.252101', nullable: true }) navPerUnit: string | null;
  @DecimalProperty('units', { example: '5120.55123400' }) units: string;
  @DecimalProperty('money', { example: '6391712.50' }) netAssetValue: string;
}

export class NavRunDto {
  @ApiProperty({ format: 'uuid' }) navRunId: string;
  @ApiProperty({ format: 'date', example: '2026-10-31' }) valuationDate: string;
  @ApiProperty({
    enum: ['running', 'complete', 'stale', 'failed', 'superseded'],
    example: 'complete',
    description: `superseded: replaced by a later run of the same date; ${STALE_RUN_DOC}`,
  })
  status: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'why a failed run could not value the date (e.g. a missing price); null otherwise',
  })
  failureReason: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-01T02:00:00.000Z', description: 'when the run was started' })
  createdAt: string;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    example: '2026-11-01T02:00:00.000Z',
    description: 'when it completed or failed; null while running',
  })
  completedAt: string | null;
  @DecimalProperty('money', {
    example: '10920331.07',
    nullable: true,
    description: 'null for a run that did not complete',
  })
  grossAssetValue: string | null;
  @DecimalProperty('money', { example: '10411877.20', nullable: true }) netAssetValue: string | null;
  @ApiProperty({ type: NavClassDto, isArray: true }) shareClasses: NavClassDto[];
}

export class NavHistoryDto {
  @ApiProperty({
    type: NavRunDto,
    isArray: true,
    description:
      'every run (complete, stale, failed, superseded), latest first: (valuationDate, createdAt, navRunId) desc',
  })
  items: NavRunDto[];
  @ApiProperty({ example: 1110, description: 'runs in the whole window, not only this page' }) total: number;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string | null;
  @ApiProperty({ description: 'true when a next page exists' }) hasMore: boolean;
}

export class ReconciliationQueryDto extends CursorPageQueryDto {}

/** One figure the administrator sent for a date and later replaced. */
export class AdministratorRestatementDto {
  @DecimalProperty('money', { example: '10401000.00', description: 'the figure the administrator replaced' })
  administratorNav: string;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    example: '2026-10-12T09:30:00.000Z',
    description: 'when that figure was imported; null when it was imported before fundgate kept their history',
  })
  importedAt: string | null;
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-03T08:15:00.000Z',
    description: 'when the import that replaced it ran (the restatement)',
  })
  replacedAt: string;
}

export class ReconciliationRowDto {
  @ApiProperty({ format: 'date', example: '2026-09-30' }) valuationDate: string;
  @DecimalProperty('money', {
    example: '10402211.17',
    nullable: true,
    description: 'NAV of the complete run on that date; null when there is none',
  })
  shadowNav: string | null;
  @DecimalProperty('money', { example: '10401900.00' }) administratorNav: string;
  @DecimalProperty('money', { example: '311.17', nullable: true, description: 'shadow − administrator' }) difference:
    string | null;
  @DecimalProperty('ratio', { example: '0.00002991', nullable: true, description: 'difference / administrator NAV' })
  differenceRatio: string | null;
  @ApiProperty({
    example: true,
    description: '|differenceRatio| (as served, 8 decimals) ≤ toleranceRatio; false when there is no shadow NAV',
  })
  withinTolerance: boolean;
  @ApiProperty({
    enum: ['within_tolerance', 'break', 'not_valued', 'stale'],
    example: 'within_tolerance',
    description:
      "within_tolerance or break: the comparison; not_valued: no complete NAV run on that date (not run yet, or it failed), not a break; stale: the run predates something booked on or before its date and the next NAV run supersedes it (the figures shown are the stale run's)",
  })
  status: 'within_tolerance' | 'break' | 'not_valued' | 'stale';
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    example: '2026-11-03T08:15:00.000Z',
    description:
      'when the current administratorNav was imported; null when it was imported before fundgate kept the history of administrator NAVs',
  })
  administratorNavImportedAt: string | null;
  @ApiProperty({
    type: AdministratorRestatementDto,
    isArray: true,
    description:
      "the administrator's earlier figures for this date, each replaced by a later import (a restatement), latest first; empty when the figure was never restated. The comparison uses the current administratorNav only. The administrator sends fund-level NAVs only (no per-share-class figures), so a break cannot be traced to a share class here: compare the shadow run's classes (nav/history for this date) with the administrator's statement",
  })
  restatements: AdministratorRestatementDto[];
}

/** A month-end the shadow NAV valued, on or after the administrator's first NAV, for which it has sent no NAV. */
export class AwaitingAdministratorDto {
  @ApiProperty({ format: 'date', example: '2026-10-31', description: 'the month-end (last calendar day of a month)' })
  valuationDate: string;
  @DecimalProperty('money', { example: '10402211.17', description: "NAV of the month-end's complete run" })
  shadowNav: string;
  @ApiProperty({
    enum: ['complete', 'stale'],
    example: 'complete',
    description: `the run's status as NAV history serves it; ${STALE_RUN_DOC}`,
  })
  runStatus: 'complete' | 'stale';
}

export class ReconciliationDto {
  @DecimalProperty('ratio', { example: '0.00050000' }) toleranceRatio: string;
  @ApiProperty({
    type: ReconciliationRowDto,
    isArray: true,
    description: 'one row per administrator NAV (its current figure), latest first',
  })
  items: ReconciliationRowDto[];
  @ApiProperty({
    type: AwaitingAdministratorDto,
    isArray: true,
    description:
      "month-ends (last calendar day of a month) from the date of the administrator's first NAV for the fund through today (UTC) that have a complete shadow NAV run but no administrator NAV, latest first; not paginated: the whole list on every page, read in the same snapshot as items (a month-end is never both an item and awaited). Empty while the administrator has sent no NAV: before its first figure there is no reporting relationship to check (a fund without an administrator shows no items and nothing awaited). An earlier figure sent later moves the start back to its date. A month-end after today is never listed (the current month counts from its last day); from then on it is listed as soon as its run is complete, whatever the administrator's usual delay: awaited, not necessarily late (judge that against its service level). A date neither side valued, or a day that is not a month-end, is not listed; an administrator NAV on a date without a complete run is an item with status not_valued",
  })
  awaitingAdministrator: AwaitingAdministratorDto[];
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string | null;
  @ApiProperty({ description: 'true when a next page exists' }) hasMore: boolean;
}
