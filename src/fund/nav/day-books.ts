import { EXPENSE_ACCOUNT_BY_CATEGORY, ACCOUNTS } from '../ledger/chart-of-accounts';
import { EntryBuilder, type EntrySource } from '../ledger/journal-entry';
import { Decimal, ZERO, toCents } from '../money';
import { applyTransfer, postTrade } from '../portfolio/position-book';
import { type DayContext, DayFailed, className, connectionTerms, push } from './day-context';
import type { PositionResult } from './engine-types';

/** Step 1. Payments due today, from yesterday's balances. */
export function payDues(ctx: DayContext): void {
  const { date, state, book, bank, bankAccount, terms } = ctx;
  const pay = (
    kind: EntrySource,
    ref: string | null,
    text: string,
    payable: string,
    amount: Decimal,
    classId?: string,
  ) => {
    push(
      ctx,
      new EntryBuilder(date, kind, ref, text)
        .post(payable, amount, undefined, classId)
        .post(bankAccount, amount.negated())
        .build(),
    );
    book.moveCash(bank, amount.negated());
  };
  if (date.endsWith('-01')) {
    for (const c of state.classes.values()) {
      if (c.mgmtPayable.isZero()) continue;
      pay(
        'management_fee_payment',
        null,
        `management fee paid (${className(terms, c.classId)})`,
        ACCOUNTS.managementFeePayable,
        c.mgmtPayable,
        c.classId,
      );
      c.mgmtPayable = ZERO;
    }
  }
  for (const c of state.classes.values()) {
    if (c.perfCrystallizedUnpaid.isZero()) continue;
    pay(
      'performance_fee_payment',
      null,
      `crystallized performance fee paid (${className(terms, c.classId)})`,
      ACCOUNTS.performanceFeePayable,
      c.perfCrystallizedUnpaid,
      c.classId,
    );
    c.perfCrystallizedUnpaid = ZERO;
  }
  const stillPayable = [];
  for (const r of state.redemptionPayables) {
    if (r.payDate > date) {
      stillPayable.push(r);
      continue;
    }
    pay('redemption_payment', r.ref, `redemption ${r.ref} paid`, ACCOUNTS.redemptionsPayable, r.amount);
  }
  state.redemptionPayables = stillPayable;
  for (const e of ctx.day.expenses) {
    if (e.payment.isZero()) continue;
    pay('expense_payment', e.ref, `paid: ${e.description}`, ACCOUNTS.accruedExpenses, e.payment);
    state.accruedExpenses = state.accruedExpenses.minus(e.payment);
  }
}

export interface TradingResult {
  realized: Decimal;
  tradingFees: Decimal;
  netTrades: Map<string, Decimal>;
  realizedBySymbol: Map<string, Decimal>;
}

/** Step 2. Trades and transfers of live connections (paper connections never reach the books). */
export function bookTradesAndTransfers(ctx: DayContext): TradingResult {
  const { terms, book, date, day } = ctx;
  const result: TradingResult = {
    realized: ZERO,
    tradingFees: ZERO,
    netTrades: new Map(),
    realizedBySymbol: new Map(),
  };
  for (const t of day.trades) {
    const conn = connectionTerms(terms, t.connection);
    if (conn.mode !== 'live') continue;
    const posting = postTrade(book, t, conn, date, terms.stablecoins);
    ctx.entries.push(posting.entry);
    result.realized = result.realized.plus(posting.realized);
    result.tradingFees = result.tradingFees.plus(posting.fee);
    result.netTrades.set(t.symbol, (result.netTrades.get(t.symbol) ?? ZERO).plus(posting.netTrade));
    result.realizedBySymbol.set(t.symbol, (result.realizedBySymbol.get(t.symbol) ?? ZERO).plus(posting.realized));
  }
  for (const tr of day.transfers) {
    const from = connectionTerms(terms, tr.fromConnection);
    const to = connectionTerms(terms, tr.toConnection);
    if (from.mode !== 'live' && to.mode !== 'live') continue;
    if (from.mode !== to.mode) throw new DayFailed(`transfer ${tr.ref} moves between a live and a paper connection`);
    push(ctx, applyTransfer(book, tr, from, to, ctx.cashSymbol, date));
  }
  return result;
}

