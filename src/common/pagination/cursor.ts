import { createHmac, timingSafeEqual } from 'node:crypto';
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
    const payload = Buffer.from(JSON.stringify({ v: VERSION, ...position })).toString('base64url');
    return `${payload}.${this.sign(kind, payload)}`;
  }

  decode<T extends Record<string, string>>(kind: string, cursor: string, field = 'cursor'): T {
    const bad = () => invalidParameter(field, 'is not a valid cursor for this listing');
    if (cursor.length > 512) throw bad();
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) throw bad();
    const expected = Buffer.from(this.sign(kind, payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as { v?: unknown }).v !== VERSION) throw bad();
    const { v: _v, ...position } = parsed as Record<string, string>;
    return position as T;
  }
}
