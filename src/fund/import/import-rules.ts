import { type RowReader } from './row-validation';

/** What the rows of an import are checked and resolved against. */
export interface ImportContext {
  fundId: string;
  baseCurrency: string;
  administrator: string;
  /** The fund's inception date (null: not known yet). */
  inceptionDate: string | null;
  /** Today (UTC) when the import started: no trade or administrator NAV after it, no row a year beyond it. */
  today: string;
  instruments: Map<string, { id: string; assetClass: string }>;
  connections: Map<string, { id: string; mode: string }>;
  investors: Map<string, string>;
  shareClasses: Map<string, string>;
}

/** A row whose natural key is already stored: the columns (SQL names) whose values differ, both sides as text. */
export interface StoredChange {
  changed: string[];
  stored: Record<string, string | null>;
  incoming: Record<string, string | null>;
}

/**
 * What a re-import does with such a row: write its `updatable` columns (the NAV is redone from
 * `navDate` when the change moves the books), keep the stored row (the books moved it on), or refuse
 * the line. A file without a rule refuses every change: an imported event is amended by a new one.
 */
export type ChangeVerdict = { update: true; navDate: string | null } | { keep: true } | { refuse: string };

/** A stored figure a re-import replaced: the date, the value stored before and the one from the file. */
export interface Restatement {
  date: string | null;
  from: string | null;
  to: string | null;
}

/** The administrator restated its NAV for a date: the report names both figures. */
export function adminNavRestatement(c: StoredChange): Restatement {
  return { date: c.stored.valuation_date, from: c.stored.net_asset_value, to: c.incoming.net_asset_value };
}

/**
 * Events before the fund existed are never valued (the NAV starts at inception): a trade, transfer,
 * flow or administrator NAV dated before it would sit in the books unbooked, or as a permanent break.
 */
export function notBeforeInception(r: RowReader, column: string, date: string, ctx: ImportContext): string {
  if (date && ctx.inceptionDate && date < ctx.inceptionDate)
    r.reject(column, `${date} is before the fund's inception ${ctx.inceptionDate}`);
  return date;
}

/** A flow's status moves on in the books (executed, settled, failed); the file may only cancel a pending one. */
export function flowChange(c: StoredChange): ChangeVerdict {
  if (c.changed.some((col) => col !== 'status'))
    return { refuse: 'an imported flow cannot change; cancel it and add a new one' };
  const [stored, file] = [c.stored.status ?? '', c.incoming.status ?? ''];
  if (file === 'cancelled' && stored === 'pending') return { update: true, navDate: c.stored.dealing_date };
  const progress = ['pending', 'running', 'executed', 'settled'];
  if (progress.includes(file) && (progress.includes(stored) || stored === 'failed')) return { keep: true };
  return { refuse: `the flow is ${stored} in the books; the file cannot make it ${file}` };
}

/** An accrued expense may be marked paid (its payment moves cash on the paid date); nothing else changes. */
export function expenseChange(c: StoredChange): ChangeVerdict {
  const payment = c.changed.every((col) => col === 'status' || col === 'paid_date');
  if (payment && c.stored.status === 'accrued' && c.incoming.status === 'paid')
    return { update: true, navDate: c.incoming.paid_date };
  return { refuse: 'an imported expense cannot change, except an accrued one marked paid' };
}

/** A report distributed through fundgate (an approved proposal) stays distributed; nothing else changes. */
export function lpReportChange(c: StoredChange): ChangeVerdict {
  const distributedHere = c.changed.every((col) => col === 'status' || col === 'distributed_at');
  if (distributedHere && c.stored.status === 'distributed' && c.incoming.status === 'draft') return { keep: true };
  return { refuse: 'an imported report cannot change, except by its distribution through fundgate' };
}
