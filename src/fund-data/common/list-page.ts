import { ApiProperty } from '@nestjs/swagger';

/** Documentation of every `nextCursor` member of a fund-data listing. */
export const NEXT_CURSOR_DOC = {
  type: String,
  nullable: true,
  description: 'opaque, integrity-checked; pass as `cursor` for the next page; null on the last page',
} as const;

/**
 * Paging of the listings whose answer the interface fixes at two members (`items` and this):
 * the whole listing's count next to the cursor of the next page.
 */
export class ListPageDto {
  @ApiProperty({ example: 140, description: 'matching records in the whole listing, not only this page' })
  total: number;
  @ApiProperty(NEXT_CURSOR_DOC) nextCursor: string | null;
  @ApiProperty({ description: 'true when a next page exists' }) hasMore: boolean;
}
