import { jsonText } from './json-text';

/**
 * Just enough CSV for the paste/edit table (RFC 4180 quoting, LF/CRLF/CR). The calculator reads
 * and validates the text itself (it ignores all-blank rows, as this does); this only turns it into
 * cells to edit and back. The table editor keeps its own rows while editing (a blank row being
 * filled in is not dropped there).
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) || /^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((r) => r.map((c) => quote(jsonText(c))).join(',')).join('\n');
}

/**
 * A downloaded text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: an asset or
 * venue name from a shared link can be anything) starts with an apostrophe instead (OWASP CSV
 * injection). Numbers stay numbers.
 */
function inert(v: unknown): unknown {
  return typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** Objects to CSV for download: one column per key of the first row (nested values as JSON). */
export function objectsToCsv(items: readonly Record<string, unknown>[]): string {
  if (items.length === 0) return '';
  const keys = Object.keys(items[0]);
  const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : inert(v));
  return toCsv([keys, ...items.map((it) => keys.map((k) => cell(it[k])))]);
}
