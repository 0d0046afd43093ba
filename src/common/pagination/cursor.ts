import { createHmac } from 'node:crypto';
import { sameBytes } from '../crypto/same-bytes';
import { invalidParameter } from '../errors/problem';

/**
 * Opaque keyset cursors: base64url(JSON payload) + "." + truncated HMAC. Versioned and
 * integrity-checked; a tampered or foreign cursor is a 400 naming the parameter.
 */
const VERSION = 1;

export class CursorCodec {
  constructor(private readonly secret: string) {}

  private sign(kind: string, payload: string): string {
    return createHmac('sha256', this.secret).update(`${kind}.${payload}`).digest('base64url').slice(0, 22);
  }

  encode(kind: string, position: Record<string, string>): string {
    if ('v' in position) throw new Error('a cursor member may not be named v (the version)');
    const payload = Buffer.from(JSON.stringify({ v: VERSION, ...position })).toString('base64url');
    return `${payload}.${this.sign(kind, payload)}`;
  }

  /**
   * The position of a cursor this service issued for `kind` (which names the listing, and the fund
   * or owner it belongs to). After the signature, every member is checked against `fields`: exactly
   * those members, each a string of its shape. Anything else is a 400 naming the parameter.
   */
  decode<K extends string>(
    kind: string,
    cursor: string,
    fields: Record<K, CursorField>,
    field = 'cursor',
  ): Record<K, string> {
    const bad = () => invalidParameter(field, 'is not a valid cursor for this listing');
    if (cursor.length > CURSOR_MAX_LENGTH) throw bad();
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) throw bad();
    if (!sameBytes(this.sign(kind, payload), mac)) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      (parsed as { v?: unknown }).v !== VERSION
    )
      throw bad();
    const { v: _v, ...position } = parsed as Record<string, unknown>;
    const names = Object.keys(fields) as K[];
    if (Object.keys(position).length !== names.length) throw bad();
    for (const name of names) {
      const value = position[name];
      if (typeof value !== 'string' || !FIELD_CHECKS[fields[name]](value)) throw bad();
    }
    return position as Record<K, string>;
  }
}

/**
 * The longest text member (a display name is at most 200 characters) and the longest cursor: a
 * 500-character member of 4-byte UTF-8 characters is ~2 700 base64 characters with its signature.
 */
export const CURSOR_TEXT_MAX = 500;
export const CURSOR_MAX_LENGTH = 4096;

/** Shapes a cursor member may take. */
export type CursorField = 'timestamp' | 'uuid' | 'bigint' | 'date' | 'decimal' | 'text';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 (…T…Z) or PostgreSQL's timestamptz text (… …+00), microseconds at most. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

export function isCursorTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth && h < 24 && mi < 60 && s < 60;
}

const FIELD_CHECKS: Record<CursorField, (v: string) => boolean> = {
  timestamp: isCursorTimestamp,
  uuid: (v) => UUID.test(v),
  bigint: (v) => /^\d{1,19}$/.test(v) && BigInt(v) <= 9223372036854775807n,
  /** A calendar day, YYYY-MM-DD. */
  date: (v) => isCursorTimestamp(`${v}T00:00:00Z`),
  /** An exact decimal as PostgreSQL numeric text (a running balance carried to the next page). */
  decimal: (v) => /^-?\d{1,30}(\.\d{1,20})?$/.test(v),
  /** A sort key that is text (a name ≤ 200 characters, an external id): the cursor is signed, so only its size is checked. */
  text: (v) => v.length <= CURSOR_TEXT_MAX,
};
