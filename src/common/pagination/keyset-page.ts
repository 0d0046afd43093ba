/**
 * The page of a keyset read that fetched `limit + 1` rows: the extra row only says that more
 * follow. `nextCursor` encodes the page's last row, so the next read starts right after it.
 */
export function keysetPage<R>(
  rows: R[],
  limit: number,
  cursorOf: (last: R) => string,
): { rows: R[]; nextCursor: string | null; hasMore: boolean } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, nextCursor: hasMore && last !== undefined ? cursorOf(last) : null, hasMore };
}
