import { addDays, isIsoDate } from '../dates';

const DECIMAL = /^-?\d{1,20}(\.\d{1,10})?$/;
/** Dates the books can hold and a fund can mean (PostgreSQL refuses year 0). */
const MIN_DATE = '1900-01-01';
const MAX_DATE = '2199-12-31';
/** How far ahead a booked row may be dated, as for proposals (BOOKING_HORIZON_DAYS): a year. */
const HORIZON_DAYS = 366;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Reads one CSV record column by column, collecting the first problem as {column, reason}. */
export class RowReader {
  problem: { column: string; reason: string } | null = null;

  /** The latest date a row may carry (today + a year): later is a typo, not a plan. */
  private readonly latest: string;

  /** `today` (UTC): taken once per import, not per row. */
  constructor(
    private readonly record: Record<string, string>,
    readonly today: string = new Date().toISOString().slice(0, 10),
  ) {
    this.latest = addDays(today, HORIZON_DAYS);
  }

  private fail(column: string, reason: string): string {
    if (!this.problem) this.problem = { column, reason };
    return '';
  }

  text(column: string, maxLength = 500): string {
    const v = (this.record[column] ?? '').trim();
    if (v === '') return this.fail(column, 'is required');
    if (v.length > maxLength) return this.fail(column, `is longer than ${maxLength} characters`);
    return this.storable(column, v);
  }

  optional(column: string): string | null {
    const v = (this.record[column] ?? '').trim();
    return v === '' ? null : this.storable(column, v);
  }

  /** PostgreSQL stores no NUL, and a byte sequence that was not UTF-8 arrives as U+FFFD: both are refused. */
  private storable(column: string, v: string): string {
    if (v.includes('\u0000')) return this.fail(column, 'contains a NUL character');
    if (v.includes('\uFFFD')) return this.fail(column, 'is not valid UTF-8 (save the file as UTF-8)');
    return v;
  }

  pattern(column: string, re: RegExp, description: string): string {
    const v = this.text(column);
    if (v && !re.test(v)) return this.fail(column, `must be ${description}, got "${v}"`);
    return v;
  }

  oneOf<T extends string>(column: string, allowed: readonly T[]): T {
    const v = this.text(column);
    if (v && !allowed.includes(v as T))
      return this.fail(column, `must be one of ${allowed.join(', ')}, got "${v}"`) as T;
    return v as T;
  }

  date(column: string): string {
    const v = this.text(column);
    return v ? this.checkDate(column, v) : v;
  }

  optionalDate(column: string): string | null {
    const v = this.optional(column);
    return v === null ? null : this.checkDate(column, v);
  }

  private checkDate(column: string, v: string): string {
    if (!isIsoDate(v)) return this.fail(column, `must be a calendar date YYYY-MM-DD, got "${v}"`);
    if (v < MIN_DATE || v > MAX_DATE)
      return this.fail(column, `must be between ${MIN_DATE} and ${MAX_DATE}, got "${v}"`);
    if (v > this.latest)
      return this.fail(
        column,
        `${v} is more than a year after today (${this.today}): date it on or before ${this.latest}`,
      );
    return v;
  }

  /** What happened (an administrator's NAV, an executed trade) cannot be dated after today. */
  notAfterToday(column: string, date: string, what: string): string {
    if (date && date > this.today)
      this.fail(column, `${date} is after today (${this.today}): ${what} is dated when it happened`);
    return date;
  }

  timestamp(column: string): string {
    const v = this.text(column);
    // the round trip refuses hour 24 and second 60, which Date.parse accepts
    const exact =
      TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 19) === v.slice(0, 19);
    if (!v) return v;
    if (!exact) return this.fail(column, `must be an ISO 8601 UTC timestamp like 2024-01-31T14:00:00Z, got "${v}"`);
    return this.checkDate(column, v.slice(0, 10)) ? v : '';
  }

  optionalTimestamp(column: string): string | null {
    const v = this.optional(column);
    if (v === null) return null;
    return this.timestamp(column);
  }

  /** A decimal string; `sign` restricts it, `maxDecimals` (e.g. 2 for money) bounds its scale. */
  decimal(column: string, sign: 'positive' | 'non-negative' | 'any', maxDecimals = 10): string {
    const v = this.text(column);
    return v ? this.checkDecimal(column, v, sign, maxDecimals) : v;
  }

  optionalDecimal(column: string, sign: 'positive' | 'non-negative' | 'any', maxDecimals = 10): string | null {
    const v = this.optional(column);
    return v === null ? null : this.checkDecimal(column, v, sign, maxDecimals);
  }

  private checkDecimal(
    column: string,
    v: string,
    sign: 'positive' | 'non-negative' | 'any',
    maxDecimals: number,
  ): string {
    if (!DECIMAL.test(v)) return this.fail(column, `must be a decimal number, got "${v}"`);
    const [whole, fraction = ''] = v.replace('-', '').split('.');
    if (fraction.length > maxDecimals) return this.fail(column, `has more than ${maxDecimals} decimals: "${v}"`);
    // money is numeric(20,2), quantities and prices numeric(30,10): what the column can hold
    const digits = maxDecimals <= 2 ? 18 : 20;
    if (whole.replace(/^0+(?=\d)/, '').length > digits)
      return this.fail(column, `has more than ${digits} digits before the point: "${v}"`);
    const negative = v.startsWith('-');
    const zero = /^-?0+(\.0+)?$/.test(v);
    if (sign === 'positive' && (negative || zero)) return this.fail(column, `must be greater than zero, got "${v}"`);
    if (sign === 'non-negative' && negative && !zero) return this.fail(column, `must not be negative, got "${v}"`);
    return v;
  }

  /** Refers to something known (a connection code, a symbol, an investor id). */
  ref<T>(column: string, known: Map<string, T>, what: string): T | undefined {
    const v = this.text(column);
    if (!v) return undefined;
    const found = known.get(v);
    if (found === undefined) this.fail(column, `names an unknown ${what} "${v}"`);
    return found;
  }

  reject(column: string, reason: string): void {
    this.fail(column, reason);
  }
}
