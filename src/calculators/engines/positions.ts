import { ProblemError } from '../../common/errors/problem';
import { type Amount, AmountSum, isNegative } from './amount';
import { parseCsvTable } from './csv';
import { type Fixed, fixedCents, fixedPct } from './fixed';

/** Position CSV shared by exposure-analysis and fund-health-check. */
export const POSITION_COLUMNS = [
  { name: 'Asset', kind: 'text' as const, required: true },
  { name: 'Value', kind: 'amount' as const, required: true },
  { name: 'Venue', kind: 'text' as const, required: false },
  { name: 'Class', kind: 'text' as const, required: false },
];

/** A sample book (USD): longs, one short, stablecoins and bank cash. */
export const SAMPLE_POSITIONS_CSV = [
  'Asset,Value,Venue,Class',
  'BTC,4200000,Coinbase Prime,crypto',
  'ETH,2100000,Coinbase Prime,crypto',
  'SOL,650000,Kraken,crypto',
  'SPY,1800000,Interactive Brokers,equity',
  'QQQ,-600000,Interactive Brokers,equity',
  'GLD,450000,Interactive Brokers,commodity',
  'USDC,900000,Coinbase Prime,stablecoin',
  'USD,1000000,Operating bank,cash',
].join('\n');

/** Classes counted as cash (case-insensitive): cash and stablecoins, as in the fund books. */
export const CASH_CLASSES: readonly string[] = ['cash', 'stablecoin', 'stablecoins'];
/** Spellings of one class read as its canonical name (one row in byClass). */
const CLASS_ALIASES: Readonly<Record<string, string>> = { stablecoins: 'stablecoin' };

export interface Position {
  line: number;
  asset: string;
  /** USD, exact; shorts negative. */
  value: Amount;
  venue: string;
  assetClass: string;
  isCash: boolean;
}

/** Above this Σ|value| the exact fast sums of amount.ts would no longer be exact (2^53 − margin). */
const MAX_BOOK_USD = 2 ** 53 - 2 ** 33;

export function parsePositions(field: string, csv: string): Position[] {
  const rows = parseCsvTable(field, csv, POSITION_COLUMNS);
  const positions: Position[] = new Array(rows.length);
  // a book has few distinct class spellings: normalise each once
  const classes = new Map<string, { assetClass: string; isCash: boolean }>();
  // venues merge case-insensitively under the first spelling seen (assets do the same in concentrationOf)
  const venues = new Map<string, string>();
  let absHi = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const text = row.text;
    const value = row.amount[1];
    absHi += Math.abs(value.hi) + 1;
    const rawClass = text[3];
    let klass = classes.get(rawClass);
    if (klass === undefined) {
      // a quoted cell keeps its spaces (" cash"): the class, like asset and venue, is compared trimmed
      const trimmed = rawClass.trim();
      const lower = trimmed === '' ? 'unclassified' : trimmed.toLowerCase();
      const assetClass = CLASS_ALIASES[lower] ?? lower;
      klass = { assetClass, isCash: CASH_CLASSES.includes(assetClass) };
      classes.set(rawClass, klass);
    }
    positions[r] = {
      line: row.line,
      asset: text[0].trim(),
      value,
      venue: venueOf(venues, text[2]),
      assetClass: klass.assetClass,
      isCash: klass.isCash,
    };
  }
  if (absHi > MAX_BOOK_USD) {
    throw new ProblemError('invalid_parameter', `${field}: the values add up to more than 9e15 USD`, [
      { field, message: 'the absolute values add up to more than 9,000,000,000,000,000 USD' },
    ]);
  }
  return positions;
}

function venueOf(seen: Map<string, string>, raw: string): string {
  const trimmed = raw.trim();
  const venue = trimmed === '' ? 'unspecified' : trimmed;
  const key = venue.toLowerCase();
  const first = seen.get(key);
  if (first !== undefined) return first;
  seen.set(key, venue);
  return venue;
}

export interface Exposure {
  long: Fixed;
  short: Fixed;
  gross: Fixed;
  net: Fixed;
  cash: Fixed;
  sumOfValues: Fixed;
}

