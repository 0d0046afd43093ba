import { parseCsvTable } from './csv';
import { Fixed, fixedAbs, fixedCents, fixedPct } from './fixed';

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

export interface Position {
  line: number;
  asset: string;
  /** USD, exact fixed-point; shorts negative. */
  value: Fixed;
  venue: string;
  assetClass: string;
  isCash: boolean;
}

export function parsePositions(field: string, csv: string): Position[] {
  return parseCsvTable(field, csv, POSITION_COLUMNS).map((row) => {
    const [asset, , venue, klass] = row.text;
    const assetClass = klass === '' ? 'unclassified' : klass.toLowerCase();
    return {
      line: row.line,
      asset,
      value: row.amount[1],
      venue: venue === '' ? 'unspecified' : venue,
      assetClass,
      isCash: CASH_CLASSES.includes(assetClass),
    };
  });
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
  let long = 0n;
  let short = 0n;
  let cash = 0n;
  for (const p of positions) {
    if (p.isCash) cash += p.value;
    else if (p.value < 0n) short -= p.value;
    else long += p.value;
  }
  return { long, short, gross: long + short, net: long - short, cash, sumOfValues: long - short + cash };
}

export interface AssetGross {
  asset: string;
  gross: Fixed;
}

export interface Concentration {
  /** Non-cash assets (rows of the same asset, any venue, combined; names case-insensitive), largest first. */
  assets: AssetGross[];
  /** Σ gross of the assets: the denominator of every weight. */
  total: Fixed;
  /** Σ gross²: Herfindahl index = squares / total² (kept as integers so it stays exact). */
  squares: bigint;
}

function byGrossThenName(a: { gross: Fixed; key: string }, b: { gross: Fixed; key: string }): number {
  if (a.gross !== b.gross) return a.gross > b.gross ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function concentrationOf(positions: Position[]): Concentration {
  const byAsset = new Map<string, { asset: string; key: string; gross: Fixed }>();
  for (const p of positions) {
    if (p.isCash) continue;
    const key = p.asset.toUpperCase();
    const entry = byAsset.get(key);
    if (entry) entry.gross += fixedAbs(p.value);
    else byAsset.set(key, { asset: p.asset, key, gross: fixedAbs(p.value) });
  }
  const sorted = [...byAsset.values()].sort(byGrossThenName);
  let total = 0n;
  let squares = 0n;
  for (const a of sorted) {
    total += a.gross;
    squares += a.gross * a.gross;
  }
  return { assets: sorted.map((a) => ({ asset: a.asset, gross: a.gross })), total, squares };
}

export interface GroupRow {
  key: string;
  longUsd: number;
  shortUsd: number;
  netUsd: number;
  grossUsd: number;
  shareOfGrossPct: number | null;
}

/** Rows grouped by `keyOf`: signed values split into long and short; share of Σ|value| of all rows. */
export function groupPositions(positions: Position[], keyOf: (p: Position) => string): GroupRow[] {
  const groups = new Map<string, { key: string; long: Fixed; short: Fixed; gross: Fixed }>();
  let allGross = 0n;
  for (const p of positions) {
    const key = keyOf(p);
    let g = groups.get(key);
    if (!g) {
      g = { key, long: 0n, short: 0n, gross: 0n };
      groups.set(key, g);
    }
    if (p.value < 0n) g.short -= p.value;
    else g.long += p.value;
    allGross += fixedAbs(p.value);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, gross: g.long + g.short }))
    .sort(byGrossThenName)
    .map((g) => ({
      key: g.key,
      longUsd: fixedCents(g.long),
      shortUsd: fixedCents(g.short),
      netUsd: fixedCents(g.long - g.short),
      grossUsd: fixedCents(g.gross),
      shareOfGrossPct: fixedPct(g.gross, allGross),
    }));
}
