/**
 * The issue-17 table: one row per measure, its bar and moonshot, the median of the runs, the noise
 * band (max − min over the runs, relative to the median) and a verdict. A row misses only when its
 * median misses the bar by more than the noise band; `npm run bench` then exits non-zero.
 */
export type RowId =
  | 'me'
  | 'overview'
  | 'mcp'
  | 'calcFee'
  | 'calcExposure'
  | 'readsUnderCalc'
  | 'webhookBurst'
  | 'webhookPacedP99'
  | 'glDetailTrips';

export interface RowSpec {
  id: RowId;
  measure: string;
  bar: number;
  moonshot: number;
  /** 'min': the value must be at least the bar; 'max': at most (`strict`: below). */
  kind: 'min' | 'max';
  strict?: boolean;
  unit: string;
}

export const ROWS: RowSpec[] = [
  {
    id: 'me',
    measure: 'GET /me (auth + rate limit + activity log) / bare Fastify fixed JSON',
    bar: 0.45,
    moonshot: 0.6,
    kind: 'min',
    unit: '×',
  },
  {
    id: 'overview',
    measure: 'GET /fund/overview / bare Fastify + one PostgreSQL query',
    bar: 1.0,
    moonshot: 2.0,
    kind: 'min',
    unit: '×',
  },
  {
    id: 'mcp',
    measure: 'MCP tools/call get_fund_overview / REST GET /fund/overview',
    bar: 0.9,
    moonshot: 0.95,
    kind: 'min',
    unit: '×',
  },
  {
    id: 'calcFee',
    measure: 'fee calculator (400 rows) p99 at 10 connections / p99 at 1',
    bar: 3,
    moonshot: 2,
    kind: 'max',
    unit: '×',
  },
  {
    id: 'calcExposure',
    measure: 'exposure analysis (5 000 rows) p99 at 10 connections / p99 at 1',
    bar: 3,
    moonshot: 2,
    kind: 'max',
    unit: '×',
  },
  {
    id: 'readsUnderCalc',
    measure: 'fund reads p99 while calculators are hammered / p99 alone',
    bar: 1.5,
    moonshot: 1.2,
    kind: 'max',
    unit: '×',
  },
  {
    id: 'webhookBurst',
    measure: 'webhook burst 5 000 deliveries: throughput / direct signed POSTs',
    bar: 0.5,
    moonshot: 0.8,
    kind: 'min',
    unit: '×',
  },
  {
    id: 'webhookPacedP99',
    measure: 'webhook paced 500/s commit→receipt p99',
    bar: 200,
    moonshot: 100,
    kind: 'max',
    strict: true,
    unit: 'ms',
  },
  {
    id: 'glDetailTrips',
    measure: 'gl-detail sequential database round trips per request',
    bar: 2,
    moonshot: 2,
    kind: 'max',
    unit: '',
  },
];

export type RunValues = Partial<Record<RowId, number>>;

export interface RowResult {
  spec: RowSpec;
  values: number[];
  median: number;
  /** (max − min) / median over the runs. */
  band: number;
  verdict: 'meets' | 'within noise' | 'MISSES' | 'not measured';
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function meets(spec: RowSpec, v: number): boolean {
  if (spec.kind === 'min') return v >= spec.bar;
  return spec.strict ? v < spec.bar : v <= spec.bar;
}

export function judge(runs: RunValues[]): RowResult[] {
  return ROWS.map((spec) => {
    const values = runs.map((r) => r[spec.id]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) return { spec, values, median: NaN, band: NaN, verdict: 'not measured' };
    const m = median(values);
    const band = m === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / Math.abs(m);
    // within noise: moving the median by its own band in the favourable direction reaches the bar
    const nudged = spec.kind === 'min' ? m * (1 + band) : m * (1 - band);
    const verdict = meets(spec, m) ? 'meets' : meets(spec, nudged) ? 'within noise' : 'MISSES';
    return { spec, values, median: m, band, verdict };
  });
}

const fmt = (v: number, unit: string) =>
  Number.isFinite(v) ? `${Math.round(v * 1000) / 1000}${unit === 'ms' ? ' ms' : unit}` : '—';

export function tableMarkdown(results: RowResult[]): string[] {
  return [
    '| measure | runs | median | noise band (max − min) / median | bar | moonshot | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...results.map((r) => {
      const cmp = r.spec.kind === 'min' ? '≥' : r.spec.strict ? '<' : '≤';
      return (
        `| ${r.spec.measure} | ${r.values.map((v) => fmt(v, r.spec.unit)).join(' / ') || '—'} | **${fmt(r.median, r.spec.unit)}** | ` +
        `${Number.isFinite(r.band) ? `${Math.round(r.band * 100)}%` : '—'} | ${cmp} ${fmt(r.spec.bar, r.spec.unit)} | ${cmp} ${fmt(r.spec.moonshot, r.spec.unit)} | ${r.verdict} |`
      );
    }),
  ];
}
