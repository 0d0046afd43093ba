import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CrystallizationFrequency, addDays, dateRange, endOfMonth, isMonthEnd } from '../dates';
import { fundScopedId } from '../ids';
import { Decimal, ZERO } from '../money';
import { emptyState } from '../nav/engine-state';
import { DayInputs, EngineState, FlowEvent, FundTerms, TradeEvent, TransferEvent } from '../nav/engine-types';
import { ExpenseTerms, expenseEventForDay } from '../nav/expense-accrual';
import { valueDay } from '../nav/nav-engine';
import { leadSeriesValues } from '../nav/lead-series';
import { SeededRandom } from './prng';
import {
  DEMO_CASH_CONNECTION, DEMO_CONNECTIONS, DEMO_DEFAULT_TRADES, DEMO_END_DATE, DEMO_INCEPTION_DATE, DEMO_INSTRUMENTS,
  DEMO_SHARE_CLASSES, DemoInstrument, ENTITY_KINDS, ENTITY_WORDS, FIRST_NAMES, LAST_NAMES,
} from './demo-universe';

export interface GenerateOptions {
  seed: number;
  outDir: string;
  trades?: number;
}

export interface GenerateSummary {
  outDir: string;
  days: number;
  trades: number;
  paperTrades: number;
  flows: number;
  investors: number;
  latePriceDates: string[];
  finalNav: string;
}

const GEN_FUND = 'demo-generator';
const LATE_PRICE_SYMBOL = 'SOL';
const LATE_PRICE_DATES = ['2024-03-09', '2025-01-18', '2026-06-07'];
const BREAK_MONTHS = new Set(['2024-05-31', '2025-03-31', '2026-02-28']);

