import type Decimal from 'decimal.js';
import { type Fixed } from './fixed';
import { dec } from './numeric';

/**
 * An amount read from a CSV cell, exactly, without allocating a decimal or a bigint: `hi` whole
 * units and `lo` units of 1e-10, both integers of the same sign (value = hi + lo × 1e-10).
 * Sums of hi parts stay exact while below 2^53 (9e15 USD, far above any book the calculators
 * accept), sums of lo parts for any CSV under 512 KiB too. This keeps a 5 000-row upload to a
 * millisecond or two; results convert to exact bigints or decimals at the end.
 */
export interface Amount {
  hi: number;
  lo: number;
}

export const LO_PER_UNIT = 1e10;
const LO_UNIT_BIG = 10n ** 10n;
/** Whole digits accepted: 15 keeps every value below 1e15, the calculators' money bound. */
export const MAX_WHOLE_DIGITS = 15;

export const TOO_LARGE = 'too-large' as const;

const COMMA = 44;
const DOT = 46;
const DOLLAR = 36;
const PLUS = 43;
const MINUS = 45;
/** U+2212, the minus sign typographic tools and some exports write. */
const UNICODE_MINUS = 0x2212;

/** Spaces spreadsheets put in numbers: no-break (U+00A0), thin (U+2009), narrow no-break (U+202F). */
function isNumberSpace(c: number): boolean {
  return c === 0xa0 || c === 0x2009 || c === 0x202f;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || isNumberSpace(c);
}

function isSign(c: number): boolean {
  return c === MINUS || c === PLUS || c === UNICODE_MINUS;
}

interface Span {
  /** First character of the digits. */
  i: number;
  end: number;
  negative: boolean;
}

/**
 * Blanks, parentheses (negative), at most one sign and one `$` in either order (`-$1`, `$-1`):
 * the span of the digits, or null (two signs, a sign inside parentheses).
 */
function readPrefix(raw: string): Span | null {
  let i = 0;
  let end = raw.length;
  while (i < end && isBlank(raw.charCodeAt(i))) i++;
  while (end > i && isBlank(raw.charCodeAt(end - 1))) end--;
  let negative = false;
  let signed = false;
  if (end - i >= 2 && raw.charCodeAt(i) === 40 && raw.charCodeAt(end - 1) === 41) {
    negative = true;
    signed = true;
    i++;
    end--;
    while (i < end && isBlank(raw.charCodeAt(i))) i++;
    while (end > i && isBlank(raw.charCodeAt(end - 1))) end--;
  }
  let dollar = false;
  for (;;) {
    const c = raw.charCodeAt(i);
    if (isSign(c)) {
      if (signed) return null;
      signed = true;
      negative = c !== PLUS;
    } else if (c === DOLLAR && !dollar) dollar = true;
    else break;
    i++;
    while (i < end && isBlank(raw.charCodeAt(i))) i++;
  }
  return { i, end, negative };
}

/**
 * Reads `1234.5`, `-1,234.50`, `$1,234`, `-$1`, `$-1`, `(1,234.50)` (negative), `+12`, `.5`, the
 * Unicode minus `−100`, and thousands separated by no-break or thin spaces (`1 234 567`, one kind
 * of separator per number). Decimals beyond the 10th are rounded half away from zero. Anything
 * else (words, exponents, two signs, misplaced separators, `12.`) is null; more than 15 whole
 * digits is TOO_LARGE.
 */
export function parseAmount(raw: string): Amount | null | typeof TOO_LARGE {
  const span = readPrefix(raw);
  if (span === null) return null;
  const end = span.end;
  let i = span.i;
  let hi = 0;
  let digits = 0;
  let leadDigits = 0; // digits before the first separator
  let groupDigits = -1; // digits in the current thousands group; -1 before any separator
  let leadZero = false; // the number starts with 0
  let separator = 0; // the thousands separator in use (a comma or a number space)
  for (; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (leadDigits === 0 && groupDigits < 0) leadZero = c === 48;
      if (digits > 0 || c !== 48) digits++;
      hi = hi * 10 + (c - 48);
      if (groupDigits < 0) leadDigits++;
      else groupDigits++;
    } else if (c === COMMA || isNumberSpace(c)) {
      // a thousands group is 1–3 digits not led by 0: "0,123" is a decimal comma, not 123
      if (leadDigits === 0 || leadDigits > 3 || leadZero || (groupDigits >= 0 && groupDigits !== 3)) return null;
      if (separator !== 0 && c !== separator) return null;
      separator = c;
      groupDigits = 0;
    } else break;
  }
  if (groupDigits >= 0 && groupDigits !== 3) return null;
  const fraction = readFraction(raw, i, end);
  if (fraction === null || fraction.next !== end || (leadDigits === 0 && fraction.digits === 0)) return null;
  hi += fraction.carry;
  if (digits > MAX_WHOLE_DIGITS) return TOO_LARGE;
  return span.negative ? { hi: -hi, lo: -fraction.lo } : { hi, lo: fraction.lo };
}

/** `.ddd` at `i` (or nothing): 1e-10 units rounded half away from zero, and a carry of 1 when they round to a unit. */
function readFraction(
  raw: string,
  i: number,
  end: number,
): { lo: number; carry: number; digits: number; next: number } | null {
  if (i >= end || raw.charCodeAt(i) !== DOT) return { lo: 0, carry: 0, digits: 0, next: i };
  i++;
  let lo = 0;
  let digits = 0;
  let roundUp = false;
  for (; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) break;
    if (digits < 10) lo = lo * 10 + (c - 48);
    else if (digits === 10) roundUp = c >= 53;
    digits++;
  }
  if (digits === 0) return null;
  for (let k = digits; k < 10; k++) lo *= 10;
  if (roundUp) lo += 1;
  return lo === LO_PER_UNIT ? { lo: 0, carry: 1, digits, next: i } : { lo, carry: 0, digits, next: i };
}

export function amountToFixed(a: Amount): Fixed {
  return BigInt(a.hi) * LO_UNIT_BIG + BigInt(a.lo);
}

export function amountToDec(a: Amount): Decimal {
  return dec(amountToFixed(a).toString()).div(LO_PER_UNIT);
}

/** A running exact sum of amounts (see Amount for the bounds). */
export class AmountSum {
  hi = 0;
  lo = 0;
  add(a: Amount): void {
    this.hi += a.hi;
    this.lo += a.lo;
  }
  addAbs(a: Amount): void {
    if (a.hi < 0 || a.lo < 0) {
      this.hi -= a.hi;
      this.lo -= a.lo;
    } else {
      this.hi += a.hi;
      this.lo += a.lo;
    }
  }
  subtract(a: Amount): void {
    this.hi -= a.hi;
    this.lo -= a.lo;
  }
  toFixed(): Fixed {
    return BigInt(this.hi) * LO_UNIT_BIG + BigInt(this.lo);
  }
}

export function isNegative(a: Amount): boolean {
  return a.hi < 0 || a.lo < 0;
}
