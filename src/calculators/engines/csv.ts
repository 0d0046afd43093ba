import { CSV_MAX_BYTES } from '../dto/limits';
import { type FieldError, ProblemError } from '../../common/errors/problem';
import { sanitizeForDisplay } from '../../common/validation/safe-text';
import { type Amount, parseAmount, TOO_LARGE } from './amount';

/**
 * CSV for the calculators' upload fields (`positionsCsv`, `lpRowsCsv`).
 *
 * A small RFC 4180 reader rather than csv-parse: with per-record line numbers csv-parse needs
 * its `info` option, which costs ~20 ms on 5 000 rows (the bench budget is a 20 ms p99 for the
 * whole request); this reader does the same in about a millisecond. The spec cross-checks it
 * against csv-parse on generated input.
 *
 * Accepted: optional UTF-8 BOM, LF / CRLF / CR line ends (mixed too), quoted fields with `""`
 * escapes and embedded commas or line breaks, spaces around fields, blank lines anywhere.
 */

/** Byte limit of one CSV field (UTF-8), answered with 413 when exceeded. */
export { CSV_MAX_BYTES };
/** At most this many bad rows are itemised in one problem; the rest are counted. */
export const MAX_ROW_ERRORS = 100;
/** At most this many unexpected header names are quoted; the rest are counted. */
const MAX_UNEXPECTED_LISTED = 5;
/** The longest text quoted from the input in a message (a 500 000-character header name was echoed whole). */
const MAX_QUOTED = 64;

export interface CsvRecord {
  /** 1-based line number where the record starts. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * Reads the quoted field opening at `at` (the quote) and the blanks after its closing quote; answers the
 * value, the index after it and the line reached (quoted fields may hold line breaks).
 */
function readQuotedField(text: string, at: number, startLine: number): { value: string; next: number; line: number } {
  const n = text.length;
  let i = at + 1;
  let line = startLine;
  let value = '';
  let start = i;
  for (;;) {
    if (i >= n) throw new CsvSyntaxError(startLine, 'a quoted field is never closed');
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (i + 1 < n && text.charCodeAt(i + 1) === QUOTE) {
        value += text.slice(start, i + 1);
        i += 2;
        start = i;
        continue;
      }
      value += text.slice(start, i);
      i++;
      break;
    }
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
    i++;
  }
  while (i < n && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  if (i < n) {
    const c = text.charCodeAt(i);
    if (c !== COMMA && c !== CR && c !== LF) {
      throw new CsvSyntaxError(
        line,
        'unexpected text after a closing quote (write "" for a quote inside a quoted field)',
      );
    }
  }
  return { value, next: i, line };
}

/** Splits CSV text into records. Blank lines (only spaces) are dropped. Throws CsvSyntaxError. */
export function readCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const recordLine = line;
    // fast path: a line without quotes (or a lone CR) is a plain split
    let eol = text.indexOf('\n', i);
    if (eol < 0) eol = n;
    const end = eol > i && text.charCodeAt(eol - 1) === CR ? eol - 1 : eol;
    const segment = text.slice(i, end);
    if (segment.indexOf('"') < 0 && segment.indexOf('\r') < 0) {
      const fields = segment.split(',');
      let blank = true;
      for (let f = 0; f < fields.length; f++) {
        const v = fields[f];
        if (v.length > 0 && (isBlank(v.charCodeAt(0)) || isBlank(v.charCodeAt(v.length - 1)))) fields[f] = v.trim();
        if (fields[f] !== '') blank = false;
      }
      if (!blank) records.push({ line: recordLine, fields });
      i = eol + 1;
      line++;
      continue;
    }
    const fields: string[] = [];
    let endOfRecord = false;
    while (!endOfRecord) {
      // leading blanks of a field
      while (i < n && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
      if (i < n && text.charCodeAt(i) === QUOTE) {
        const quoted = readQuotedField(text, i, line);
        fields.push(quoted.value);
        i = quoted.next;
        line = quoted.line;
      } else {
        const start = i;
        while (i < n) {
          const c = text.charCodeAt(i);
          if (c === COMMA || c === CR || c === LF) break;
          i++;
        }
        fields.push(text.slice(start, i).trim());
      }
      if (i >= n) {
        endOfRecord = true;
      } else {
        const c = text.charCodeAt(i);
        if (c === COMMA) {
          i++;
          if (i >= n) {
            fields.push('');
            endOfRecord = true;
          }
        } else {
          // CR, LF or CRLF ends the record
          i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
          line++;
          endOfRecord = true;
        }
      }
    }
    // blank lines, and the `,,,` lines spreadsheets export for empty rows, are not records
    if (!fields.every((f) => f === '')) records.push({ line: recordLine, fields });
  }
  return records;
}

