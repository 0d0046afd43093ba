// The demo simulation's state: the run-long Simulation (counters, CSV files, the books' checkpoint) and one
// TradingDay (quantities held and the day's events), with the price and quantity rounding they share.
import { join } from 'node:path';
import { fundScopedId } from '../ids';
import { Decimal, sum } from '../money';
import { emptyState } from '../nav/engine-state';
import type { EngineState, FundTerms, TradeEvent, TransferEvent } from '../nav/engine-types';
import { CsvFile } from './csv-writer';
import { GEN_FUND } from './demo-plans';
import {
  DEMO_CASH_CONNECTION,
  DEMO_CONNECTIONS,
  DEMO_INSTRUMENTS,
  DEMO_SHARE_CLASSES,
  type DemoInstrument,
} from './demo-universe';
import type { SeededRandom } from './prng';

export interface PriceSeries {
  tradable: DemoInstrument[];
  priceNum: Map<string, number[]>;
  priceStr: Map<string, string[]>;
}

export interface PendingTrade {
  connection: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: string;
  price: string;
  fee: string;
}

export function fmtPrice(value: number, symbol: string): string {
  if (symbol === 'USDC' || symbol === 'USDT') return value.toFixed(4);
  return value >= 1000 ? value.toFixed(2) : value >= 10 ? value.toFixed(3) : value.toFixed(4);
}

export function floorTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.floor(value * f) / f;
}

/** The run-long simulation state: counters, the open CSV files, the books' checkpoint. */
export class Simulation {
  state: EngineState = emptyState();
  tradeSeq = 0;
  transferSeq = 0;
  paperTrades = 0;
  tradeBudget = 0;
  readonly paperQty = new Map<string, number>();
  readonly monthEndNav = new Map<string, Decimal>();
  readonly classGrossNavPerUnit = new Map<string, Map<string, Decimal>>();
  readonly terms = generatorTerms();
  readonly tradesCsv: CsvFile;
  readonly transfersCsv: CsvFile;
  readonly tradesPerDay: number;
  readonly sizeScale: number;

  constructor(
    readonly rng: SeededRandom,
    out: string,
    readonly dates: string[],
    readonly prices: PriceSeries,
    totalTrades: number,
  ) {
    this.tradesCsv = new CsvFile(join(out, 'trades.csv'), [
      'trade_id',
      'executed_at',
      'connection',
      'symbol',
      'side',
      'quantity',
      'price',
      'fee',
      'fee_currency',
    ]);
    this.transfersCsv = new CsvFile(join(out, 'transfers.csv'), [
      'transfer_id',
      'date',
      'from_connection',
      'to_connection',
      'symbol',
      'quantity',
    ]);
    this.tradesPerDay = totalTrades / (dates.length - 1);
    this.sizeScale = Math.min(1, 14 / this.tradesPerDay);
  }
}

/** One simulated day: the quantities held (as the trades so far leave them) and the day's events. */
export class TradingDay {
  readonly date: string;
  readonly nav: number;
  private readonly qty = new Map<string, number>();
  readonly trades: TradeEvent[] = [];
  readonly transfers: TransferEvent[] = [];
  readonly pending: PendingTrade[] = [];

  constructor(
    readonly sim: Simulation,
    readonly d: number,
  ) {
    this.date = sim.dates[d];
    this.nav = sum([...sim.state.classes.values()].map((c) => c.nav)).toNumber();
    for (const p of sim.state.positions.values()) this.qty.set(`${p.connection}|${p.symbol}`, p.quantity.toNumber());
  }

  get(key: string): number {
    return this.qty.get(key) ?? 0;
  }

  private add(key: string, value: number): void {
    this.qty.set(key, this.get(key) + value);
  }

  price(symbol: string): number {
    return this.sim.prices.priceNum.get(symbol)![this.d];
  }

  trade(connection: string, inst: DemoInstrument, side: 'buy' | 'sell', quantity: number): void {
    const price = fmtPrice(this.price(inst.symbol) * (1 + this.sim.rng.uniform(-0.003, 0.003)), inst.symbol);
    const q = quantity.toFixed(inst.decimals);
    if (Number(q) <= 0) return;
    const notional = Number(q) * Number(price);
    const fee = inst.group === 'equity' ? Math.max(1, Number(q) * 0.005) : notional * 0.0006;
    this.pending.push({ connection, symbol: inst.symbol, side, quantity: q, price, fee: fee.toFixed(2) });
    if (connection !== 'binance-paper') {
      this.add(`${connection}|${inst.symbol}`, side === 'buy' ? Number(q) : -Number(q));
      this.add(`${connection}|USD`, side === 'buy' ? -notional - fee : notional - fee);
    }
  }

  transfer(from: string, to: string, symbol: string, quantity: string): void {
    if (Number(quantity) <= 0) return;
    this.sim.transferSeq++;
    const ref = `TR${String(this.sim.transferSeq).padStart(6, '0')}`;
    this.sim.transfersCsv.row([ref, this.date, from, to, symbol, quantity]);
    this.transfers.push({ ref, fromConnection: from, toConnection: to, symbol, quantity: new Decimal(quantity) });
    this.add(`${from}|${symbol}`, -Number(quantity));
    this.add(`${to}|${symbol}`, Number(quantity));
  }
}

function generatorTerms(): FundTerms {
  return {
    fundId: GEN_FUND,
    baseCurrency: 'USD',
    cashConnection: DEMO_CASH_CONNECTION,
    settlementDays: 3,
    classes: DEMO_SHARE_CLASSES.map((c) => ({
      id: fundScopedId(GEN_FUND, 'share-class', c.name),
      name: c.name,
      mgmtFeeAnnualRate: new Decimal(c.mgmtFeeAnnualRate),
      perfFeeRate: new Decimal(c.perfFeeRate),
      hurdleAnnualRate: c.hurdleAnnualRate === null ? null : new Decimal(c.hurdleAnnualRate),
      crystallizationFrequency: c.crystallizationFrequency,
      feeExempt: c.feeExempt,
      initialNavPerUnit: new Decimal(c.initialNavPerUnit),
    })),
    connections: new Map(
      DEMO_CONNECTIONS.map((c) => [c.code, { code: c.code, sourceType: c.sourceType, mode: c.mode }]),
    ),
    stablecoins: new Set(DEMO_INSTRUMENTS.filter((i) => i.assetClass === 'stablecoin').map((i) => i.symbol)),
  };
}
