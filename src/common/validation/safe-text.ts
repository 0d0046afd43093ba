/**
 * Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone UTF-16 surrogate, which JSON
 * escapes such as "\ud800" produce) is refused at the edge with a field error, on every route
 * and every MCP tool, instead of failing deep inside a query.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or invalid Unicode';

export function isSafeText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
const UNDISPLAYABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Printable, capped text for showing a client-supplied string back (user agents in the activity log). */
export function sanitizeForDisplay(s: string, maxLength: number): string {
  // Control characters (C0, DEL, C1), lone surrogates, bidi overrides and zero-width marks become "?".
  const cleaned = s.replace(UNDISPLAYABLE, '?').replace(new RegExp(LONE_SURROGATE.source, 'g'), '?');
  if (cleaned.length <= maxLength) return cleaned;
  let cut = cleaned.slice(0, maxLength - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A client's value quoted in an error message: a string cut to `max` characters, anything else as JSON (String() throws on some objects). */
export function quotedInput(v: unknown, max = 200): string {
  return (typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v)).slice(0, max);
}