export type ColumnKind = 'text' | 'amount';

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
  /** A required text column may not be empty; amounts are always required. */
  required: boolean;
  /** Amounts only: refuse negative values. */
  nonNegative?: boolean;
}

/** One data row; `text[i]` and `amount[i]` follow the order of the column specs (not the file's). */
export interface CsvRow {
  line: number;
  /** Every cell as read (trimmed unless quoted). */
  text: string[];
  /** Amount columns, exact (see amount.ts); zero for text columns. */
  amount: Amount[];
}

/** UTF-8 byte length without allocating a buffer for short strings. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function assertCsvSize(field: string, text: string): void {
  // a UTF-16 code unit is at most 3 UTF-8 bytes, so short strings need no measuring
  if (text.length * 3 <= CSV_MAX_BYTES) return;
  if (utf8Bytes(text) > CSV_MAX_BYTES) {
    throw new ProblemError('payload_too_large', `${field} is larger than 512 KiB`, [
      { field, message: `must be at most ${CSV_MAX_BYTES} bytes (512 KiB)` },
    ]);
  }
}

/**
 * Reads a CSV field into typed rows: checks the header (names case-insensitive, any order,
 * each exactly once), then every row; all bad rows are reported together by line number.
 * Throws 413 for an oversized field and 400 `invalid_parameter` for anything wrong.
 */
export function parseCsvTable(field: string, text: string, columns: ColumnSpec[]): CsvRow[] {
  assertCsvSize(field, text);
  let records: CsvRecord[];
  try {
    records = readCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidCsv(field, [{ field, message: err.message }]);
    throw err;
  }
  const expected = columns.map((c) => c.name).join(',');
  if (records.length === 0) {
    throw invalidCsv(field, [{ field, message: `is empty: the first line must be the header ${expected}` }]);
  }
  const header = records[0];
  // Excel writes a trailing comma for an empty last column (`Asset,Value,Venue,Class,`): empty
  // trailing header cells, and the empty cells under them, are ignored
  let width = header.fields.length;
  while (width > 1 && header.fields[width - 1].trim() === '') width--;
  const index = headerIndex(field, { line: header.line, fields: header.fields.slice(0, width) }, columns, expected);
  const shape = { width, maxWidth: header.fields.length };

  const rows: CsvRow[] = [];
  const errors: FieldError[] = [];
  let badRows = 0;
  for (let r = 1; r < records.length; r++) {
    const record = records[r];
    const problems = rowProblems(record, columns, index, shape);
    if (typeof problems === 'string') {
      badRows++;
      if (errors.length < MAX_ROW_ERRORS) errors.push({ field, message: `line ${record.line}: ${problems}` });
      continue;
    }
    rows.push(problems);
  }
  if (badRows > 0) {
    if (badRows > errors.length) {
      errors.push({ field, message: `and ${badRows - errors.length} more bad rows not listed` });
    }
    throw invalidCsv(field, errors, badRows);
  }
  return rows;
}

function headerIndex(field: string, header: CsvRecord, columns: ColumnSpec[], expected: string): number[] {
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const separator = otherSeparator(header.fields);
  if (separator !== null) {
    throw invalidCsv(field, [
      {
        field,
        message: `line ${header.line}: the header must be ${expected}: the file looks ${separator}-separated; separate columns with commas`,
      },
    ]);
  }
  const problems: string[] = [];
  const index = columns.map((c) => {
    const at = names.indexOf(c.name.toLowerCase());
    if (at < 0) problems.push(`column ${c.name} is missing`);
    else if (names.indexOf(c.name.toLowerCase(), at + 1) >= 0) problems.push(`column ${c.name} appears twice`);
    return at;
  });
  const known = new Set(columns.map((c) => c.name.toLowerCase()));
  const unexpected = names.filter((name) => !known.has(name));
  for (const name of unexpected.slice(0, MAX_UNEXPECTED_LISTED))
    problems.push(`column ${quoted(name)} is not expected`);
  if (unexpected.length > MAX_UNEXPECTED_LISTED)
    problems.push(`and ${unexpected.length - MAX_UNEXPECTED_LISTED} more columns not expected`);
  if (problems.length > 0) {
    throw invalidCsv(field, [
      { field, message: `line ${header.line}: the header must be ${expected} (${problems.join('; ')})` },
    ]);
  }
  return index;
}

