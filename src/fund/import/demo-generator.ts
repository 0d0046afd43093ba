import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, dateRange, isMonthEnd } from '../dates';
import { Decimal, sum } from '../money';
import { leadSeriesValues } from '../nav/lead-series';
import { CsvFile } from './csv-writer';
import { type PlannedFlow, type PlannedInvestor, planExpenses, planFlows, planInvestors } from './demo-plans';
import { type PriceSeries, fmtPrice } from './demo-day';
import { type BooksSimulation, simulateBooks } from './demo-trading';
import {
  DEMO_CASH_CONNECTION,
  DEMO_CONNECTIONS,
  DEMO_DEFAULT_TRADES,
  DEMO_END_DATE,
  DEMO_INCEPTION_DATE,
  DEMO_INSTRUMENTS,
  DEMO_SHARE_CLASSES,
} from './demo-universe';
import { SeededRandom } from './prng';

export interface GenerateOptions {
  seed: number;
  outDir: string;
  trades?: number;
  /**
   * Trades only through this date (a shorter history, quick to write): prices, investors, capital
   * activity and expenses still span the whole demo period, and every day through `through` trades
   * exactly as in the full history; administrator NAVs and LP reports stop at it too (the
   * administrator's figures are drawn after the trading, so they differ from the full history's).
   * For a fund valued through that date only (tests).
   */
  through?: string;
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

const LATE_PRICE_SYMBOL = 'SOL';
const LATE_PRICE_DATES = ['2024-03-09', '2025-01-18', '2026-06-07'];
const BREAK_MONTHS = new Set(['2024-05-31', '2025-03-31', '2026-02-28']);

/**
 * Writes the demo fund's raw-event CSV set; the same seed writes byte-identical files. The steps draw
 * from one seeded stream in this order: prices, investors, capital activity, expenses, the day-by-day
 * trading, the administrator NAVs.
 */
export function generateDemoFund(options: GenerateOptions): GenerateSummary {
  const rng = new SeededRandom(options.seed);
  const out = options.outDir;
  clearGeneratedFiles(out);
  mkdirSync(out, { recursive: true });
  const dates = dateRange(DEMO_INCEPTION_DATE, DEMO_END_DATE);
  const prices = simulatePrices(rng, dates); // 1
  writePrices(out, dates, prices);
  writeReferenceData(out); // 2
  const investors = planInvestors(rng); // 3
  const flows = planFlows(rng, investors);
  writeInvestorsAndFlows(out, investors, flows);
  const expenses = planExpenses(rng); // 4
  const expensesCsv = new CsvFile(join(out, 'expenses.csv'), [
    'expense_id',
    'category',
    'vendor',
    'description',
    'accrual_date',
    'amount',
    'currency',
    'status',
    'paid_date',
  ]);
  for (const e of expenses)
    expensesCsv.row([
      e.ref,
      e.category,
      e.vendor,
      e.description,
      e.accrualDate,
      e.amount.toFixed(2),
      'USD',
      e.paidDate ? 'paid' : 'accrued',
      e.paidDate,
    ]);
  expensesCsv.close();
  const traded = options.through ? dates.filter((d) => d <= options.through!) : dates;
  const books = simulateBooks(rng, out, dates, prices, flows, expenses, options.trades ?? DEMO_DEFAULT_TRADES, {
    days: traded.length,
  }); // 5
  writeAdminNavs(out, rng, books.monthEndNav); // 6
  writeLpReports(out, traded, books); // 7
  writeFundJson(out); // 8
  return {
    outDir: out,
    days: traded.length,
    trades: books.trades,
    paperTrades: books.paperTrades,
    flows: flows.length,
    investors: investors.length,
    latePriceDates: LATE_PRICE_DATES,
    finalNav: sum([...books.state.classes.values()].map((c) => c.nav)).toFixed(2),
  };
}

/** Step 1. Prices: two correlated factors (crypto, equity) plus idiosyncratic noise; equities do not move on weekends. */
function simulatePrices(rng: SeededRandom, dates: string[]): PriceSeries {
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
  return { tradable, priceNum, priceStr };
}

/** The files the generator writes at the top of its folder (and late-prices/<date>/prices.csv). */
const GENERATED_FILES = new Set([
  'admin-navs.csv',
  'capital-flows.csv',
  'connections.csv',
  'expenses.csv',
  'fund.json',
  'instruments.csv',
  'investors.csv',
  'lp-reports.csv',
  'prices.csv',
  'trades.csv',
  'transfers.csv',
]);

/**
 * Clears an earlier generation from `out` so a new one does not mix with it. The folder itself is
 * never removed, and a folder holding anything the generator does not write (an operator's own
 * files, another fund's CSVs) is refused naming what is there, before anything is touched.
 */
function clearGeneratedFiles(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new Error(`--out ${out} is not a folder`);
  const foreign = foreignEntries(out);
  if (foreign.length) {
    throw new Error(
      `--out ${out} holds files the generator did not write (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}); ` +
        'give an empty or new folder: nothing was removed',
    );
  }
  for (const name of readdirSync(out)) rmSync(join(out, name), { recursive: true, force: true });
}

/** What in `out` the generator does not write: anything but its files and late-prices/<date>/prices.csv. */
function foreignEntries(out: string): string[] {
  const foreign: string[] = [];
  for (const entry of readdirSync(out, { withFileTypes: true })) {
    if (entry.isFile() && GENERATED_FILES.has(entry.name)) continue;
    if (!(entry.isDirectory() && entry.name === 'late-prices')) {
      foreign.push(entry.name);
      continue;
    }
    for (const day of readdirSync(join(out, 'late-prices'), { withFileTypes: true })) {
      const dayDir = join('late-prices', day.name);
      const files = day.isDirectory() && /^\d{4}-\d{2}-\d{2}$/.test(day.name) ? readdirSync(join(out, dayDir)) : null;
      if (!files) foreign.push(dayDir);
      else foreign.push(...files.filter((f) => f !== 'prices.csv').map((f) => join(dayDir, f)));
    }
  }
  return foreign;
}

/** prices.csv, except the late closes, which go to late-prices/<date>/prices.csv (imported later). */
function writePrices(out: string, dates: string[], { tradable, priceStr }: PriceSeries): void {
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
}

/** Step 2. Reference data. */
function writeReferenceData(out: string): void {
  const instrumentsCsv = new CsvFile(join(out, 'instruments.csv'), ['symbol', 'name', 'asset_class', 'currency']);
  for (const i of DEMO_INSTRUMENTS) instrumentsCsv.row([i.symbol, i.name, i.assetClass, 'USD']);
  instrumentsCsv.close();
  const connectionsCsv = new CsvFile(join(out, 'connections.csv'), ['code', 'name', 'venue', 'source_type', 'mode']);
  for (const c of DEMO_CONNECTIONS) connectionsCsv.row([c.code, c.name, c.venue, c.sourceType, c.mode]);
  connectionsCsv.close();
}

/** Step 3. Investors (their status follows from their capital activity) and the capital activity. */
function writeInvestorsAndFlows(out: string, investors: PlannedInvestor[], flows: PlannedFlow[]): void {
  const investorsCsv = new CsvFile(join(out, 'investors.csv'), [
    'investor_id',
    'display_name',
    'investor_type',
    'status',
    'legal_name',
    'email',
    'address',
    'tax_id',
  ]);
  for (const inv of investors) {
    const invFlows = flows.filter((f) => f.investor === inv.id && f.status !== 'cancelled' && f.status !== 'failed');
    const status = invFlows.some((f) => f.type === 'redemption' && f.fraction === '1')
      ? 'redeemed'
      : invFlows.every((f) => f.status === 'pending' || f.status === 'running')
        ? 'pending'
        : 'active';
    investorsCsv.row([inv.id, inv.displayName, inv.type, status, inv.legalName, inv.email, inv.address, inv.taxId]);
  }
  investorsCsv.close();
  const flowsCsv = new CsvFile(join(out, 'capital-flows.csv'), [
    'flow_id',
    'investor_id',
    'share_class',
    'type',
    'amount',
    'fraction',
    'dealing_date',
    'status',
    'created_at',
  ]);
  for (const f of flows)
    flowsCsv.row([f.ref, f.investor, f.shareClass, f.type, f.amount, f.fraction, f.dealingDate, f.status, f.createdAt]);
  flowsCsv.close();
}

/** Step 6. Administrator NAVs: month ends, a few outside the 5 bp tolerance. */
function writeAdminNavs(out: string, rng: SeededRandom, monthEndNav: Map<string, Decimal>): void {
  const adminCsv = new CsvFile(join(out, 'admin-navs.csv'), ['date', 'nav']);
  for (const [date, nav] of monthEndNav) {
    if (nav.isZero()) continue;
    const noise = BREAK_MONTHS.has(date)
      ? (rng.next() < 0.5 ? -1 : 1) * rng.uniform(0.0009, 0.0025)
      : 0.00008 * rng.normal();
    adminCsv.row([date, nav.times(new Decimal(1).plus(noise.toFixed(8))).toFixed(2)]);
  }
  adminCsv.close();
}

/**
 * Step 7. Quarterly LP reports with a short narrative: Class A's return on the investor's basis (the lead
 * series' value per original unit, as /fund/performance), from the previous quarter end.
 */
function writeLpReports(out: string, dates: string[], books: BooksSimulation): void {
  const lpCsv = new CsvFile(join(out, 'lp-reports.csv'), [
    'report_id',
    'period_start',
    'period_end',
    'status',
    'preview',
    'distributed_at',
  ]);
  const classATerms = books.terms.classes.find((c) => c.name === 'Class A')!;
  const classAGnav = [...books.classGrossNavPerUnit.get(classATerms.id)!].map(([d, gnav]) => ({ d, gnav }));
  const classA = new Map(
    leadSeriesValues(classATerms, DEMO_INCEPTION_DATE, classAGnav).map((v) => [v.d, v.valuePerOriginalUnit]),
  );
  let previousEnd = classATerms.initialNavPerUnit;
  let periodStart = DEMO_INCEPTION_DATE;
  for (const date of dates) {
    if (!isMonthEnd(date) || ![3, 6, 9, 12].includes(Number(date.slice(5, 7)))) continue;
    const close = classA.get(date)!;
    const ret = close.dividedBy(previousEnd).minus(1).times(100).toFixed(2);
    previousEnd = close;
    const nav = books.monthEndNav.get(date)!;
    const last = addDays(date, 92) > DEMO_END_DATE;
    const q = `Q${Math.ceil(Number(date.slice(5, 7)) / 3)} ${date.slice(0, 4)}`;
    const preview = `${q}: Class A returned ${ret}% net of fees; fund NAV ${nav.dividedBy(1_000_000).toFixed(1)}m USD at period end. Digital assets drove returns; the QQQ hedge and stablecoin buffer cushioned drawdowns.`;
    lpCsv.row([
      `LPR-${date.slice(0, 7)}`,
      periodStart,
      date,
      last ? 'draft' : 'distributed',
      preview,
      last ? null : `${addDays(date, 20)}T09:00:00Z`,
    ]);
    periodStart = addDays(date, 1);
  }
  lpCsv.close();
}

/** Step 8. The fund definition. */
function writeFundJson(out: string): void {
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
}
