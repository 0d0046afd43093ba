/**
 * A timestamptz column as its exact cursor key: UTC, ISO 8601, all six fractional digits, whatever
 * the session's DateStyle and TimeZone. A JS Date keeps only milliseconds (a cursor built from one
 * can skip rows of the same millisecond), and `::text` follows the session's settings.
 */
export const utcMicros = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
