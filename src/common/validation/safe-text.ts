import type { FieldError } from '../errors/problem';

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

/** Every string (member names included) in a JSON-like value that is not safe text, with dotted paths. */
export function unsafeTextFields(value: unknown, root: string, max = 20): FieldError[] {
  const out: FieldError[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0 && out.length < max) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isSafeText(v)) out.push({ field: path || 'body', message: UNSAFE_TEXT_MESSAGE });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, join(path, String(i))]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (!isSafeText(k))
          out.push({ field: join(path, k.replace(/[^\x20-\x7e]/g, '?')), message: UNSAFE_TEXT_MESSAGE });
        else stack.push([item, join(path, k)]);
      }
    }
  }
  return out.sort((a, b) => a.field.localeCompare(b.field));
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
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
