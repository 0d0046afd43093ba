import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { daysBetween } from '../../common/validation/calendar-date';
import { invalidParameter } from '../../common/errors/problem';
import { QueryInteger } from '../../common/validation/query-integer';

/** `limit`: default 100, 1..max; out of range is a 400, never silently clamped. */
export const LimitParam = (max = 1000, fallback = 100) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: max,
      default: fallback,
      description: `rows to return (1..${max})`,
    }),
    IsOptional(),
    QueryInteger(),
    IsInt(),
    Min(1),
    Max(max),
  );

/** `from` after `to` is a 400 naming `from`. */
export function assertOrdered(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && daysBetween(from, to) < 0)
    throw invalidParameter('from', 'must not be after to');
}