export interface Valuation {
  positions: PositionResult[];
  unrealizedChange: Decimal;
  stableChange: Decimal;
  shortMarketValue: Decimal;
}

/** Step 3. Valuation at today's closes; a held asset without a close fails the run. */
export function valueAtCloses(ctx: DayContext, netTrades: Map<string, Decimal>): Valuation {
  const { state, day, date, cashSymbol, terms } = ctx;
  const positions: PositionResult[] = [];
  let unrealized = ZERO;
  let stableUnrealized = ZERO;
  let shortMarketValue = ZERO;
  for (const [key, p] of state.positions) {
    if (p.quantity.isZero() && p.cost.isZero()) {
      state.positions.delete(key);
      continue;
    }
    const isCash = p.symbol === cashSymbol;
    let price = new Decimal(1);
    if (!isCash) {
      const close = day.prices.get(p.symbol);
      if (!close) throw new DayFailed(`missing price for ${p.symbol} on ${date}`);
      price = close;
    }
    const marketValue = isCash ? p.quantity : toCents(p.quantity.times(price));
    if (terms.stablecoins.has(p.symbol)) stableUnrealized = stableUnrealized.plus(marketValue.minus(p.cost));
    else if (!isCash) unrealized = unrealized.plus(marketValue.minus(p.cost));
    if (!isCash && marketValue.isNegative()) shortMarketValue = shortMarketValue.plus(marketValue.negated());
    positions.push({
      connection: p.connection,
      symbol: p.symbol,
      quantity: p.quantity,
      cost: p.cost,
      price,
      marketValue,
    });
  }
  for (const symbol of netTrades.keys()) {
    if (!day.prices.has(symbol)) throw new DayFailed(`missing price for ${symbol} on ${date}`);
  }
  positions.sort((a, b) => (a.connection + '|' + a.symbol < b.connection + '|' + b.symbol ? -1 : 1));
  const unrealizedChange = unrealized.minus(state.unrealized);
  push(
    ctx,
    new EntryBuilder(date, 'mark_to_market', null, `mark to market at ${date} closes`)
      .post(ACCOUNTS.unrealizedAppreciation, unrealizedChange)
      .post(ACCOUNTS.changeInUnrealized, unrealizedChange.negated())
      .build(),
  );
  state.unrealized = unrealized;
  // Stablecoins sit with cash in 1100: their price effect (a de-peg) is booked there, not in 1250.
  const stableChange = stableUnrealized.minus(state.stableUnrealized);
  push(
    ctx,
    new EntryBuilder(date, 'mark_to_market', null, `stablecoin price effect at ${date} closes`)
      .post(ACCOUNTS.cashAtVenues, stableChange)
      .post(ACCOUNTS.changeInUnrealized, stableChange.negated())
      .build(),
  );
  state.stableUnrealized = stableUnrealized;
  return { positions, unrealizedChange, stableChange, shortMarketValue };
}

/** Step 4. Expense accruals (and the day's manual P&L into other net assets); answers the day's expenses. */
export function accrueExpenses(ctx: DayContext): Decimal {
  const { state, day, date } = ctx;
  let expenses = ZERO;
  for (const e of day.expenses) {
    if (e.accrual.isZero()) continue;
    const account = EXPENSE_ACCOUNT_BY_CATEGORY[e.category] ?? ACCOUNTS.otherExpenses;
    push(
      ctx,
      new EntryBuilder(date, 'expense_accrual', e.ref, `accrued: ${e.description}`)
        .post(account, e.accrual)
        .post(ACCOUNTS.accruedExpenses, e.accrual.negated())
        .build(),
    );
    expenses = expenses.plus(e.accrual);
  }
  state.accruedExpenses = state.accruedExpenses.plus(expenses);
  state.otherNetAssets = state.otherNetAssets.plus(day.manualPnl);
  return expenses;
}
