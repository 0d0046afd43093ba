import type { FieldError } from '../errors/problem';

/**
 * Member names the whitelist never sees: class-transformer does not copy a member whose name is a
 * method of the instance (constructor, toString, valueOf, hasOwnProperty, __defineGetter__, ...), and
 * Nest's pipe deletes `constructor`, `prototype` and `__proto__` before validating. No DTO can declare
 * such a member, so in a DTO's input each of them is an unknown member.
 */
const HIDDEN_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export const UNKNOWN_FIELD_MESSAGE = 'is not a known field';

/** Every member of `value` (nested objects and arrays included) with a hidden name, with dotted paths. */
export function hiddenMemberFields(value: unknown, root: string, max = 20): FieldError[] {
  const out: FieldError[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0 && out.length < max) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    for (const key of Object.keys(v)) {
      const at = path ? `${path}.${key}` : key;
      if (HIDDEN_NAMES.has(key)) out.push({ field: at, message: UNKNOWN_FIELD_MESSAGE });
      else stack.push([(v as Record<string, unknown>)[key], at]);
    }
  }
  return out;
}
