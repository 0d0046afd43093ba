import type { ReactNode } from 'react';
import { jsonText } from '../json-text';

/** Beyond this a figure is no longer a sum of money anyone reads digit by digit (MAX_USD is 1e15). */
const HUGE = 1e15;
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** 1.3780612339822258e+119 → "1.378 × 10¹¹⁹" (the exact figure stays in the downloads and the tooltip). */
export function scientific(v: number, digits = 3, sep = ' '): string {
  const [mantissa, exponent] = v.toExponential(digits).split('e');
  const sup = String(Number(exponent))
    .replace('-', '⁻')
    .replace(/\d/g, (d) => SUPERSCRIPT[Number(d)]);
  return `${mantissa}${sep}×${sep}10${sup}`;
}

const isHuge = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) >= HUGE;

/**
 * A figure as the calculator answered it (no rounding, no arithmetic in the browser), except an
 * astronomically large one, written in powers of ten so it can be read and fits its box.
 */
export function verbatim(v: unknown): string {
  if (v === null || v === undefined) return '—';
  return isHuge(v) ? scientific(v) : jsonText(v);
}

/** The exact JSON figure when verbatim() shortened it (a tooltip), else undefined. */
export const exactTitle = (v: unknown) => (isHuge(v) ? `Exactly ${jsonText(v)}` : undefined);

export interface FigureSpec {
  /** The answer's member name (the test hook is figure-<member>). */
  member: string;
  label: string;
  value: unknown;
  unit?: string;
}

export function Figures({ items }: { items: FigureSpec[] }) {
  return (
    <div className="figures">
      {items.map((f) => (
        <div className="figure" key={f.member}>
          <div className="label">
            {f.label}
            {f.unit ? ` (${f.unit})` : ''}
          </div>
          <div className="value" data-testid={`figure-${f.member}`} title={exactTitle(f.value)}>
            {verbatim(f.value)}
          </div>
        </div>
      ))}
    </div>
  );
}

export interface Column<T> {
  key: keyof T & string;
  label: string;
  num?: boolean;
  render?: (row: T) => ReactNode;
}

/** A plain table of answer rows, numbers verbatim; also the text alternative of a chart. */
export function DataTable<T extends object>({
  caption,
  columns,
  rows,
  id,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  id?: string;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table id={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} className={c.num ? 'num' : undefined}>
                  {c.render ? c.render(r) : verbatim((r as Record<string, unknown>)[c.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A chart with its title; `tableId` names the table holding the same figures as text. */
export function Chart({
  title,
  tableId,
  children,
  height = 300,
}: {
  title: string;
  tableId: string;
  children: ReactNode;
  height?: number;
}) {
  return (
    <figure className="chart" data-testid="chart">
      <figcaption>
        <strong>{title}</strong>{' '}
        <span className="muted small">
          The same figures are in <a href={`#${tableId}`}>the table below</a>.
        </span>
      </figcaption>
      <div className="chart-box" style={{ height }} aria-hidden="true">
        {children}
      </div>
    </figure>
  );
}

export function StatusBadge({ status, tone: as }: { status: string; tone?: string }) {
  const s = as ?? status;
  const tone = s === 'pass' ? 'ok' : s === 'fail' || s === 'missing' ? 'bad' : 'warn';
  const mark = tone === 'ok' ? '✓' : tone === 'bad' ? '✗' : '!';
  return (
    <span className={`badge ${tone}`}>
      <span aria-hidden="true">{mark} </span>
      {status}
    </span>
  );
}

/** Colours that keep 3:1 against white and stay apart for common colour blindness. */
export const COLORS = {
  blue: '#1f4fd1',
  orange: '#b35900',
  green: '#1d7a3e',
  red: '#b42318',
  grey: '#5f6b7a',
  purple: '#6b3fa0',
};

const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 });
/**
 * Axis ticks only (the figures themselves are shown verbatim): 22000000 → 22M, 1.4e119 → 1.4×10¹¹⁹
 * (no spaces: the chart breaks a tick at a space, and a two-line tick spills out of the top).
 */
export const axisTick = (v: number) => (isHuge(v) ? scientific(v, 1, '') : COMPACT.format(v));
