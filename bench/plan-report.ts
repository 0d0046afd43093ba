/** Reading a text-format `EXPLAIN (ANALYZE, BUFFERS)` into the few facts the plans section lists. */
export interface PlanSummary {
  /** The top nodes, outermost first (at most three), e.g. `Limit → Index Scan using … on trades`. */
  top: string[];
  indexes: string[];
  seqScans: { table: string; rows: number }[];
  sorts: { rows: number; method: string }[];
  /** Actual rows of the top node. */
  rows: number;
  executionMs: number;
  planningMs: number;
  sharedHit: number;
  sharedRead: number;
  jit: boolean;
}

/** Thresholds of a bad plan on a large fund (issue 17 item 5). */
export const SLOW_MS = 100;
const BIG_SORT_ROWS = 100_000;
const LARGE_TABLES = ['journal_lines', 'trades', 'journal_entries'];

const NODE =
  /^(\s*->\s*|)([A-Z][A-Za-z ]*?(?: using \S+)?(?: on \S+(?: \S+)?)?)\s+\(cost=[^)]*\)\s+\(actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)\)/;

export function summarizePlan(lines: string[]): PlanSummary {
  const summary: PlanSummary = {
    top: [],
    indexes: [],
    seqScans: [],
    sorts: [],
    rows: 0,
    executionMs: 0,
    planningMs: 0,
    sharedHit: 0,
    sharedRead: 0,
    jit: false,
  };
  let first = true;
  let lastNode = '';
  for (const line of lines) {
    const node = NODE.exec(line);
    if (node) {
      const name = node[2].trim();
      const rows = Number(node[3]) * Number(node[4]);
      if (summary.top.length < 3) summary.top.push(name);
      if (first) summary.rows = Number(node[3]);
      const index = /using (\S+)/.exec(name) ?? /^Bitmap Index Scan on (\S+)/.exec(name);
      if (index && !summary.indexes.includes(index[1])) summary.indexes.push(index[1]);
      const seq = /^(?:Parallel )?Seq Scan on (\S+)/.exec(name);
      if (seq) summary.seqScans.push({ table: seq[1], rows });
      if (/^(?:Incremental )?Sort$/.test(name)) summary.sorts.push({ rows, method: '' });
      lastNode = name;
      first = false;
      continue;
    }
    const sortMethod = /Sort Method: (.+)$/.exec(line);
    if (sortMethod && /Sort$/.test(lastNode) && summary.sorts.length > 0)
      summary.sorts[summary.sorts.length - 1].method = sortMethod[1].trim();
    const buffers = /^\s*Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(line);
    if (buffers && summary.sharedHit === 0 && summary.sharedRead === 0) {
      summary.sharedHit = Number(buffers[1] ?? 0);
      summary.sharedRead = Number(buffers[2] ?? 0);
    }
    const planning = /^Planning Time: ([\d.]+) ms/.exec(line.trim());
    if (planning) summary.planningMs = Number(planning[1]);
    const execution = /^Execution Time: ([\d.]+) ms/.exec(line.trim());
    if (execution) summary.executionMs = Number(execution[1]);
    if (/^JIT:/.test(line.trim())) summary.jit = true;
  }
  return summary;
}

/** Why a plan is bad on the large fund, or [] when it is not. */
export function problems(s: PlanSummary): string[] {
  const found: string[] = [];
  for (const scan of s.seqScans)
    if (LARGE_TABLES.includes(scan.table)) found.push(`seq scan on ${scan.table} (${scan.rows} rows out)`);
  for (const sort of s.sorts) if (sort.rows >= BIG_SORT_ROWS) found.push(`sort of ${sort.rows} rows`);
  if (s.executionMs > SLOW_MS) found.push(`> ${SLOW_MS} ms`);
  if (s.jit) found.push('JIT compiled');
  return found;
}

/** One line of SQL, whitespace collapsed, cut to `max` characters. */
export function shortSql(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The parameters as they were bound, each cut short (ids and dates stay readable; bytes such as a key hash are not shown). */
export function shortParams(values: unknown[]): string {
  return values
    .map((v) => {
      if (Buffer.isBuffer(v)) return `<${v.length} bytes>`;
      const s = v === null ? 'null' : typeof v === 'string' ? v : JSON.stringify(v);
      return s.length > 40 ? `${s.slice(0, 39)}…` : s;
    })
    .join(', ');
}

/** A markdown table cell: no pipes, no newlines. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function describe(s: PlanSummary): { nodes: string; access: string } {
  const seq = s.seqScans.map((x) => `Seq Scan on ${x.table} (${x.rows})`);
  const sorts = s.sorts.map((x) => `Sort ${x.rows} rows${x.method ? ` (${x.method})` : ''}`);
  return {
    nodes: s.top.join(' → '),
    access: [...s.indexes.map((i) => `\`${i}\``), ...seq, ...sorts].join(', ') || '—',
  };
}
