import { Decimal, ZERO, sum } from '../money';
import { allocateToClasses } from './day-classes';
import { accrueExpenses, bookTradesAndTransfers, payDues, valueAtCloses } from './day-books';
import { closeCapitalAccounts, refreshLotResults } from './day-close';
import { type DayContext, DayFailed, openDay } from './day-context';
import { dealFlows } from './day-flows';
import type {
  AssetResult,
  ClassResult,
  DayInputs,
  DayOutcome,
  EngineState,
  FundTerms,
  PositionResult,
} from './engine-types';

/**
 * Values the fund for one calendar day, from the previous day's checkpoint and the day's raw
 * events. Pure: no I/O, the input state is not modified. Order within the day: payments due,
 * trades, transfers, valuation at the day's closes, expense accruals, class allocation of the
 * day's P&L, management fee, performance fee per lot (crystallizing at period end), then
 * redemptions and subscriptions dealt at the day's gross NAV per unit.
 */
export function valueDay(
  terms: FundTerms,
  previous: EngineState,
  day: DayInputs,
  cashSymbol = terms.baseCurrency,
): DayOutcome {
  try {
    return valueDayOrThrow(terms, previous, day, cashSymbol);
  } catch (err) {
    if (err instanceof DayFailed) return { ok: false, date: day.date, reason: err.message };
    throw err;
  }
}

function valueDayOrThrow(terms: FundTerms, previous: EngineState, day: DayInputs, cashSymbol: string): DayOutcome {
  const ctx = openDay(terms, previous, day, cashSymbol);
  const { state, date } = ctx;
  payDues(ctx); // 1
  const trading = bookTradesAndTransfers(ctx); // 2
  const valuation = valueAtCloses(ctx, trading.netTrades); // 3
  const expenses = accrueExpenses(ctx); // 4
  const investmentPnl = trading.realized
    .minus(trading.tradingFees)
    .plus(valuation.unrealizedChange)
    .plus(valuation.stableChange)
    .plus(day.manualPnl);
  const allocation = allocateToClasses(ctx, investmentPnl, expenses); // 5
  const dealt = dealFlows(ctx, allocation); // 6
  refreshLotResults(ctx, allocation);
  const nav = sum([...state.classes.values()].map((c) => c.nav));
  const capitalAccounts = closeCapitalAccounts(ctx, nav, allocation, dealt); // 7
  const totalLiabilities = checkBooksAgreeWithClasses(ctx, valuation.positions, nav).plus(valuation.shortMarketValue);
  const classes = allocation.classResults;
  const classTotal = (f: (r: ClassResult) => Decimal) => sum(classes.map(f));
  state.valuationDate = date;
  return {
    ok: true,
    date,
    state,
    entries: ctx.entries,
    summary: {
      openingNav: ctx.openingNav,
      grossAssetValue: nav.plus(totalLiabilities),
      totalLiabilities,
      nav,
      investmentPnl,
      expenses,
      managementFee: classTotal((r) => r.managementFee),
      performanceFee: classTotal((r) => r.performanceFee),
      subscriptions: classTotal((r) => r.subscriptions),
      redemptions: classTotal((r) => r.redemptions),
    },
    classes,
    capitalAccounts,
    lots: [...allocation.lotResults.values()],
    newLots: dealt.newLots,
    positions: finalPositions(state, valuation.positions, cashSymbol),
    assets: assetResults(valuation.positions, trading.netTrades, trading.realizedBySymbol, day.prices, cashSymbol),
    flows: dealt.flowResults,
  };
}

/** Safety net: the position book and the liabilities must give the same NAV as the classes. Answers the liabilities (shorts aside). */
function checkBooksAgreeWithClasses(ctx: DayContext, positions: PositionResult[], nav: Decimal): Decimal {
  const { state } = ctx;
  const perfPayable = sum(state.lots.map((l) => l.accrued)).plus(
    sum([...state.classes.values()].map((c) => c.perfCrystallizedUnpaid)),
  );
  const mgmtPayable = sum([...state.classes.values()].map((c) => c.mgmtPayable));
  const redemptionsPayable = sum(state.redemptionPayables.map((r) => r.amount));
  const liabilitiesExShort = perfPayable.plus(mgmtPayable).plus(state.accruedExpenses).plus(redemptionsPayable);
  const bookNav = sum(positionsAfterFlows(state, positions, ctx.cashSymbol))
    .plus(state.otherNetAssets)
    .minus(liabilitiesExShort);
  if (!bookNav.equals(nav)) {
    throw new Error(
      `NAV engine invariant broken on ${ctx.date}: book ${bookNav.toFixed(2)} ≠ classes ${nav.toFixed(2)}`,
    );
  }
  return liabilitiesExShort;
}

/** Market values after the day's flows moved cash at the bank connection. */
function positionsAfterFlows(state: EngineState, valued: PositionResult[], cashSymbol: string): Decimal[] {
  return finalPositions(state, valued, cashSymbol).map((p) => p.marketValue);
}

function finalPositions(state: EngineState, valued: PositionResult[], cashSymbol: string): PositionResult[] {
  const byKey = new Map(valued.map((p) => [`${p.connection}|${p.symbol}`, p]));
  const out: PositionResult[] = [];
  for (const p of state.positions.values()) {
    if (p.symbol === cashSymbol) {
      if (p.quantity.isZero()) continue;
      out.push({
        connection: p.connection,
        symbol: p.symbol,
        quantity: p.quantity,
        cost: p.quantity,
        price: new Decimal(1),
        marketValue: p.quantity,
      });
    } else if (!p.quantity.isZero() || !p.cost.isZero()) {
      out.push(byKey.get(`${p.connection}|${p.symbol}`)!);
    }
  }
  return out.sort((a, b) =>
    a.connection === b.connection ? (a.symbol < b.symbol ? -1 : 1) : a.connection < b.connection ? -1 : 1,
  );
}

function assetResults(
  positions: PositionResult[],
  netTrades: Map<string, Decimal>,
  realized: Map<string, Decimal>,
  prices: Map<string, Decimal>,
  cashSymbol: string,
): AssetResult[] {
  const bySymbol = new Map<string, AssetResult>();
  for (const p of positions) {
    if (p.symbol === cashSymbol) continue;
    const a = bySymbol.get(p.symbol) ?? {
      symbol: p.symbol,
      quantity: ZERO,
      price: p.price,
      marketValue: ZERO,
      netTrades: ZERO,
      realizedPnl: ZERO,
    };
    a.quantity = a.quantity.plus(p.quantity);
    a.marketValue = a.marketValue.plus(p.marketValue);
    bySymbol.set(p.symbol, a);
  }
  for (const [symbol, amount] of netTrades) {
    const a = bySymbol.get(symbol) ?? {
      symbol,
      quantity: ZERO,
      price: prices.get(symbol)!,
      marketValue: ZERO,
      netTrades: ZERO,
      realizedPnl: ZERO,
    };
    a.netTrades = amount;
    a.realizedPnl = realized.get(symbol) ?? ZERO;
    bySymbol.set(symbol, a);
  }
  return [...bySymbol.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
}