/** long = Σ positive non-cash values; short = Σ |negative non-cash values|; cash = Σ cash values. */
export function exposureOf(positions: Position[]): Exposure {
  const long = new AmountSum();
  const short = new AmountSum();
  const cash = new AmountSum();
  for (const p of positions) {
    if (p.isCash) cash.add(p.value);
    else if (isNegative(p.value)) short.subtract(p.value);
    else long.add(p.value);
  }
  const l = long.toFixed();
  const s = short.toFixed();
  const c = cash.toFixed();
  return { long: l, short: s, gross: l + s, net: l - s, cash: c, sumOfValues: l - s + c };
}

export interface AssetExposure {
  asset: string;
  /** Σ signed values of the asset's rows (shorts negative): a long and an equal short net to 0. */
  net: Fixed;
  /** |net|: the asset's weight in the concentration figures. */
  exposure: Fixed;
  /** Σ |value| of the asset's rows (both legs of a hedge), for reference. */
  gross: Fixed;
}

/**
 * Concentration by asset is on each asset's net exposure: a risk reviewer does not call a
 * delta-neutral basis trade (BTC +5M spot, BTC −5M perp) a BTC bet. Venue and class breakdowns
 * (groupPositions) stay gross: a venue holds both legs.
 */
export interface Concentration {
  /** Non-cash assets (rows of the same asset, any venue, combined; names case-insensitive), largest |net| first. */
  assets: AssetExposure[];
  /** Σ |net| of the assets: the denominator of every weight. */
  total: Fixed;
  /** Σ |net|²: Herfindahl index = squares / total² (kept as integers so it stays exact). */
  squares: bigint;
}

/** Largest `size` first, ties by key. */
function bySizeThenName(a: { size: Fixed; key: string }, b: { size: Fixed; key: string }): number {
  if (a.size !== b.size) return a.size > b.size ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function concentrationOf(positions: Position[]): Concentration {
  const byAsset = new Map<string, { asset: string; net: AmountSum; gross: AmountSum }>();
  for (const p of positions) {
    if (p.isCash) continue;
    const key = p.asset.toUpperCase();
    let entry = byAsset.get(key);
    if (!entry) {
      entry = { asset: p.asset, net: new AmountSum(), gross: new AmountSum() };
      byAsset.set(key, entry);
    }
    entry.net.add(p.value);
    entry.gross.addAbs(p.value);
  }
  const sorted = [...byAsset.entries()]
    .map(([key, e]) => {
      const net = e.net.toFixed();
      return { key, asset: e.asset, net, size: net < 0n ? -net : net, gross: e.gross.toFixed() };
    })
    .sort(bySizeThenName);
  let total = 0n;
  let squares = 0n;
  for (const a of sorted) {
    total += a.size;
    squares += a.size * a.size;
  }
  return {
    assets: sorted.map((a) => ({ asset: a.asset, net: a.net, exposure: a.size, gross: a.gross })),
    total,
    squares,
  };
}

export interface GroupRow {
  key: string;
  longUsd: number;
  shortUsd: number;
  netUsd: number;
  grossUsd: number;
  shareOfGrossPct: number | null;
}

/**
 * Rows grouped by `keyOf` (class, venue): signed values split into long and short, largest gross
 * first; share of Σ|value| of all rows. Gross on purpose: a venue holds both legs of a hedge.
 */
export function groupPositions(positions: Position[], keyOf: (p: Position) => string): GroupRow[] {
  const groups = new Map<string, { long: AmountSum; short: AmountSum }>();
  const all = new AmountSum();
  for (const p of positions) {
    const key = keyOf(p);
    let g = groups.get(key);
    if (!g) {
      g = { long: new AmountSum(), short: new AmountSum() };
      groups.set(key, g);
    }
    if (isNegative(p.value)) g.short.subtract(p.value);
    else g.long.add(p.value);
    all.addAbs(p.value);
  }
  const allGross = all.toFixed();
  return [...groups.entries()]
    .map(([key, g]) => {
      const long = g.long.toFixed();
      const short = g.short.toFixed();
      return { key, long, short, gross: long + short, size: long + short };
    })
    .sort(bySizeThenName)
    .map((g) => ({
      key: g.key,
      longUsd: fixedCents(g.long),
      shortUsd: fixedCents(g.short),
      netUsd: fixedCents(g.long - g.short),
      grossUsd: fixedCents(g.gross),
      shareOfGrossPct: fixedPct(g.gross, allGross),
    }));
}