class CsvFile {
  private readonly fd: number;
  private buffer: string[] = [];
  rows = 0;
  constructor(path: string, header: string[]) {
    this.fd = openSync(path, 'w');
    this.buffer.push(header.join(',') + '\n');
  }
  row(values: (string | number | null)[]): void {
    this.buffer.push(values.map(csvField).join(',') + '\n');
    this.rows++;
    if (this.buffer.length >= 2000) this.flush();
  }
  flush(): void {
    if (this.buffer.length) writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function fmtPrice(value: number, symbol: string): string {
  if (symbol === 'USDC' || symbol === 'USDT') return value.toFixed(4);
  return value >= 1000 ? value.toFixed(2) : value >= 10 ? value.toFixed(3) : value.toFixed(4);
}

function floorTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.floor(value * f) / f;
}

interface PlannedFlow {
  ref: string;
  investor: string;
  shareClass: string;
  type: 'subscription' | 'redemption';
  amount: string | null;
  fraction: string | null;
  dealingDate: string;
  status: 'pending' | 'running' | 'executed' | 'settled' | 'cancelled' | 'failed';
  createdAt: string;
}

/** Writes the demo fund's raw-event CSV set; the same seed writes byte-identical files. */
export function generateDemoFund(options: GenerateOptions): GenerateSummary {
  const rng = new SeededRandom(options.seed);
  const totalTrades = options.trades ?? DEMO_DEFAULT_TRADES;
  const out = options.outDir;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const dates = dateRange(DEMO_INCEPTION_DATE, DEMO_END_DATE);

  // Prices: two correlated factors (crypto, equity) plus idiosyncratic noise; equities do not move on weekends.
  const tradable = DEMO_INSTRUMENTS.filter((i) => i.group !== 'cash');
  const priceNum = new Map<string, number[]>(tradable.map((i) => [i.symbol, [i.start]]));
  const priceStr = new Map<string, string[]>(tradable.map((i) => [i.symbol, [fmtPrice(i.start, i.symbol)]]));
  for (let d = 1; d < dates.length; d++) {
    const weekday = new Date(dates[d] + 'T00:00:00Z').getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const fc = rng.normal();
    const fe = 0.3 * fc + Math.sqrt(1 - 0.09) * rng.normal();
    for (const i of tradable) {
      const prev = priceNum.get(i.symbol)![d - 1];
      let next: number;
      if (i.group === 'stable') next = 1 + 0.0003 * rng.normal();
      else if (i.group === 'equity' && weekend) next = prev;
      else {
        const factor = i.group === 'crypto' ? fc : fe;
        const z = i.loading * factor + Math.sqrt(1 - i.loading * i.loading) * rng.normal();
        next = prev * (1 + i.drift + i.vol * z);
      }
      priceNum.get(i.symbol)!.push(next);
      priceStr.get(i.symbol)!.push(fmtPrice(next, i.symbol));
    }
  }
  const pricesCsv = new CsvFile(join(out, 'prices.csv'), ['date', 'symbol', 'close']);
  for (let d = 0; d < dates.length; d++) {
    for (const i of tradable) {
      if (i.symbol === LATE_PRICE_SYMBOL && LATE_PRICE_DATES.includes(dates[d])) {
        const dir = join(out, 'late-prices', dates[d]);
        mkdirSync(dir, { recursive: true });
        const late = new CsvFile(join(dir, 'prices.csv'), ['date', 'symbol', 'close']);
        late.row([dates[d], i.symbol, priceStr.get(i.symbol)![d]]);
        late.close();
        continue;
      }
      pricesCsv.row([dates[d], i.symbol, priceStr.get(i.symbol)![d]]);
    }
  }
  pricesCsv.close();

  // Reference data.
  const instrumentsCsv = new CsvFile(join(out, 'instruments.csv'), ['symbol', 'name', 'asset_class', 'currency']);
  for (const i of DEMO_INSTRUMENTS) instrumentsCsv.row([i.symbol, i.name, i.assetClass, 'USD']);
  instrumentsCsv.close();
  const connectionsCsv = new CsvFile(join(out, 'connections.csv'), ['code', 'name', 'venue', 'source_type', 'mode']);
  for (const c of DEMO_CONNECTIONS) connectionsCsv.row([c.code, c.name, c.venue, c.sourceType, c.mode]);
  connectionsCsv.close();

  // Investors and their capital activity.
  const investors = planInvestors(rng);
  const flows = planFlows(rng, investors);
  const investorsCsv = new CsvFile(join(out, 'investors.csv'), ['investor_id', 'display_name', 'investor_type', 'status', 'legal_name', 'email', 'address', 'tax_id']);
  for (const inv of investors) {
    const invFlows = flows.filter((f) => f.investor === inv.id && f.status !== 'cancelled' && f.status !== 'failed');
    const status = invFlows.some((f) => f.type === 'redemption' && f.fraction === '1') ? 'redeemed'
      : invFlows.every((f) => f.status === 'pending' || f.status === 'running') ? 'pending' : 'active';
    investorsCsv.row([inv.id, inv.displayName, inv.type, status, inv.legalName, inv.email, inv.address, inv.taxId]);
  }
  investorsCsv.close();
  const flowsCsv = new CsvFile(join(out, 'capital-flows.csv'), ['flow_id', 'investor_id', 'share_class', 'type', 'amount', 'fraction', 'dealing_date', 'status', 'created_at']);
  for (const f of flows) flowsCsv.row([f.ref, f.investor, f.shareClass, f.type, f.amount, f.fraction, f.dealingDate, f.status, f.createdAt]);
  flowsCsv.close();

  const expenses = planExpenses(rng);
  const expensesCsv = new CsvFile(join(out, 'expenses.csv'), ['expense_id', 'category', 'vendor', 'description', 'accrual_date', 'amount', 'currency', 'status', 'paid_date']);
  for (const e of expenses) expensesCsv.row([e.ref, e.category, e.vendor, e.description, e.accrualDate, e.amount.toFixed(2), 'USD', e.paidDate ? 'paid' : 'accrued', e.paidDate]);
  expensesCsv.close();

  // Trading, transfers and the shadow books, day by day.
  const terms = generatorTerms();
  const tradesCsv = new CsvFile(join(out, 'trades.csv'), ['trade_id', 'executed_at', 'connection', 'symbol', 'side', 'quantity', 'price', 'fee', 'fee_currency']);
  const transfersCsv = new CsvFile(join(out, 'transfers.csv'), ['transfer_id', 'date', 'from_connection', 'to_connection', 'symbol', 'quantity']);
  const tradesPerDay = totalTrades / (dates.length - 1);
  const sizeScale = Math.min(1, 14 / tradesPerDay);
  let state: EngineState = emptyState();
  let tradeSeq = 0;
  let transferSeq = 0;
  let paperTrades = 0;
  let tradeBudget = 0;
  const paperQty = new Map<string, number>();
  const monthEndNav = new Map<string, Decimal>();
  const classGrossNavPerUnit = new Map<string, Map<string, Decimal>>();
  const expenseTerms: ExpenseTerms[] = expenses.map((e) => ({ ...e, periodEnd: endOfMonth(e.accrualDate) }));
  for (let d = 0; d < dates.length; d++) {
    const date = dates[d];
    const nav = sumNav(state);
    const qty = new Map<string, number>();
    for (const p of state.positions.values()) qty.set(`${p.connection}|${p.symbol}`, p.quantity.toNumber());
    const get = (k: string) => qty.get(k) ?? 0;
    const add = (k: string, v: number) => qty.set(k, get(k) + v);
    const dayTrades: TradeEvent[] = [];
    const dayTransfers: TransferEvent[] = [];
    const pending: { connection: string; symbol: string; side: 'buy' | 'sell'; quantity: string; price: string; fee: string }[] = [];
    const trade = (connection: string, inst: DemoInstrument, side: 'buy' | 'sell', quantity: number) => {
      const price = fmtPrice(priceNum.get(inst.symbol)![d] * (1 + rng.uniform(-0.003, 0.003)), inst.symbol);
      const q = quantity.toFixed(inst.decimals);
      if (Number(q) <= 0) return;
      const notional = Number(q) * Number(price);
      const fee = inst.group === 'equity' ? Math.max(1, Number(q) * 0.005) : notional * 0.0006;
      pending.push({ connection, symbol: inst.symbol, side, quantity: q, price, fee: fee.toFixed(2) });
      if (connection !== 'binance-paper') {
        add(`${connection}|${inst.symbol}`, side === 'buy' ? Number(q) : -Number(q));
        add(`${connection}|USD`, side === 'buy' ? -notional - fee : notional - fee);
      }
    };
    const transfer = (from: string, to: string, symbol: string, quantity: string) => {
      if (Number(quantity) <= 0) return;
      transferSeq++;
      const ref = `TR${String(transferSeq).padStart(6, '0')}`;
      transfersCsv.row([ref, date, from, to, symbol, quantity]);
      dayTransfers.push({ ref, fromConnection: from, toConnection: to, symbol, quantity: new Decimal(quantity) });
      add(`${from}|${symbol}`, -Number(quantity));
      add(`${to}|${symbol}`, Number(quantity));
    };

    if (d === 1) {
      // Build the portfolio on the first trading day.
      for (const inst of tradable) {
        const target = inst.weight * nav / priceNum.get(inst.symbol)![d];
        inst.venues.forEach((venue, v) => {
          const share = inst.venues.length === 1 ? 1 : v === 0 ? 0.7 : 0.3;
          const total = Math.abs(target) * share;
          trade(venue, inst, inst.weight > 0 ? 'buy' : 'sell', floorTo(total / 2, inst.decimals));
          trade(venue, inst, inst.weight > 0 ? 'buy' : 'sell', floorTo(total / 2, inst.decimals));
        });
      }
    } else if (d > 1) {
      tradeBudget += tradesPerDay;
      const k = Math.floor(tradeBudget);
      tradeBudget -= k;
      for (let t = 0; t < k; t++) {
        if (rng.next() < 0.03) {
          const inst = rng.pick(tradable.slice(0, 2));
          const side = (paperQty.get(inst.symbol) ?? 0) > 0 && rng.next() < 0.5 ? 'sell' : 'buy';
          const q = floorTo((nav * 0.001 * sizeScale * rng.uniform(0.5, 1.5)) / priceNum.get(inst.symbol)![d], inst.decimals);
          trade('binance-paper', inst, side, q);
          paperQty.set(inst.symbol, (paperQty.get(inst.symbol) ?? 0) + (side === 'buy' ? q : -q));
          paperTrades++;
          continue;
        }
        const inst = pickWeighted(rng, tradable);
        const venue = rng.pick(inst.venues);
        const price = priceNum.get(inst.symbol)![d];
        const current = DEMO_CONNECTIONS.reduce((s, c) => s + get(`${c.code}|${inst.symbol}`), 0);
        const target = (inst.weight * nav) / price;
        const diff = target - current;
        let side: 'buy' | 'sell';
        let notional: number;
        if (Math.abs(diff) * price > 0.01 * nav) {
          side = diff > 0 ? 'buy' : 'sell';
          notional = Math.abs(diff) * price * rng.uniform(0.2, 0.5) * sizeScale;
        } else {
          side = rng.next() < 0.5 ? 'buy' : 'sell';
          notional = nav * 0.002 * rng.uniform(0.3, 1.2) * sizeScale;
        }
        let q = floorTo(notional / price, inst.decimals);
        if (inst.decimals === 0 && q < 1) q = 1;
        const held = get(`${venue}|${inst.symbol}`);
        if (inst.weight > 0 && side === 'sell') {
          if (held < q) q = floorTo(held, inst.decimals);
          if (q <= 0) { side = 'buy'; q = floorTo(notional / price, inst.decimals) || 1; }
        }
        if (inst.weight < 0 && side === 'buy') {
          if (-held < q) q = floorTo(-held, inst.decimals);
          if (q <= 0) { side = 'sell'; q = floorTo(notional / price, inst.decimals) || 1; }
        }
        trade(venue, inst, side, q);
      }
    }

    // Execution times within the day, then ids in time order.
    const seconds = pending.map(() => rng.int(0, 86_399)).sort((a, b) => a - b);
    pending.forEach((p, idx) => {
      tradeSeq++;
      const ref = `T${String(tradeSeq).padStart(8, '0')}`;
      const s = seconds[idx];
      const executedAt = `${date}T${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}Z`;
      tradesCsv.row([ref, executedAt, p.connection, p.symbol, p.side, p.quantity, p.price, p.fee, 'USD']);
      dayTrades.push({ ref, executedAt, connection: p.connection, symbol: p.symbol, side: p.side, quantity: new Decimal(p.quantity), price: new Decimal(p.price), fee: new Decimal(p.fee) });
    });

    // Custody sweeps and cash management.
    const dom = Number(date.slice(8, 10));
    if (d > 1 && dom === 15) {
      for (const [sym, from, to] of [['BTC', 'coinbase-prime', 'anchorage'], ['ETH', 'coinbase-prime', 'anchorage'], ['SOL', 'kraken', 'fireblocks']] as const) {
        const inst = DEMO_INSTRUMENTS.find((i) => i.symbol === sym)!;
        transfer(from, to, sym, floorTo(get(`${from}|${sym}`) * 0.4, inst.decimals).toFixed(inst.decimals));
      }
    }
    if (d > 1 && dom === 5) {
      for (const [sym, from, to] of [['BTC', 'anchorage', 'coinbase-prime'], ['ETH', 'anchorage', 'coinbase-prime'], ['SOL', 'fireblocks', 'kraken']] as const) {
        const inst = DEMO_INSTRUMENTS.find((i) => i.symbol === sym)!;
        transfer(from, to, sym, floorTo(get(`${from}|${sym}`) * 0.3, inst.decimals).toFixed(inst.decimals));
      }
    }
    if (d >= 1) {
      for (const c of DEMO_CONNECTIONS) {
        if (c.mode !== 'live' || c.code === DEMO_CASH_CONNECTION) continue;
        const cash = get(`${c.code}|USD`);
        if (cash < 0.005 * nav) transfer(DEMO_CASH_CONNECTION, c.code, 'USD', (0.02 * nav - cash).toFixed(2));
        else if (cash > 0.08 * nav) transfer(c.code, DEMO_CASH_CONNECTION, 'USD', (cash - 0.03 * nav).toFixed(2));
      }
      const bank = get(`${DEMO_CASH_CONNECTION}|USD`);
      if (bank < 0.02 * nav) {
        const richest = DEMO_CONNECTIONS.filter((c) => c.mode === 'live' && c.code !== DEMO_CASH_CONNECTION)
          .map((c) => ({ code: c.code, cash: get(`${c.code}|USD`) }))
          .sort((a, b) => b.cash - a.cash)[0];
        const amount = Math.min(0.04 * nav, richest.cash - 0.01 * nav);
        if (amount > 0) transfer(richest.code, DEMO_CASH_CONNECTION, 'USD', amount.toFixed(2));
      }
    }

    const prices = new Map<string, Decimal>();
    for (const i of tradable) prices.set(i.symbol, new Decimal(priceStr.get(i.symbol)![d]));
    const dayFlows: FlowEvent[] = flows
      .filter((f) => f.dealingDate === date && f.status !== 'cancelled' && f.status !== 'failed')
      .map((f) => flowEvent(f));
    const dayExpenses = expenseTerms.map((e) => expenseEventForDay(e, date)).filter((e) => e !== null);
    const inputs: DayInputs = { date, prices, trades: dayTrades, transfers: dayTransfers, flows: dayFlows, expenses: dayExpenses, manualPnl: ZERO };
    const outcome = valueDay(terms, state, inputs);
    if (!outcome.ok) throw new Error(`demo generator produced an unbookable day: ${outcome.reason}`);
    state = outcome.state;
    if (isMonthEnd(date)) monthEndNav.set(date, outcome.summary.nav);
    for (const c of outcome.classes) {
      if (!classGrossNavPerUnit.has(c.classId)) classGrossNavPerUnit.set(c.classId, new Map());
      if (c.navPerUnit && c.grossNavPerUnit) classGrossNavPerUnit.get(c.classId)!.set(date, c.grossNavPerUnit);
    }
  }
  tradesCsv.close();
  transfersCsv.close();

  // Administrator NAVs: month ends, a few outside the 5 bp tolerance.
  const adminCsv = new CsvFile(join(out, 'admin-navs.csv'), ['date', 'nav']);
  for (const [date, nav] of monthEndNav) {
    if (nav.isZero()) continue;
    const noise = BREAK_MONTHS.has(date) ? (rng.next() < 0.5 ? -1 : 1) * rng.uniform(0.0009, 0.0025) : 0.00008 * rng.normal();
    adminCsv.row([date, nav.times(new Decimal(1).plus(noise.toFixed(8))).toFixed(2)]);
  }
  adminCsv.close();

  // Quarterly LP reports with a short narrative: Class A's return on the investor's basis (the lead
  // series' value per original unit, as /fund/performance), from the previous quarter end.
  const lpCsv = new CsvFile(join(out, 'lp-reports.csv'), ['report_id', 'period_start', 'period_end', 'status', 'preview', 'distributed_at']);
  const classATerms = terms.classes.find((c) => c.name === 'Class A')!;
  const classAGnav = [...classGrossNavPerUnit.get(classATerms.id)!].map(([d, gnav]) => ({ d, gnav }));
  const classA = new Map(leadSeriesValues(classATerms, DEMO_INCEPTION_DATE, classAGnav).map((v) => [v.d, v.valuePerOriginalUnit]));
  let previousEnd = classATerms.initialNavPerUnit;
  let periodStart = DEMO_INCEPTION_DATE;
  let n = 0;
  for (const date of dates) {
    if (!isMonthEnd(date) || ![3, 6, 9, 12].includes(Number(date.slice(5, 7)))) continue;
    n++;
    const close = classA.get(date)!;
    const ret = close.dividedBy(previousEnd).minus(1).times(100).toFixed(2);
    previousEnd = close;
    const nav = monthEndNav.get(date)!;
    const last = addDays(date, 92) > DEMO_END_DATE;
    const q = `Q${Math.ceil(Number(date.slice(5, 7)) / 3)} ${date.slice(0, 4)}`;
    const preview = `${q}: Class A returned ${ret}% net of fees; fund NAV ${nav.dividedBy(1_000_000).toFixed(1)}m USD at period end. Digital assets drove returns; the QQQ hedge and stablecoin buffer cushioned drawdowns.`;
    lpCsv.row([`LPR-${date.slice(0, 7)}`, periodStart, date, last ? 'draft' : 'distributed', preview, last ? null : `${addDays(date, 20)}T09:00:00Z`]);
    periodStart = addDays(date, 1);
  }
  lpCsv.close();

  const fundJson = {
    name: 'Meridian Digital Opportunities Fund (synthetic demo)',
    baseCurrency: 'USD',
    inceptionDate: DEMO_INCEPTION_DATE,
    aumTarget: '250000000.00',
    administrator: 'Example Fund Administration Ltd (fictional)',
    cashConnection: DEMO_CASH_CONNECTION,
    dealing: { frequency: 'monthly', subscriptionNoticeDays: 5, redemptionNoticeDays: 30, settlementDays: 3 },
    shareClasses: DEMO_SHARE_CLASSES.map((c) => ({ ...c, launchDate: DEMO_INCEPTION_DATE })),
    chartOfAccounts: [{ code: '5600', name: 'Other expenses (data and operations)' }],
  };
  const fd = openSync(join(out, 'fund.json'), 'w');
  writeSync(fd, JSON.stringify(fundJson, null, 2) + '\n');
  closeSync(fd);
  return {
    outDir: out, days: dates.length, trades: tradeSeq, paperTrades, flows: flows.length, investors: investors.length,
    latePriceDates: LATE_PRICE_DATES, finalNav: sumNav(state).toFixed(2),
  };
}

function sumNav(state: EngineState): number {
  let nav = ZERO;
  for (const c of state.classes.values()) nav = nav.plus(c.nav);
  return nav.toNumber();
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
      crystallizationFrequency: c.crystallizationFrequency as CrystallizationFrequency, feeExempt: c.feeExempt,
      initialNavPerUnit: new Decimal(c.initialNavPerUnit),
    })),
    connections: new Map(DEMO_CONNECTIONS.map((c) => [c.code, { code: c.code, sourceType: c.sourceType, mode: c.mode }])),
    stablecoins: new Set(DEMO_INSTRUMENTS.filter((i) => i.assetClass === 'stablecoin').map((i) => i.symbol)),
  };
}

