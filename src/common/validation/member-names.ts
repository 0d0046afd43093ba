/**
 * Member names the whitelist never sees: class-transformer does not copy a member whose name is a
 * method of the instance (constructor, toString, valueOf, hasOwnProperty, __defineGetter__, ...), and
 * Nest's pipe deletes `constructor`, `prototype` and `__proto__` before validating. No DTO can declare
 * such a member, so in a DTO's input each of them is an unknown member.
 */
const HIDDEN_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export const UNKNOWN_FIELD_MESSAGE = 'is not a known field';

/** Whether a member of this name would pass a DTO's whitelist unseen (checked by inputFindings, input-walk.ts). */
export function isHiddenMemberName(name: string): boolean {
  return HIDDEN_NAMES.has(name);
}
