// The demo fund's trading, transfers and shadow books, day by day: each day trades toward the target
// weights, sweeps custody, manages venue cash, then values the day with the NAV engine (whose NAV sizes
// the next day's trades). Every draw comes from the one seeded stream, in a fixed order.
import { join } from 'node:path';
import { endOfMonth, isMonthEnd } from '../dates';
import { fundScopedId } from '../ids';
import { Decimal, ZERO, sum } from '../money';
import { emptyState } from '../nav/engine-state';
import type { DayInputs, EngineState, FundTerms, TradeEvent, TransferEvent } from '../nav/engine-types';
import { type ExpenseTerms, expenseEventForDay } from '../nav/expense-accrual';
import { valueDay } from '../nav/nav-engine';
import { CsvFile } from './csv-writer';
import { GEN_FUND, type PlannedExpense, type PlannedFlow, flowEvent } from './demo-plans';
import {
  DEMO_CASH_CONNECTION, DEMO_CONNECTIONS, DEMO_INSTRUMENTS, DEMO_SHARE_CLASSES, type DemoInstrument,
} from './demo-universe';
import type { SeededRandom } from './prng';

export interface PriceSeries {
  tradable: DemoInstrument[];
  priceNum: Map<string, number[]>;
  priceStr: Map<string, string[]>;
}

export interface BooksSimulation {
  terms: FundTerms;
  state: EngineState;
  trades: number;
  paperTrades: number;
  monthEndNav: Map<string, Decimal>;
  classGrossNavPerUnit: Map<string, Map<string, Decimal>>;
}

interface PendingTrade {
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

function floorTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.floor(value * f) / f;
}

/** The run-long simulation state: counters, the open CSV files, the books' checkpoint. */
class Simulation {
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
    this.tradesCsv = new CsvFile(join(out, 'trades.csv'), ['trade_id', 'executed_at', 'connection', 'symbol', 'side', 'quantity', 'price', 'fee', 'fee_currency']);
    this.transfersCsv = new CsvFile(join(out, 'transfers.csv'), ['transfer_id', 'date', 'from_connection', 'to_connection', 'symbol', 'quantity']);
    this.tradesPerDay = totalTrades / (dates.length - 1);
    this.sizeScale = Math.min(1, 14 / this.tradesPerDay);
  }
}