function flowEvent(f: PlannedFlow): FlowEvent {
  return {
    ref: f.ref, flowId: fundScopedId(GEN_FUND, 'capital-activity', f.ref), investorId: fundScopedId(GEN_FUND, 'investor', f.investor),
    classId: fundScopedId(GEN_FUND, 'share-class', f.shareClass), type: f.type,
    amount: f.amount === null ? null : new Decimal(f.amount), fraction: f.fraction === null ? null : new Decimal(f.fraction),
  };
}

interface PlannedInvestor {
  id: string;
  shareClass: string;
  displayName: string;
  type: string;
  legalName: string;
  email: string;
  address: string;
  taxId: string;
}

function planInvestors(rng: SeededRandom): PlannedInvestor[] {
  const out: PlannedInvestor[] = [];
  for (let n = 1; n <= 50; n++) {
    const id = `INV${String(n).padStart(3, '0')}`;
    const shareClass = n <= 4 ? 'Class M' : n <= 32 ? 'Class A' : 'Class B';
    const individual = shareClass === 'Class M' || rng.next() < 0.45;
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const kind = rng.pick(ENTITY_KINDS);
    const legalName = individual ? `${first} ${last}` : `${rng.pick(ENTITY_WORDS)} ${kind.suffix} (fictional)`;
    out.push({
      id, shareClass,
      displayName: `Investor ${String(n).padStart(3, '0')}`,
      type: shareClass === 'Class M' ? 'management' : individual ? 'individual' : kind.type,
      legalName,
      email: `${individual ? `${first}.${last}` : `ops${n}`}@example.${individual ? 'com' : 'org'}`.toLowerCase(),
      address: `${rng.int(1, 999)} Example Street, Suite ${rng.int(100, 999)}, Springfield, XX ${String(rng.int(10000, 99999))}`,
      taxId: `XX-${String(rng.int(1000000, 9999999))}`,
    });
  }
  return out;
}

