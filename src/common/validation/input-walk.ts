import type { FieldError } from '../errors/problem';
import { isHiddenMemberName, UNKNOWN_FIELD_MESSAGE } from './member-names';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './safe-text';

/** What the validation pipe refuses in an input before class-validator sees it (see inputFindings). */
export interface InputFindings {
  /** Strings (member names included) that are not safe text, sorted by field. */
  unsafe: FieldError[];
  /** Members with a name the whitelist never sees (member-names.ts), outside members already so named. */
  hidden: FieldError[];
}

/**
 * An object or array being walked. Its members are visited last to first, each one's own members
 * before the next: the order (and so which findings a cap keeps) of the per-member stack this walk
 * replaced. Its dotted path is built only when a finding inside it needs it.
 */
class Level {
  next: number;
  /** Members not walked into: their name is not safe text (found already). */
  skip: Set<string> | undefined;
  /** The dotted path, once pathOf has built it. */
  dotted: string | undefined;

  constructor(
    readonly value: object,
    readonly keys: string[] | null, // null: an array
    readonly parent: Level | null,
    readonly key: string | number, // the root's path for the root
    readonly hiddenOn: boolean,
  ) {
    this.next = (keys ?? (value as unknown[])).length - 1;
  }
}

/** A level's dotted path (built once, with its ancestors'; no recursion however deep the input). */
function pathOf(level: Level): string {
  const unbuilt: Level[] = [];
  for (let l: Level | null = level; l !== null && l.dotted === undefined; l = l.parent) unbuilt.push(l);
  for (let i = unbuilt.length - 1; i >= 0; i--) {
    const l = unbuilt[i];
    l.dotted = l.parent === null ? String(l.key) : join(l.parent.dotted!, l.key);
  }
  return level.dotted!;
}

/**
 * One walk of a JSON-like value (a body, a query, a path parameter) for both kinds of refusal: text
 * that is not safe (safe-text.ts) and, when `hiddenMembers`, member names the whitelist never sees
 * (member-names.ts). Only objects and arrays are stacked. Each kind stops once it has `max` findings
 * (the names of the object being read are all judged, so a few more may be listed).
 */
export function inputFindings(value: unknown, root: string, hiddenMembers: boolean, max = 20): InputFindings {
  const found: InputFindings = { unsafe: [], hidden: [] };
  if (max <= 0) return found;
  if (typeof value === 'string') {
    if (!isSafeText(value)) found.unsafe.push({ field: root || 'body', message: UNSAFE_TEXT_MESSAGE });
    return found;
  }
  if (value === null || typeof value !== 'object') return found;
  const stack = [enter(value, null, root, hiddenMembers, found, max)];
  while (stack.length > 0) {
    const level = stack[stack.length - 1];
    if (level.next < 0) {
      stack.pop();
      continue;
    }
    const i = level.next--;
    const key = level.keys === null ? i : level.keys[i];
    if (level.skip?.has(key as string)) continue;
    if (found.unsafe.length >= max) break;
    const member: unknown = (level.value as Record<string | number, unknown>)[key];
    if (typeof member === 'string') {
      if (!isSafeText(member))
        found.unsafe.push({ field: join(pathOf(level), key) || 'body', message: UNSAFE_TEXT_MESSAGE });
    } else if (member !== null && typeof member === 'object') {
      const hiddenOn = level.hiddenOn && (level.keys === null || !isHiddenMemberName(key as string));
      stack.push(enter(member, level, key, hiddenOn, found, max));
    }
  }
  found.unsafe.sort((a, b) => a.field.localeCompare(b.field));
  return found;
}

/** Starts walking an object or array: an object's member names are judged here, in order. */
function enter(
  value: object,
  parent: Level | null,
  key: string | number,
  hiddenOn: boolean,
  found: InputFindings,
  max: number,
): Level {
  if (Array.isArray(value)) return new Level(value, null, parent, key, hiddenOn);
  const keys = Object.keys(value);
  const level = new Level(value, keys, parent, key, hiddenOn);
  const hiddenCheck = hiddenOn && found.hidden.length < max;
  for (const name of keys) {
    if (!isSafeText(name)) {
      (level.skip ??= new Set()).add(name);
      found.unsafe.push({
        field: join(pathOf(level), name.replace(/[^\x20-\x7e]/g, '?')),
        message: UNSAFE_TEXT_MESSAGE,
      });
    } else if (hiddenCheck && isHiddenMemberName(name)) {
      found.hidden.push({ field: join(pathOf(level), name), message: UNKNOWN_FIELD_MESSAGE });
    }
  }
  return level;
}

function join(path: string, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}