/** One simulated day: the quantities held (as the trades so far leave them) and the day's events. */
class TradingDay {
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

/** Trades, transfers and books for every date; trades.csv and transfers.csv are written on the way. */
export function simulateBooks(
  rng: SeededRandom,
  out: string,
  dates: string[],
  prices: PriceSeries,
  flows: PlannedFlow[],
  expenses: PlannedExpense[],
  totalTrades: number,
): BooksSimulation {
  const sim = new Simulation(rng, out, dates, prices, totalTrades);
  const expenseTerms: ExpenseTerms[] = expenses.map((e) => ({ ...e, periodEnd: endOfMonth(e.accrualDate) }));
  for (let d = 0; d < dates.length; d++) {
    const day = new TradingDay(sim, d);
    if (d === 1) buildPortfolio(day);
    else if (d > 1) tradeTowardTargets(day);
    stampTrades(day);
    sweepCustody(day);
    if (d >= 1) manageCash(day);
    valueTradingDay(day, flows, expenseTerms);
  }
  sim.tradesCsv.close();
  sim.transfersCsv.close();
  return {
    terms: sim.terms, state: sim.state, trades: sim.tradeSeq, paperTrades: sim.paperTrades,
    monthEndNav: sim.monthEndNav, classGrossNavPerUnit: sim.classGrossNavPerUnit,
  };
}

/** Builds the portfolio on the first trading day: each instrument's weight, in two tickets per venue. */
function buildPortfolio(day: TradingDay): void {
  for (const inst of day.sim.prices.tradable) {
    const target = (inst.weight * day.nav) / day.price(inst.symbol);
    inst.venues.forEach((venue, v) => {
      const share = inst.venues.length === 1 ? 1 : v === 0 ? 0.7 : 0.3;
      const total = Math.abs(target) * share;
      day.trade(venue, inst, inst.weight > 0 ? 'buy' : 'sell', floorTo(total / 2, inst.decimals));
      day.trade(venue, inst, inst.weight > 0 ? 'buy' : 'sell', floorTo(total / 2, inst.decimals));
    });
  }
}

/** The day's share of the trade budget: a few paper trades, the rest toward (or noise around) the target weights. */
function tradeTowardTargets(day: TradingDay): void {
  const sim = day.sim;
  sim.tradeBudget += sim.tradesPerDay;
  const k = Math.floor(sim.tradeBudget);
  sim.tradeBudget -= k;
  for (let t = 0; t < k; t++) {
    if (sim.rng.next() < 0.03) paperTrade(day);
    else liveTrade(day);
  }
}

function paperTrade(day: TradingDay): void {
  const { sim } = day;
  const inst = sim.rng.pick(sim.prices.tradable.slice(0, 2));
  const side = (sim.paperQty.get(inst.symbol) ?? 0) > 0 && sim.rng.next() < 0.5 ? 'sell' : 'buy';
  const q = floorTo((day.nav * 0.001 * sim.sizeScale * sim.rng.uniform(0.5, 1.5)) / day.price(inst.symbol), inst.decimals);
  day.trade('binance-paper', inst, side, q);
  sim.paperQty.set(inst.symbol, (sim.paperQty.get(inst.symbol) ?? 0) + (side === 'buy' ? q : -q));
  sim.paperTrades++;
}

function liveTrade(day: TradingDay): void {
  const { sim, nav } = day;
  const inst = pickWeighted(sim.rng, sim.prices.tradable);
  const venue = sim.rng.pick(inst.venues);
  const price = day.price(inst.symbol);
  const current = DEMO_CONNECTIONS.reduce((s, c) => s + day.get(`${c.code}|${inst.symbol}`), 0);
  const diff = (inst.weight * nav) / price - current;
  let side: 'buy' | 'sell';
  let notional: number;
  if (Math.abs(diff) * price > 0.01 * nav) {
    side = diff > 0 ? 'buy' : 'sell';
    notional = Math.abs(diff) * price * sim.rng.uniform(0.2, 0.5) * sim.sizeScale;
  } else {
    side = sim.rng.next() < 0.5 ? 'buy' : 'sell';
    notional = nav * 0.002 * sim.rng.uniform(0.3, 1.2) * sim.sizeScale;
  }
  let q = floorTo(notional / price, inst.decimals);
  if (inst.decimals === 0 && q < 1) q = 1;
  const held = day.get(`${venue}|${inst.symbol}`);
  // Never sell a long (or buy back a short) past what the venue holds; flip the side when nothing is left.
  if (inst.weight > 0 && side === 'sell') {
    if (held < q) q = floorTo(held, inst.decimals);
    if (q <= 0) {
      side = 'buy';
      q = floorTo(notional / price, inst.decimals) || 1;
    }
  }
  if (inst.weight < 0 && side === 'buy') {
    if (-held < q) q = floorTo(-held, inst.decimals);
    if (q <= 0) {
      side = 'sell';
      q = floorTo(notional / price, inst.decimals) || 1;
    }
  }
  day.trade(venue, inst, side, q);
}

/** Execution times within the day, then ids in time order. */
function stampTrades(day: TradingDay): void {
  const { sim, date } = day;
  const seconds = day.pending.map(() => sim.rng.int(0, 86_399)).sort((a, b) => a - b);
  day.pending.forEach((p, idx) => {
    sim.tradeSeq++;
    const ref = `T${String(sim.tradeSeq).padStart(8, '0')}`;
    const s = seconds[idx];
    const hh = String(Math.floor(s / 3600)).padStart(2, '0');
    const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
    const executedAt = `${date}T${hh}:${mm}:${String(s % 60).padStart(2, '0')}Z`;
    sim.tradesCsv.row([ref, executedAt, p.connection, p.symbol, p.side, p.quantity, p.price, p.fee, 'USD']);
    day.trades.push({
      ref, executedAt, connection: p.connection, symbol: p.symbol, side: p.side,
      quantity: new Decimal(p.quantity), price: new Decimal(p.price), fee: new Decimal(p.fee),
    });
  });
}

/** Day of month → the share of each venue's holding moved and the legs (symbol, from, to). */
const SWEEPS = new Map<number, { share: number; legs: [string, string, string][] }>([
  [15, { share: 0.4, legs: [['BTC', 'coinbase-prime', 'anchorage'], ['ETH', 'coinbase-prime', 'anchorage'], ['SOL', 'kraken', 'fireblocks']] }],
  [5, { share: 0.3, legs: [['BTC', 'anchorage', 'coinbase-prime'], ['ETH', 'anchorage', 'coinbase-prime'], ['SOL', 'fireblocks', 'kraken']] }],
]);

/** Custody sweeps: on the 15th to cold custody, on the 5th back to the venues. */
function sweepCustody(day: TradingDay): void {
  const sweep = SWEEPS.get(Number(day.date.slice(8, 10)));
  if (day.d <= 1 || !sweep) return;
  for (const [sym, from, to] of sweep.legs) {
    const inst = DEMO_INSTRUMENTS.find((i) => i.symbol === sym)!;
    day.transfer(from, to, sym, floorTo(day.get(`${from}|${sym}`) * sweep.share, inst.decimals).toFixed(inst.decimals));
  }
}

/** Venue cash kept between 0.5 % and 8 % of NAV through the bank; the bank topped up from the richest venue. */
function manageCash(day: TradingDay): void {
  const nav = day.nav;
  for (const c of DEMO_CONNECTIONS) {
    if (c.mode !== 'live' || c.code === DEMO_CASH_CONNECTION) continue;
    const cash = day.get(`${c.code}|USD`);
    if (cash < 0.005 * nav) day.transfer(DEMO_CASH_CONNECTION, c.code, 'USD', (0.02 * nav - cash).toFixed(2));
    else if (cash > 0.08 * nav) day.transfer(c.code, DEMO_CASH_CONNECTION, 'USD', (cash - 0.03 * nav).toFixed(2));
  }
  const bank = day.get(`${DEMO_CASH_CONNECTION}|USD`);
  if (bank < 0.02 * nav) {
    const richest = DEMO_CONNECTIONS.filter((c) => c.mode === 'live' && c.code !== DEMO_CASH_CONNECTION)
      .map((c) => ({ code: c.code, cash: day.get(`${c.code}|USD`) }))
      .sort((a, b) => b.cash - a.cash)[0];
    const amount = Math.min(0.04 * nav, richest.cash - 0.01 * nav);
    if (amount > 0) day.transfer(richest.code, DEMO_CASH_CONNECTION, 'USD', amount.toFixed(2));
  }
}

/** Values the day with the NAV engine and keeps what the later outputs need (month-end NAVs, class GNAVs). */
function valueTradingDay(day: TradingDay, flows: PlannedFlow[], expenseTerms: ExpenseTerms[]): void {
  const { sim, date, d } = day;
  const prices = new Map<string, Decimal>();
  for (const i of sim.prices.tradable) prices.set(i.symbol, new Decimal(sim.prices.priceStr.get(i.symbol)![d]));
  const dayFlows = flows
    .filter((f) => f.dealingDate === date && f.status !== 'cancelled' && f.status !== 'failed')
    .map((f) => flowEvent(f));
  const dayExpenses = expenseTerms.map((e) => expenseEventForDay(e, date)).filter((e) => e !== null);
  const inputs: DayInputs = {
    date, prices, trades: day.trades, transfers: day.transfers, flows: dayFlows, expenses: dayExpenses, manualPnl: ZERO,
  };
  const outcome = valueDay(sim.terms, sim.state, inputs);
  if (!outcome.ok) throw new Error(`demo generator produced an unbookable day: ${outcome.reason}`);
  sim.state = outcome.state;
  if (isMonthEnd(date)) sim.monthEndNav.set(date, outcome.summary.nav);
  for (const c of outcome.classes) {
    if (!sim.classGrossNavPerUnit.has(c.classId)) sim.classGrossNavPerUnit.set(c.classId, new Map());
    if (c.navPerUnit && c.grossNavPerUnit) sim.classGrossNavPerUnit.get(c.classId)!.set(date, c.grossNavPerUnit);
  }
}

function pickWeighted(rng: SeededRandom, items: DemoInstrument[]): DemoInstrument {
  const total = items.reduce((s, i) => s + Math.abs(i.weight), 0);
  let r = rng.next() * total;
  for (const i of items) {
    r -= Math.abs(i.weight);
    if (r <= 0) return i;
  }
  return items[items.length - 1];
}

function generatorTerms(): FundTerms {
  return {
    fundId: GEN_FUND,
    baseCurrency: 'USD',
    cashConnection: DEMO_CASH_CONNECTION,
    settlementDays: 3,
    classes: DEMO_SHARE_CLASSES.map((c) => ({
      id: fundScopedId(GEN_FUND, 'share-class', c.name), name: c.name, mgmtFeeAnnualRate: new Decimal(c.mgmtFeeAnnualRate),
      perfFeeRate: new Decimal(c.perfFeeRate), hurdleAnnualRate: c.hurdleAnnualRate === null ? null : new Decimal(c.hurdleAnnualRate),
      crystallizationFrequency: c.crystallizationFrequency, feeExempt: c.feeExempt,
      initialNavPerUnit: new Decimal(c.initialNavPerUnit),
    })),
    connections: new Map(DEMO_CONNECTIONS.map((c) => [c.code, { code: c.code, sourceType: c.sourceType, mode: c.mode }])),
    stablecoins: new Set(DEMO_INSTRUMENTS.filter((i) => i.assetClass === 'stablecoin').map((i) => i.symbol)),
  };
}
