import Decimal from 'decimal.js';
import type {
  AttributionDatesDto,
  AttributionDto,
  BreakdownDto,
  CapitalAccountsDto,
  CapitalActivityListDto,
  DealingCalendarDto,
  ExpensesDto,
  ExposureDto,
  ExposureSeriesRowDto,
  FeeTermsDto,
  GlDetailDto,
  InvestorsDto,
  JournalEntriesDto,
  LedgerAccountsDto,
  LpReportsDto,
  NavHistoryDto,
  OverviewDto,
  PerformanceDto,
  PositionsDto,
  ReconciliationDto,
  StressPresetsDto,
  StressTestDto,
  TradesPageDto,
  TrialBalanceDto,
  VarDto,
} from '../../sdk/typescript/src/index';
import { bootApp, call, dbOf, mintKey, type ResponseJson, type TestApp } from '../utils/app';
import { InvestorsService } from '../../src/fund-data/investors/investors.service';
import { DECIMAL, DEMO_SLUG, MONEY, allEndpoints, fundKey, get, seedFundsOnce } from './fixtures';

jest.setTimeout(240_000);
const D = (v: string) => new Decimal(v);
const sumOf = (values: string[]) => values.reduce((a, v) => a.plus(v), new Decimal(0));

/** Response members whose values are money: decimal strings with exactly 2 decimal places. */
const MONEY_MEMBERS = new Set([
  'aumTarget',
  'grossAssetValue',
  'netAssetValue',
  'totalMarketValue',
  'marketValue',
  'nav',
  'longExposure',
  'shortExposure',
  'grossExposure',
  'netExposure',
  'cashExposure',
  'openingNav',
  'closingNav',
  'totalPnl',
  'openingMarketValue',
  'closingMarketValue',
  'netTrades',
  'priceEffect',
  'tradingEffect',
  'pnl',
  'valueAtRisk',
  'portfolioVolatility',
  'componentVar',
  'debit',
  'credit',
  'totalDebits',
  'totalCredits',
  'openingCapital',
  'contributions',
  'managementFee',
  'performanceFee',
  'closingCapital',
  'amount',
  'notional',
  'openingBalance',
  'runningBalance',
  'closingBalance',
  'requestedAmount',
  'shadowNav',
  'administratorNav',
  'difference',
]);
/** Response members whose values are decimal strings (money, prices, quantities, units, ratios). */
const DECIMAL_MEMBERS = new Set([
  ...MONEY_MEMBERS,
  'mgmtFeeAnnualRate',
  'perfFeeRate',
  'hurdleAnnualRate',
  'quantity',
  'price',
  'weight',
  'grossExposureRatio',
  'netExposureRatio',
  'cashExposureRatio',
  'management',
  'performance',
  'expenses',
  'subscriptions',
  'redemptions',
  'confidence',
  'valueAtRiskRatio',
  'contributionRatio',
  'units',
  'navPerUnit',
  'classNavPerUnit',
  'investorNavPerUnit',
  'ownershipRatio',
  'fee',
  'requestedFraction',
  'returnRatio',
  'pnlRatio',
  'differenceRatio',
  'toleranceRatio',
  'mtd',
  'qtd',
  'ytd',
  'itd',
  'annualizedItd',
  'return',
  'annualizedVolatility',
  'maxDrawdown',
]);

/** The bodies fetched once in beforeAll, by endpoint, as the SDK's DTOs (each validated against the contract by call()). */
interface Bodies {
  overview: OverviewDto;
  positions: PositionsDto;
  breakdown: BreakdownDto;
  exposure: ExposureDto;
  'exposure/series': ExposureSeriesRowDto[];
  'pnl/attribution': AttributionDto;
  'pnl/attribution-dates': AttributionDatesDto;
  'risk/var': VarDto;
  'trial-balance': TrialBalanceDto;
  'capital-accounts': CapitalAccountsDto;
  expenses: ExpensesDto;
  'fee-terms': FeeTermsDto;
  trades: TradesPageDto;
  'ledger/journal-entries': JournalEntriesDto;
  'ledger/gl-detail': GlDetailDto;
  investors: InvestorsDto;
  'capital-activity': CapitalActivityListDto;
  'dealing-calendar': DealingCalendarDto;
  'lp-reports': LpReportsDto;
  'risk/stress-presets': StressPresetsDto;
  'risk/stress-test': StressTestDto;
  'nav/history': NavHistoryDto;
  'nav/reconciliation': ReconciliationDto;
  performance: PerformanceDto;
  'ledger/accounts': LedgerAccountsDto;
}