function planFlows(rng: SeededRandom, investors: PlannedInvestor[]): PlannedFlow[] {
  const flows: PlannedFlow[] = [];
  const holders = new Set<string>();
  const waiting = investors.filter((i) => !['INV001', 'INV002', 'INV003', 'INV004'].includes(i.id) && !(Number(i.id.slice(3)) <= 24) && !(Number(i.id.slice(3)) >= 33 && Number(i.id.slice(3)) <= 42) && i.id !== 'INV050');
  const add = (inv: PlannedInvestor, type: 'subscription' | 'redemption', dealingDate: string, amount: string | null, fraction: string | null, status?: PlannedFlow['status']) => {
    const created = addDays(dealingDate, type === 'subscription' ? -rng.int(6, 20) : -rng.int(31, 45));
    flows.push({
      ref: '', investor: inv.id, shareClass: inv.shareClass, type, amount, fraction, dealingDate,
      status: status ?? (addDays(dealingDate, 3) <= DEMO_END_DATE ? 'settled' : 'executed'),
      createdAt: `${created}T${String(rng.int(8, 17)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`,
    });
  };
  for (const inv of investors) {
    const n = Number(inv.id.slice(3));
    if (n <= 4 || n <= 24 || (n >= 33 && n <= 42)) {
      const amount = inv.shareClass === 'Class M' ? rng.int(10, 25) * 100_000 : inv.shareClass === 'Class A' ? rng.int(10, 60) * 100_000 : rng.int(20, 80) * 100_000;
      add(inv, 'subscription', DEMO_INCEPTION_DATE, `${amount}.00`, null);
      holders.add(inv.id);
    }
  }
  const months: string[] = [];
  for (let d = endOfMonth(addDays(DEMO_INCEPTION_DATE, 1)); d <= DEMO_END_DATE; d = endOfMonth(addDays(d, 1))) months.push(d);
  const fullRedemptionMonths = new Map([[months[9], 'INV007'], [months[20], 'INV036'], [months[28], 'INV015']]);
  const cancelledMonths = new Set([months[4], months[13], months[25]]);
  const failedMonths = new Set([months[7], months[22]]);
  for (const month of months) {
    if (waiting.length && rng.next() < 0.6) {
      const inv = waiting.shift()!;
      add(inv, 'subscription', month, `${rng.int(5, 40) * 100_000}.00`, null);
      holders.add(inv.id);
    }
    const holderList = investors.filter((i) => holders.has(i.id) && i.shareClass !== 'Class M');
    for (let k = rng.int(0, 2); k > 0; k--) add(rng.pick(holderList), 'subscription', month, `${rng.int(2, 20) * 50_000}.00`, null);
    for (let k = rng.int(0, 2); k > 0; k--) {
      const inv = rng.pick(holderList);
      if (rng.next() < 0.65) add(inv, 'redemption', month, null, rng.uniform(0.1, 0.4).toFixed(4));
      else add(inv, 'redemption', month, `${rng.int(2, 10) * 50_000}.00`, null);
    }
    const full = fullRedemptionMonths.get(month);
    if (full && holders.has(full)) {
      add(investors.find((i) => i.id === full)!, 'redemption', month, null, '1');
      holders.delete(full);
    }
    if (cancelledMonths.has(month)) add(rng.pick(holderList), 'subscription', month, `${rng.int(2, 10) * 100_000}.00`, null, 'cancelled');
    if (failedMonths.has(month)) add(rng.pick(holderList), 'redemption', month, `${rng.int(2, 6) * 100_000}.00`, null, 'failed');
  }
  const next = endOfMonth(addDays(DEMO_END_DATE, 1));
  const holderList = investors.filter((i) => holders.has(i.id) && i.shareClass !== 'Class M');
  add(investors.find((i) => i.id === 'INV050')!, 'subscription', next, '1500000.00', null, 'pending');
  add(rng.pick(holderList), 'subscription', next, '750000.00', null, 'pending');
  add(rng.pick(holderList), 'redemption', next, null, '0.2500', 'pending');
  add(rng.pick(holderList), 'redemption', next, '400000.00', null, 'running');
  add(rng.pick(holderList), 'subscription', next, '300000.00', null, 'running');
  flows.forEach((f, i) => { f.ref = `CF${String(i + 1).padStart(5, '0')}`; });
  return flows;
}

