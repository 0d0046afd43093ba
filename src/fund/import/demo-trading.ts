// The demo fund's trading, transfers and shadow books, day by day: each day trades toward the target
// weights, sweeps custody, manages venue cash, then values the day with the NAV engine (whose NAV sizes
// the next day's trades). Every draw comes from the one seeded stream, in a fixed order.
import { endOfMonth, isMonthEnd } from '../dates';
import { Decimal, ZERO } from '../money';
import type { DayInputs, EngineState, FundTerms } from '../nav/engine-types';
import { type ExpenseTerms, expenseEventForDay } from '../nav/expense-accrual';
import { valueDay } from '../nav/nav-engine';
import { type PriceSeries, Simulation, TradingDay, floorTo } from './demo-day';
import { type PlannedExpense, type PlannedFlow, flowEvent } from './demo-plans';
import { DEMO_CASH_CONNECTION, DEMO_CONNECTIONS, DEMO_INSTRUMENTS, type DemoInstrument } from './demo-universe';
import type { SeededRandom } from './prng';

export interface BooksSimulation {
  terms: FundTerms;
  state: EngineState;
  trades: number;
  paperTrades: number;
  monthEndNav: Map<string, Decimal>;
  classGrossNavPerUnit: Map<string, Map<string, Decimal>>;
}

/**
 * Trades, transfers and books for every date (or the first `days` of them: the trading is paced for
 * all of them, so those days are the full history's); trades.csv and transfers.csv are written on the way.
 */
export function simulateBooks(
  rng: SeededRandom,
  out: string,
  dates: string[],
  prices: PriceSeries,
  flows: PlannedFlow[],
  expenses: PlannedExpense[],
  totalTrades: number,
  { days = dates.length } = {},
): BooksSimulation {
  const sim = new Simulation(rng, out, dates, prices, totalTrades);
  const expenseTerms: ExpenseTerms[] = expenses.map((e) => ({ ...e, periodEnd: endOfMonth(e.accrualDate) }));
  for (let d = 0; d < days; d++) {
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
    terms: sim.terms,
    state: sim.state,
    trades: sim.tradeSeq,
    paperTrades: sim.paperTrades,
    monthEndNav: sim.monthEndNav,
    classGrossNavPerUnit: sim.classGrossNavPerUnit,
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
  const q = floorTo(
    (day.nav * 0.001 * sim.sizeScale * sim.rng.uniform(0.5, 1.5)) / day.price(inst.symbol),
    inst.decimals,
  );
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
      ref,
      executedAt,
      connection: p.connection,
      symbol: p.symbol,
      side: p.side,
      quantity: new Decimal(p.quantity),
      price: new Decimal(p.price),
      fee: new Decimal(p.fee),
    });
  });
}

/** Day of month → the share of each venue's holding moved and the legs (symbol, from, to). */
const SWEEPS = new Map<number, { share: number; legs: [string, string, string][] }>([
  [
    15,
    {
      share: 0.4,
      legs: [
        ['BTC', 'coinbase-prime', 'anchorage'],
        ['ETH', 'coinbase-prime', 'anchorage'],
        ['SOL', 'kraken', 'fireblocks'],
      ],
    },
  ],
  [
    5,
    {
      share: 0.3,
      legs: [
        ['BTC', 'anchorage', 'coinbase-prime'],
        ['ETH', 'anchorage', 'coinbase-prime'],
        ['SOL', 'fireblocks', 'kraken'],
      ],
    },
  ],
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
    date,
    prices,
    trades: day.trades,
    transfers: day.transfers,
    flows: dayFlows,
    expenses: dayExpenses,
    manualPnl: ZERO,
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