/** A one-cell header holding semicolons or tabs: a file exported with another separator. */
function otherSeparator(header: string[]): 'semicolon' | 'tab' | null {
  if (header.length !== 1) return null;
  const semicolons = header[0].split(';').length - 1;
  const tabs = header[0].split('\t').length - 1;
  if (semicolons === 0 && tabs === 0) return null;
  return semicolons >= tabs ? 'semicolon' : 'tab';
}

/** Fields a row may have: the header's named columns, up to its empty trailing cells (which must be empty here too). */
interface RowShape {
  width: number;
  maxWidth: number;
}

function fieldCountProblem(fields: string[], shape: RowShape): string | null {
  const n = fields.length;
  if (n === shape.width) return null;
  if (n > shape.width && n <= shape.maxWidth && fields.slice(shape.width).every((f) => f === '')) return null;
  return `expected ${shape.width} fields, found ${n}${n > shape.width ? thousandsHint(fields) : ''}`;
}

/** An unquoted `1,234` splits one amount into two cells: a cell ending in a digit, then one of three digits. */
function thousandsHint(fields: string[]): string {
  for (let f = 1; f < fields.length; f++) {
    const prev = fields[f - 1];
    const last = prev.charCodeAt(prev.length - 1);
    if (last >= 48 && last <= 57 && /^\d{3}(?:\.\d+)?\)?$/.test(fields[f])) {
      return ' (quote an amount with thousands separators: "1,234.50")';
    }
  }
  return '';
}

function rowProblems(record: CsvRecord, columns: ColumnSpec[], index: number[], shape: RowShape): CsvRow | string {
  const fields = record.fields;
  const shapeProblem = fieldCountProblem(fields, shape);
  if (shapeProblem !== null) return shapeProblem;
  const count = columns.length;
  const text: string[] = new Array(count);
  const amount: Amount[] = new Array(count);
  let problems: string | null = null;
  for (let c = 0; c < count; c++) {
    const col = columns[c];
    const raw = fields[index[c]];
    if (col.kind === 'text') {
      if (col.required && raw === '') problems = addProblem(problems, `${col.name} is empty`);
      text[c] = raw;
      amount[c] = NO_AMOUNT;
    } else {
      text[c] = raw;
      const value = raw === '' ? null : parseAmount(raw);
      if (value === null) {
        problems = addProblem(
          problems,
          raw === '' ? `${col.name} is empty` : `${col.name} ${quoted(raw)} is not a number`,
        );
        amount[c] = NO_AMOUNT;
      } else if (value === TOO_LARGE) {
        problems = addProblem(problems, `${col.name} ${quoted(raw)} is too large (at most 15 whole digits)`);
        amount[c] = NO_AMOUNT;
      } else if (col.nonNegative && (value.hi < 0 || value.lo < 0)) {
        problems = addProblem(problems, `${col.name} ${capped(raw)} must not be negative`);
        amount[c] = NO_AMOUNT;
      } else {
        amount[c] = value;
      }
    }
  }
  return problems ?? { line: record.line, text, amount };
}

const NO_AMOUNT: Amount = { hi: 0, lo: 0 };

function addProblem(problems: string | null, problem: string): string {
  return problems === null ? problem : `${problems}; ${problem}`;
}

/** Input shown in a message: at most MAX_QUOTED characters (the last an ellipsis), printable. */
function capped(raw: string): string {
  return sanitizeForDisplay(raw, MAX_QUOTED);
}

function quoted(raw: string): string {
  return `"${capped(raw)}"`;
}

function invalidCsv(field: string, errors: FieldError[], badRows?: number): ProblemError {
  const detail =
    badRows === undefined
      ? `${field} is not valid CSV: ${errors[0].message}`
      : `${field} has ${badRows} bad row${badRows === 1 ? '' : 's'}`;
  return new ProblemError('invalid_parameter', detail, errors);
}
