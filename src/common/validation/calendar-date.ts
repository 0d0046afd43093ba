import { registerDecorator, type ValidationOptions } from 'class-validator';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Dates a fund's books can hold. Beyond them a day's arithmetic leaves YYYY-MM-DD (9999-12-31 + 1 day is +010000-01-01). */
export const FIRST_DATE = '1900-01-01';
export const LAST_DATE = '2999-12-31';

function isRealDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one) from FIRST_DATE to LAST_DATE. */
export function isCalendarDate(value: unknown): value is string {
  return isRealDate(value) && value >= FIRST_DATE && value <= LAST_DATE;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (a) =>
          isRealDate(a.value)
            ? `must be a date from ${FIRST_DATE} to ${LAST_DATE}`
            : 'must be a calendar date YYYY-MM-DD',
        ...options,
      },
      validator: { validate: (v: unknown) => isCalendarDate(v) },
    });
}

/** Whole days from a to b (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** An RFC 3339 timestamp with its offset (2027-01-01T00:00:00Z), on a real calendar date within the books' range. */
export function isTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = TIMESTAMP.exec(value);
  return m !== null && isCalendarDate(m[1]) && !Number.isNaN(Date.parse(value));
}

export function IsTimestamp(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTimestamp',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an RFC 3339 timestamp with an offset, e.g. 2027-01-01T00:00:00Z', ...options },
      validator: { validate: (v: unknown) => isTimestamp(v) },
    });
}
