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

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Reads `1234.5`, `-1,234.50`, `$1,234`, `(1,234.50)` (negative), `+12`, `.5`. Decimals beyond
 * the 10th are rounded half away from zero. Anything else (words, exponents, two signs,
 * misplaced commas, `12.`) is null; more than 15 whole digits is TOO_LARGE.
 */
export function parseAmount(raw: string): Amount | null | typeof TOO_LARGE {
  let i = 0;
  let end = raw.length;
  while (i < end && isBlank(raw.charCodeAt(i))) i++;
  while (end > i && isBlank(raw.charCodeAt(end - 1))) end--;
  let negative = false;
  if (end - i >= 2 && raw.charCodeAt(i) === 40 && raw.charCodeAt(end - 1) === 41) {
    negative = true;
    i++;
    end--;
    while (i < end && isBlank(raw.charCodeAt(i))) i++;
    while (end > i && isBlank(raw.charCodeAt(end - 1))) end--;
  }
  let c = raw.charCodeAt(i);
  if (c === 45 || c === 43) {
    if (negative) return null;
    negative = c === 45;
    i++;
    while (i < end && isBlank(raw.charCodeAt(i))) i++;
  }
  if (raw.charCodeAt(i) === 36) {
    i++;
    while (i < end && isBlank(raw.charCodeAt(i))) i++;
  }
  let hi = 0;
  let digits = 0;
  let leadDigits = 0; // digits before the first comma
  let groupDigits = -1; // digits in the current comma group; -1 before any comma
  let leadZero = false; // the number starts with 0
  for (; i < end; i++) {
    c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (leadDigits === 0 && groupDigits < 0) leadZero = c === 48;
      if (digits > 0 || c !== 48) digits++;
      hi = hi * 10 + (c - 48);
      if (groupDigits < 0) leadDigits++;
      else groupDigits++;
    } else if (c === 44) {
      // a thousands group is 1–3 digits not led by 0: "0,123" is a decimal comma, not 123
      if (leadDigits === 0 || leadDigits > 3 || leadZero || (groupDigits >= 0 && groupDigits !== 3)) return null;
      groupDigits = 0;
    } else break;
  }
  if (groupDigits >= 0 && groupDigits !== 3) return null;
  let lo = 0;
  let fracDigits = 0;
  if (i < end && raw.charCodeAt(i) === 46) {
    i++;
    let roundUp = false;
    for (; i < end; i++) {
      c = raw.charCodeAt(i);
      if (c < 48 || c > 57) break;
      if (fracDigits < 10) lo = lo * 10 + (c - 48);
      else if (fracDigits === 10) roundUp = c >= 53;
      fracDigits++;
    }
    if (fracDigits === 0) return null;
    for (let k = fracDigits; k < 10; k++) lo *= 10;
    if (roundUp) {
      lo += 1;
      if (lo === LO_PER_UNIT) {
        lo = 0;
        hi += 1;
      }
    }
  }
  if (i !== end || (leadDigits === 0 && fracDigits === 0)) return null;
  if (digits > MAX_WHOLE_DIGITS) return TOO_LARGE;
  return negative ? { hi: -hi, lo: -lo } : { hi, lo };
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