interface PlannedExpense extends Omit<ExpenseTerms, 'periodEnd'> {
  vendor: string;
}

function planExpenses(rng: SeededRandom): PlannedExpense[] {
  const lines = [
    { category: 'administration', code: 'ADM', vendor: 'Example Fund Administration Ltd', label: 'Fund administration', base: 14_000 },
    { category: 'audit', code: 'AUD', vendor: 'Example Audit LLP', label: 'Audit fee accrual', base: 5_000 },
    { category: 'legal', code: 'LEG', vendor: 'Example Legal LLP', label: 'Legal counsel', base: 3_500 },
    { category: 'other', code: 'OTH', vendor: 'Example Market Data Inc.', label: 'Market data and operations', base: 1_200 },
  ];
  const out: PlannedExpense[] = [];
  for (let first = addDays(DEMO_INCEPTION_DATE, 1); first <= DEMO_END_DATE; first = addDays(endOfMonth(first), 1)) {
    for (const l of lines) {
      const amount = new Decimal((l.base * rng.uniform(0.9, 1.1)).toFixed(2));
      const paid = addDays(endOfMonth(first), 10);
      out.push({
        ref: `EXP-${first.slice(0, 7)}-${l.code}`, category: l.category, vendor: l.vendor,
        description: `${l.label} ${first.slice(0, 7)}`, accrualDate: first, amount, paidDate: paid <= DEMO_END_DATE ? paid : null,
      });
    }
  }
  return out;
}
