import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CURSOR_MAX_LENGTH } from './cursor';
import { QueryInteger } from '../validation/query-integer';

/** `limit` and `cursor` of a keyset-paginated listing; listings extend it with their filters. */
export class CursorPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from nextCursor' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty (leave it out for the first page)' })
  @MaxLength(CURSOR_MAX_LENGTH)
  cursor?: string;
}