/** Walks a JSON value; every decimal member must be a decimal string (or null), never a number. */
function checkDecimals(value: unknown, path: string, problems: string[]): void {
  if (Array.isArray(value)) return value.forEach((v, i) => checkDecimals(v, `${path}[${i}]`, problems));
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (DECIMAL_MEMBERS.has(k) && (typeof v !== 'object' || v === null)) {
      if (v !== null && (typeof v !== 'string' || !DECIMAL.test(v)))
        problems.push(`${path}.${k} = ${JSON.stringify(v)}`);
      if (v !== null && MONEY_MEMBERS.has(k) && !MONEY.test(v as string))
        problems.push(`${path}.${k} = ${JSON.stringify(v)} (money needs 2 dp)`);
    } else {
      checkDecimals(v, `${path}.${k}`, problems);
    }
  }
}

describe('fund read API against the demo fund (e2e)', () => {
  let app: TestApp;
  let key: string;
  let demoId: string;
  const bodies = new Map<string, unknown>();
  const bodyOf = <K extends keyof Bodies>(name: K) => bodies.get(name) as Bodies[K];
  const raw: string[] = [];
  let attributionDates: string[];

  const fetch = async <T = ResponseJson>(url: string) => {
    const res = await get<T>(app, url, key);
    raw.push(res.body);
    return res;
  };

  beforeAll(async () => {
    app = await bootApp({ liveCacheSeconds: 0 });
    ({ demoId } = await seedFundsOnce(app));
    key = await fundKey(app, DEMO_SLUG);
    attributionDates = (await fetch<AttributionDatesDto>('/api/v1/fund/pnl/attribution-dates')).json.dates;
    const latest = attributionDates[attributionDates.length - 1];
    for (const url of allEndpoints({ attributionDate: latest, journalFrom: '2026-08-01', journalTo: '2026-10-31' })) {
      const res = await fetch(url);
      bodies.set(
        url.split('?')[0].replace('/api/v1/fund/', ''),
        res.status === 200 ? res.json : { status: res.status, body: res.json },
      );
    }
  });
  afterAll(() => app.close());

  it('answers 200 on all 25 endpoints', () => {
    expect(bodies.size).toBe(25);
    for (const [name, b] of bodies)
      expect({ name, status: (b as { status?: number }).status ?? 200 }).toEqual({ name, status: 200 });
  });

  it('answers with exactly the documented members, in order', () => {
    const keys = (name: keyof Bodies) => Object.keys(bodyOf(name));
    expect(keys('overview')).toEqual(['fund', 'shareClasses', 'latestNav']);
    const o = bodyOf('overview');
    expect(Object.keys(o.fund)).toEqual(['baseCurrency', 'inceptionDate', 'aumTarget']);
    expect(o.shareClasses).toHaveLength(3);
    for (const c of o.shareClasses)
      expect(Object.keys(c)).toEqual([
        'name',
        'currency',
        'mgmtFeeAnnualRate',
        'perfFeeRate',
        'hurdleAnnualRate',
        'crystallizationFrequency',
        'feeExempt',
        'status',
      ]);
    expect(Object.keys(o.latestNav!)).toEqual(['valuationDate', 'status', 'grossAssetValue', 'netAssetValue']);
    expect(keys('positions')).toEqual(['asOf', 'baseCurrency', 'totalMarketValue', 'positions']);
    for (const r of bodyOf('positions').positions)
      expect(Object.keys(r)).toEqual(['asset', 'venue', 'quantity', 'price', 'marketValue', 'weight']);
    expect(keys('breakdown')).toEqual(['asOf', 'totalMarketValue', 'byAsset', 'bySourceType', 'byVenue']);
    expect(keys('exposure')).toHaveLength(11);
    expect(keys('exposure')).toEqual([
      'asOf',
      'baseCurrency',
      'nav',
      'longExposure',
      'shortExposure',
      'grossExposure',
      'netExposure',
      'cashExposure',
      'grossExposureRatio',
      'netExposureRatio',
      'cashExposureRatio',
    ]);
    const series = bodyOf('exposure/series');
    expect(Array.isArray(series)).toBe(true);
    expect(series).toHaveLength(10);
    for (const r of series) expect(Object.keys(r)).toHaveLength(9);
    expect(keys('pnl/attribution')).toEqual([
      'date',
      'previousDate',
      'navRunId',
      'previousNavRunId',
      'openingNav',
      'closingNav',
      'totalPnl',
      'byAsset',
      'fees',
      'flows',
    ]);
    for (const r of bodyOf('pnl/attribution').byAsset)
      expect(Object.keys(r)).toEqual([
        'asset',
        'openingMarketValue',
        'closingMarketValue',
        'netTrades',
        'priceEffect',
        'tradingEffect',
        'pnl',
      ]);
    expect(keys('risk/var')).toEqual([
      'asOf',
      'method',
      'confidence',
      'horizonDays',
      'windowDays',
      'nav',
      'valueAtRisk',
      'valueAtRiskRatio',
      'portfolioVolatility',
      'components',
    ]);
    expect(keys('trial-balance')).toEqual(['asOf', 'accounts', 'totalDebits', 'totalCredits', 'balanced']);
    for (const a of bodyOf('trial-balance').accounts)
      expect(Object.keys(a)).toEqual(['accountCode', 'accountName', 'accountType', 'debit', 'credit']);
    expect(keys('capital-accounts')).toEqual(['navRunId', 'valuationDate', 'accounts', 'totals']);
    for (const a of bodyOf('capital-accounts').accounts) expect(Object.keys(a)).toHaveLength(14);
    expect(keys('expenses')).toEqual(['items', 'page']);
    expect(Object.keys(bodyOf('expenses').page)).toEqual(['total', 'nextCursor', 'hasMore']);
    for (const e of bodyOf('expenses').items)
      expect(Object.keys(e)).toEqual([
        'id',
        'category',
        'vendor',
        'description',
        'accrualDate',
        'amount',
        'currency',
        'status',
        'paidDate',
      ]);
    expect(keys('fee-terms')).toHaveLength(9);
    // the label says what the engine does: (1 + h)^(days/365), not daily compounding of h/365
    expect(bodyOf('fee-terms').hurdleCompounding).toBe(
      'annual effective rate, accrued daily: (1 + h)^(days/365) (ACT/365)',
    );
    for (const c of bodyOf('fee-terms').shareClasses) expect(Object.keys(c)).toHaveLength(9);
    expect(keys('trades')).toEqual(['items', 'nextCursor', 'hasMore']);
    for (const t of bodyOf('trades').items)
      expect(Object.keys(t)).toEqual([
        'id',
        'executedAt',
        'symbol',
        'side',
        'quantity',
        'price',
        'notional',
        'fee',
        'feeCurrency',
        'venue',
      ]);
    expect(keys('ledger/journal-entries')).toEqual(['from', 'to', 'lines', 'totals', 'nextCursor', 'hasMore']);
    expect(Object.keys(bodyOf('ledger/journal-entries').totals)).toEqual(['lineCount', 'debits', 'credits']);
    for (const l of bodyOf('ledger/journal-entries').lines) expect(Object.keys(l)).toHaveLength(17);
    expect(keys('ledger/gl-detail')).toEqual([
      'account',
      'from',
      'to',
      'openingBalance',
      'lines',
      'closingBalance',
      'nextCursor',
      'hasMore',
    ]);
    expect(Object.keys(bodyOf('ledger/gl-detail').account)).toEqual(['code', 'name', 'type']);
    expect(keys('investors')).toEqual(['items', 'page']);
    for (const i of bodyOf('investors').items)
      expect(Object.keys(i)).toEqual(['investorId', 'displayName', 'status', 'investorType', 'openLots', 'units']);
    expect(keys('capital-activity')).toEqual(['items', 'page']);
    for (const c of bodyOf('capital-activity').items) {
      expect(Object.keys(c)).toHaveLength(11);
      expect((c.requestedAmount === null) !== (c.requestedFraction === null)).toBe(true);
    }
    expect(keys('dealing-calendar')).toEqual(['dealing']);
    expect(Object.keys(bodyOf('dealing-calendar').dealing)).toHaveLength(5);
    expect(keys('lp-reports')).toEqual(['items', 'page']);
    expect(keys('pnl/attribution-dates')).toEqual(['dates', 'latest']);
    expect(keys('risk/stress-presets')).toEqual(['items', 'total']);
    expect(keys('risk/stress-test')).toEqual(['preset', 'asOf', 'nav', 'pnl', 'pnlRatio', 'byAsset', 'fallbackAssets']);
    expect(keys('nav/history')).toEqual(['items', 'total', 'nextCursor', 'hasMore']);
    expect(keys('nav/reconciliation')).toEqual([
      'toleranceRatio',
      'items',
      'awaitingAdministrator',
      'nextCursor',
      'hasMore',
    ]);
    expect(keys('performance')).toEqual([
      'shareClass',
      'asOf',
      'returns',
      'monthly',
      'annualizedVolatility',
      'maxDrawdown',
    ]);
    expect(keys('ledger/accounts')).toEqual(['items', 'total']);
    // the accounts a proposed manual entry may not post to: the control accounts the NAV engine keeps
    const closed = bodyOf('ledger/accounts')
      .items.filter((a) => !a.manualPosting)
      .map((a) => a.accountCode);
    expect(closed).toEqual([
      '1200',
      '1250',
      '2000',
      '2010',
      '2200',
      '2300',
      '3000',
      '3100',
      '3900',
      '4000',
      '4100',
      '5000',
      '5100',
    ]);
    expect(bodyOf('ledger/accounts').items.find((a) => a.accountCode === '5500')?.manualPosting).toBe(true);
  });

  it('writes every money, quantity, price, unit and ratio as a decimal string', () => {
    const problems: string[] = [];
    for (const [name, b] of bodies) checkDecimals(b, name, problems);
    expect(problems).toEqual([]);
  });

  it('positions: live connections only, never the paper connection; exposure and breakdown agree with them', async () => {
    const pos = bodyOf('positions');
    const venues = new Set(pos.positions.map((p) => p.venue));
    const paper = await dbOf(app).query(`SELECT venue FROM connections WHERE fund_id = $1 AND mode = 'paper'`, [
      demoId,
    ]);
    expect(paper.length).toBeGreaterThan(0);
    for (const p of paper) expect(venues.has(p.venue)).toBe(false);
    expect(pos.positions.some((p) => D(p.quantity).isNegative())).toBe(true); // a short exists
    const total = sumOf(pos.positions.map((p) => p.marketValue));
    expect(total.toFixed(2)).toBe(pos.totalMarketValue);
    for (const p of pos.positions)
      expect(D(p.quantity).times(p.price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)).toBe(p.marketValue);

    const instruments = await dbOf(app).query<{ symbol: string; asset_class: string }[]>(
      `SELECT symbol, asset_class FROM instruments WHERE fund_id = $1`,
      [demoId],
    );
    const classes = new Map<string, string>(instruments.map((r) => [r.symbol, r.asset_class]));
    const cashLike = (s: string) => ['cash', 'stablecoin'].includes(classes.get(s)!);
    const mv = (f: (p: PositionsDto['positions'][number]) => boolean) =>
      sumOf(pos.positions.filter(f).map((p) => p.marketValue));
    const e = bodyOf('exposure');
    expect(e.longExposure).toBe(mv((p) => !cashLike(p.asset) && D(p.marketValue).isPositive()).toFixed(2));
    expect(e.shortExposure).toBe(
      mv((p) => !cashLike(p.asset) && D(p.marketValue).isNegative())
        .abs()
        .toFixed(2),
    );
    expect(e.cashExposure).toBe(mv((p) => cashLike(p.asset)).toFixed(2));
    expect(e.grossExposure).toBe(D(e.longExposure).plus(e.shortExposure).toFixed(2));
    expect(e.netExposure).toBe(D(e.longExposure).minus(e.shortExposure).toFixed(2));
    expect(D(e.netExposure).plus(e.cashExposure).toFixed(2)).toBe(pos.totalMarketValue);
    expect(e.nav).toBe(bodyOf('overview').latestNav!.netAssetValue);
    expect(e.grossExposureRatio).toBe(D(e.grossExposure).dividedBy(e.nav!).toFixed(8));

    const b = bodyOf('breakdown');
    expect(b.totalMarketValue).toBe(pos.totalMarketValue);
    for (const group of ['byAsset', 'bySourceType', 'byVenue'] as const) {
      expect(sumOf(b[group].map((r) => r.marketValue)).toFixed(2)).toBe(pos.totalMarketValue);
      const abs = b[group].map((r) => D(r.marketValue).abs());
      for (let i = 1; i < abs.length; i++) expect(abs[i - 1].gte(abs[i])).toBe(true);
    }
    // the latest series row is the latest complete run; its exposure matches the live book when nothing traded since
    const series = bodyOf('exposure/series');
    expect(series[series.length - 1].date).toBe(bodyOf('overview').latestNav!.valuationDate);
  });

  it('capital accounts sum to the overview NAV exactly', () => {
    const ca = bodyOf('capital-accounts');
    const nav = bodyOf('overview').latestNav!;
    expect(ca.valuationDate).toBe(nav.valuationDate);
    expect(ca.accounts.length).toBeGreaterThan(10);
    expect(sumOf(ca.accounts.map((a) => a.closingCapital)).toFixed(2)).toBe(nav.netAssetValue);
    expect(ca.totals.closingCapital).toBe(nav.netAssetValue);
    expect(Object.keys(ca.totals)).toEqual([
      'openingCapital',
      'contributions',
      'redemptions',
      'pnl',
      'managementFee',
      'performanceFee',
      'closingCapital',
    ]);
  });

  it('capital activity: what each request was dealt at — units × price = amount (+ fee crystallized); nothing before its run', async () => {
    const items = (await fetch('/api/v1/fund/capital-activity?limit=1000')).json.items as {
      type: string;
      status: string;
      requestedAmount: string | null;
      dealt: { amount: string; units: string; navPerUnit: string; performanceFeeCrystallized: string } | null;
    }[];
    const dealt = items.filter((c) => c.dealt !== null);
    expect(dealt.length).toBeGreaterThan(10);
    expect(new Set(dealt.map((c) => c.type))).toEqual(new Set(['subscription', 'redemption']));
    for (const c of dealt) {
      const d = c.dealt!;
      if (c.type === 'subscription') {
        // the units were computed at the price's full precision; it is kept to 10 decimals
        const off = new Decimal(d.amount).dividedBy(d.navPerUnit).minus(d.units).abs();
        expect({ c, off: off.lte('0.00000001') }).toEqual({ c, off: true });
        expect(d.amount).toBe(c.requestedAmount);
        expect(d.performanceFeeCrystallized).toBe('0.00');
      } else {
        // the redeemed units' gross value goes to the investor, less their lots' accrued fee, which crystallizes
        const gross = new Decimal(d.units).times(d.navPerUnit);
        const paidPlusFee = new Decimal(d.amount).plus(d.performanceFeeCrystallized);
        expect({ c, off: gross.minus(paidPlusFee).abs().lte('0.02') }).toEqual({ c, off: true });
      }
    }
    expect(items.filter((c) => c.status === 'pending').every((c) => c.dealt === null)).toBe(true);
  });

  it('attribution identities hold to the cent on several dates', async () => {
    const picks = [
      attributionDates[0],
      attributionDates[150],
      '2024-03-31',
      '2024-03-10',
      '2025-06-30',
      '2025-12-31',
      attributionDates[attributionDates.length - 1],
    ];
    const flowDates = await dbOf(app).query<{ d: string }[]>(
      `SELECT to_char(dealing_date, 'YYYY-MM-DD') AS d FROM capital_activity WHERE fund_id = $1 AND status IN ('executed', 'settled') AND type = 'redemption' ORDER BY dealing_date LIMIT 2`,
      [demoId],
    );
    picks.push(...flowDates.map((r) => r.d));
    let sawFlows = false;
    for (const date of picks) {
      const res = await fetch<AttributionDto>(`/api/v1/fund/pnl/attribution?date=${date}`);
      expect({ date, status: res.status }).toEqual({ date, status: 200 });
      const a = res.json;
      expect(D(a.closingNav).minus(a.openingNav).toFixed(2)).toBe(
        D(a.totalPnl).plus(a.flows.subscriptions).minus(a.flows.redemptions).toFixed(2),
      );
      expect(D(a.totalPnl).toFixed(2)).toBe(
        sumOf(a.byAsset.map((r) => r.pnl))
          .minus(a.fees.management)
          .minus(a.fees.performance)
          .minus(a.fees.expenses)
          .toFixed(2),
      );
      for (const r of a.byAsset) {
        expect(D(r.pnl).toFixed(2)).toBe(
          D(r.closingMarketValue).minus(r.openingMarketValue).minus(r.netTrades).toFixed(2),
        );
        expect(D(r.tradingEffect).toFixed(2)).toBe(D(r.pnl).minus(r.priceEffect).toFixed(2));
      }
      if (!D(a.flows.redemptions).isZero()) sawFlows = true;
      expect(a.previousDate < a.date).toBe(true);
    }
    expect(sawFlows).toBe(true);
  });

  it('attribution: a date without a usable run is 404, the first usable run is 422', async () => {
    const none = await fetch('/api/v1/fund/pnl/attribution?date=2031-01-01');
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('not_found');
    const first = await dbOf(app).query(
      `SELECT to_char(min(valuation_date), 'YYYY-MM-DD') AS d FROM nav_runs WHERE fund_id = $1 AND status = 'complete'`,
      [demoId],
    );
    const res = await fetch(`/api/v1/fund/pnl/attribution?date=${first[0].d}`);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('unprocessable');
    expect(attributionDates[0] > first[0].d).toBe(true);
    expect(bodyOf('pnl/attribution-dates').latest).toBe(attributionDates[attributionDates.length - 1]);
  });

  it('trial balance balances, at the latest date and in the past', async () => {
    expect(bodyOf('trial-balance').balanced).toBe(true);
    expect(bodyOf('trial-balance').totalDebits).toBe(bodyOf('trial-balance').totalCredits);
    const past = await fetch('/api/v1/fund/trial-balance?asOf=2025-02-14');
    expect(past.status).toBe(200);
    expect(past.json.asOf).toBe('2025-02-14');
    expect(past.json.balanced).toBe(true);
    expect(past.json.accounts).toHaveLength(bodyOf('ledger/accounts').total);
  });

  it('VaR: 10-day = 1-day × sqrt(10); components sum to VaR exactly; both methods', async () => {
    for (const method of ['sample', 'ewma']) {
      for (const confidence of ['0.95', '0.99']) {
        const one = (
          await fetch<VarDto>(
            `/api/v1/fund/risk/var?method=${method}&confidence=${confidence}&horizonDays=1&windowDays=250`,
          )
        ).json;
        const ten = (
          await fetch<VarDto>(
            `/api/v1/fund/risk/var?method=${method}&confidence=${confidence}&horizonDays=10&windowDays=250`,
          )
        ).json;
        expect(one.method).toBe(method);
        expect(ten.portfolioVolatility).toBe(one.portfolioVolatility);
        expect(
          D(ten.valueAtRisk)
            .minus(D(one.valueAtRisk).times(new Decimal(10).sqrt()))
            .abs()
            .lte('0.02'),
        ).toBe(true);
        for (const v of [one, ten]) {
          expect(v.components.length).toBeGreaterThan(3);
          expect(sumOf(v.components.map((c) => c.componentVar)).toFixed(2)).toBe(v.valueAtRisk);
          expect(D(v.valueAtRisk).isPositive()).toBe(true);
        }
      }
    }
    const sample = (await fetch('/api/v1/fund/risk/var?method=sample&windowDays=250')).json;
    const ewma = (await fetch('/api/v1/fund/risk/var?method=ewma&windowDays=250')).json;
    expect(sample.valueAtRisk).not.toBe(ewma.valueAtRisk);
  });

  it('journal entries: exact sums over the whole window even when lines are cut by limit', async () => {
    const body = bodyOf('ledger/journal-entries');
    expect(body.lines).toHaveLength(100);
    expect(body.totals.lineCount).toBeGreaterThan(100);
    expect(body.hasMore).toBe(true);
    const sql = await dbOf(app).query(
      `SELECT count(*)::int AS n, sum(debit)::text AS d, sum(credit)::text AS c FROM journal_lines WHERE fund_id = $1 AND entry_date BETWEEN '2026-08-01' AND '2026-10-31'`,
      [demoId],
    );
    expect(body.totals).toEqual({
      lineCount: sql[0].n,
      debits: D(sql[0].d).toFixed(2),
      credits: D(sql[0].c).toFixed(2),
    });
    const small = (await fetch('/api/v1/fund/ledger/journal-entries?from=2026-08-01&to=2026-10-31&limit=1')).json;
    expect(small.lines).toHaveLength(1);
    expect(small.totals).toEqual(body.totals);
  });

  it('GL detail: opening + lines = running balance; closing covers the whole window', async () => {
    const gl = (await fetch('/api/v1/fund/ledger/gl-detail?accountCode=1000&from=2026-10-01&to=2026-10-31&limit=1000'))
      .json;
    let running = D(gl.openingBalance);
    for (const l of gl.lines) {
      running = running.plus(l.debit).minus(l.credit);
      expect(l.runningBalance).toBe(running.toFixed(2));
    }
    expect(gl.closingBalance).toBe(running.toFixed(2));
    const tb = (await fetch<TrialBalanceDto>('/api/v1/fund/trial-balance?asOf=2026-10-31')).json;
    expect(gl.hasMore).toBe(false);
    expect(tb.accounts.find((a) => a.accountCode === '1000')!.debit).toBe(gl.closingBalance);
    const cut = (await fetch('/api/v1/fund/ledger/gl-detail?accountCode=1000&from=2026-10-01&to=2026-10-31&limit=1'))
      .json;
    expect(cut.lines).toHaveLength(1);
    expect(cut.closingBalance).toBe(gl.closingBalance);
    expect((await fetch('/api/v1/fund/ledger/gl-detail?accountCode=9999')).status).toBe(404);
  });

  it('stress test applies the preset to the live positions, with fallbacks for unnamed assets', async () => {
    const s = bodyOf('risk/stress-test');
    expect(bodyOf('risk/stress-presets').items.map((p) => p.id)).toEqual(
      expect.arrayContaining(['gfc-2008', 'lehman-2008', 'covid-2020', 'luna-2022', 'ftx-2022']),
    );
    expect(sumOf(s.byAsset.map((a) => a.pnl)).toFixed(2)).toBe(s.pnl);
    expect(sumOf(s.byAsset.map((a) => a.marketValue)).toFixed(2)).toBe(bodyOf('positions').totalMarketValue);
    expect(s.byAsset.find((a) => a.asset === 'BTC')!.returnRatio).toBe('-0.50000000');
    expect(s.fallbackAssets).toEqual(s.byAsset.filter((a) => a.fallback).map((a) => a.asset));
    expect((await fetch('/api/v1/fund/risk/stress-test?preset=no-such-preset')).status).toBe(404);
  });

  it('performance is on the investor basis (lead series), not class NAV per unit; unknown class → 404', async () => {
    const p = bodyOf('performance');
    expect(p.shareClass).toBe('Class A');
    expect(p.monthly.length).toBeGreaterThan(30);
    const history = await dbOf(app).query(
      `SELECT c.nav_per_unit::text AS npu FROM nav_run_classes c JOIN nav_runs r ON r.id = c.nav_run_id JOIN share_classes sc ON sc.id = c.share_class_id
        WHERE r.fund_id = $1 AND r.status = 'complete' AND sc.name = 'Class A' ORDER BY r.valuation_date DESC LIMIT 1`,
      [demoId],
    );
    // crystallized performance fees make the investor's return lower than the class NAV per unit's (books-signoff.e2e-spec.ts checks it exactly)
    expect(D(p.returns.itd!).lt(D(history[0].npu).dividedBy(1000).minus(1))).toBe(true);
    expect(D(p.maxDrawdown!).lte(0)).toBe(true);
    expect((await fetch('/api/v1/fund/performance?shareClass=Class%20B')).json.shareClass).toBe('Class B');
    expect((await fetch('/api/v1/fund/performance?shareClass=Nope')).status).toBe(404);
  });

  it('NAV history shows failed and superseded runs; reconciliation flags breaks outside tolerance', async () => {
    const all = (await fetch<NavHistoryDto>('/api/v1/fund/nav/history?limit=1000&from=2024-01-01&to=2026-12-31')).json;
    const statuses = new Set(all.items.map((r) => r.status));
    expect(statuses.has('complete')).toBe(true);
    expect(statuses.has('superseded') || statuses.has('failed')).toBe(true);
    for (const r of all.items.filter((x) => x.status === 'failed')) expect(r.netAssetValue).toBeNull();
    const recon = bodyOf('nav/reconciliation');
    expect(recon.toleranceRatio).toBe('0.00050000');
    // the demo administrator sent every month-end the shadow NAV valued, and restated none
    expect(recon.awaitingAdministrator).toEqual([]);
    for (const r of recon.items) expect(r.restatements).toEqual([]);
    expect(recon.items.some((r) => r.withinTolerance === false)).toBe(true);
    for (const r of recon.items.filter((x) => x.shadowNav !== null)) {
      expect(r.difference).toBe(D(r.shadowNav!).minus(r.administratorNav).toFixed(2));
      expect(r.withinTolerance).toBe(D(r.differenceRatio!).abs().lte('0.0005'));
    }
    // a date without a complete run is not a break: the status says which it is
    for (const r of recon.items) {
      const expected = r.shadowNav === null ? 'not_valued' : r.withinTolerance ? 'within_tolerance' : 'break';
      expect([r.valuationDate, (r as { status?: string }).status]).toEqual([r.valuationDate, expected]);
    }
  });

  it('lists: totals count every matching record, limit cuts the page, filters apply', async () => {
    const db = dbOf(app);
    const count = async (sql: string) => (await db.query(sql, [demoId]))[0].n;
    expect(bodyOf('expenses').page.total).toBe(
      await count(`SELECT count(*)::int AS n FROM expenses WHERE fund_id = $1`),
    );
    expect(bodyOf('investors').page.total).toBe(
      await count(`SELECT count(*)::int AS n FROM investors WHERE fund_id = $1`),
    );
    expect(bodyOf('lp-reports').page.total).toBe(
      await count(`SELECT count(*)::int AS n FROM lp_reports WHERE fund_id = $1`),
    );
    expect((await fetch('/api/v1/fund/expenses?limit=3')).json.items).toHaveLength(3);
    const pending = (await fetch('/api/v1/fund/capital-activity?status=pending')).json;
    expect(pending.page.total).toBe(
      await count(`SELECT count(*)::int AS n FROM capital_activity WHERE fund_id = $1 AND status = 'pending'`),
    );
    for (const c of pending.items) expect(c.status).toBe('pending');
    const units = sumOf(bodyOf('investors').items.map((i) => i.units));
    const classUnits = sumOf(
      (await fetch<NavHistoryDto>('/api/v1/fund/nav/history?limit=1')).json.items[0].shareClasses.map((c) => c.units),
    );
    expect(units.toFixed(8)).toBe(classUnits.toFixed(8));
  });

  it('never lets investor PII leave: no email, legal name, postal address or tax id in any response', async () => {
    const pii = await dbOf(app).query<{ email: string; legal_name: string; postal_address: string; tax_id: string }[]>(
      `SELECT email, legal_name, postal_address, tax_id FROM investors WHERE fund_id = $1`,
      [demoId],
    );
    expect(pii.length).toBeGreaterThan(10);
    const markers = pii
      .flatMap((r) => [r.email, r.legal_name, r.postal_address, r.tax_id])
      .filter((m: string) => m.length >= 6);
    const text = raw.join('\n');
    expect(text.length).toBeGreaterThan(10_000);
    const found = markers.filter((m: string) => text.includes(m));
    expect(found).toEqual([]);
    expect(text).not.toMatch(/@[a-z0-9-]+\.(com|net|org|example)/i);
  });

  it('refuses keys without a fund, without fund:read, and requests without a key', async () => {
    const noFund = await mintKey(app, { scopes: ['fund:read'], fund: null });
    const noScope = await mintKey(app, { scopes: ['fund:propose'], fund: DEMO_SLUG });
    for (const url of ['/api/v1/fund/overview', '/api/v1/fund/trades', '/api/v1/fund/capital-accounts']) {
      const a = await call(app, 'GET', url, { key: noFund.key });
      expect(a.status).toBe(403);
      expect(a.json.code).toBe('insufficient_scope'); // a key without a fund holds no fund scope, whatever it stored
      const b = await call(app, 'GET', url, { key: noScope.key });
      expect(b.status).toBe(403);
      expect(b.json.code).toBe('insufficient_scope');
      expect((await call(app, 'GET', url)).status).toBe(401);
    }
  });

  it('redaction at the edge: undeclared members are dropped, a value that does not fit answers 500 without data', async () => {
    const service = app.get(InvestorsService);
    const declared = {
      investorId: '00000000-0000-4000-8000-000000000001',
      displayName: 'Investor 001',
      status: 'active',
      investorType: 'institution',
      openLots: 1,
      units: '1.00000000',
    };
    const page = { total: 1, nextCursor: null, hasMore: false };
    const spy = jest.spyOn(service, 'investors').mockResolvedValueOnce({
      items: [{ ...declared, email: 'leak@example.com', legalName: 'Leaky Legal Name LLC', taxId: '999-99-9999' }],
      page,
      apiSecret: 'should-not-leave',
    } as never);
    const dropped = await get(app, '/api/v1/fund/investors', key);
    expect(dropped.status).toBe(200);
    expect(dropped.json).toEqual({ items: [declared], page });
    expect(dropped.body).not.toMatch(/leak@example|Leaky|999-99|should-not-leave/);

    spy.mockResolvedValueOnce({
      items: [{ investorId: { email: 'leak@example.com' } }],
      page,
    } as never);
    const failed = await get(app, '/api/v1/fund/investors', key);
    expect(failed.status).toBe(500);
    expect(failed.json.code).toBe('internal');
    expect(failed.body).not.toContain('leak@example');
    spy.mockRestore();
  });
});
