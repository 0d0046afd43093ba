import { addDays, isPeriodEnd } from '../dates';
import { uuidFromKey } from '../ids';
import { ACCOUNTS, EXPENSE_ACCOUNT_BY_CATEGORY } from '../ledger/chart-of-accounts';
import { EntryBuilder, JournalEntryDraft } from '../ledger/journal-entry';
import { Decimal, ZERO, allocateCents, toCents, toUnits } from '../money';
import { PositionBook, applyTransfer, postTrade } from '../portfolio/position-book';
import { cloneState } from './engine-state';
import {
  AssetResult, CapitalAccountResult, ClassResult, ClassState, DayInputs, DayOutcome, EngineState, FlowResult, FundTerms,
  LotResult, LotState, PositionResult, ShareClassTerms,
} from './engine-types';
import { lotPerformanceFee, managementFeeAccrual } from './fees';

const investorKey = (investorId: string, classId: string) => `${investorId}|${classId}`;
const sum = (values: Decimal[]) => values.reduce((a, v) => a.plus(v), ZERO);

class DayFailed extends Error {}

/**
 * Values the fund for one calendar day, from the previous day's checkpoint and the day's raw
 * events. Pure: no I/O, the input state is not modified. Order within the day: payments due,
 * trades, transfers, valuation at the day's closes, expense accruals, class allocation of the
 * day's P&L, management fee, performance fee per lot (crystallizing at period end), then
 * redemptions and subscriptions dealt at the day's gross NAV per unit.
 */
export function valueDay(terms: FundTerms, previous: EngineState, day: DayInputs, cashSymbol = terms.baseCurrency): DayOutcome {
  try {
    return valueDayOrThrow(terms, previous, day, cashSymbol);
  } catch (err) {
    if (err instanceof DayFailed) return { ok: false, date: day.date, reason: err.message };
    throw err;
  }
}

function valueDayOrThrow(terms: FundTerms, previous: EngineState, day: DayInputs, cashSymbol: string): DayOutcome {
  const date = day.date;
  if (previous.valuationDate !== null && addDays(previous.valuationDate, 1) !== date) {
    throw new DayFailed(`the previous complete run is for ${previous.valuationDate}; ${date} must follow it directly`);
  }
  const state = cloneState(previous);
  const entries: JournalEntryDraft[] = [];
  const book = new PositionBook(state.positions, cashSymbol);
  const bank = terms.cashConnection;
  const bankTerms = connectionTerms(terms, bank);
  const bankAccount = bankTerms.sourceType === 'bank' ? ACCOUNTS.cashAtBank : ACCOUNTS.cashAtVenues;
  const push = (e: JournalEntryDraft | null) => { if (e) entries.push(e); };
  const openingNavByClass = new Map([...state.classes.values()].map((c) => [c.classId, c.nav]));
  const openingNav = sum([...openingNavByClass.values()]);
  const openingAccrued = new Map(state.lots.map((l) => [l.lotId, l.accrued]));
  const openingCapital = new Map(state.investorCapital);

  // 1. Payments due today, from yesterday's balances.
  if (date.endsWith('-01')) {
    for (const c of state.classes.values()) {
      if (c.mgmtPayable.isZero()) continue;
      push(new EntryBuilder(date, 'management_fee_payment', null, `management fee paid (${className(terms, c.classId)})`)
        .post(ACCOUNTS.managementFeePayable, c.mgmtPayable, undefined, c.classId)
        .post(bankAccount, c.mgmtPayable.negated())
        .build());
      book.moveCash(bank, c.mgmtPayable.negated());
      c.mgmtPayable = ZERO;
    }
  }
  for (const c of state.classes.values()) {
    if (c.perfCrystallizedUnpaid.isZero()) continue;
    push(new EntryBuilder(date, 'performance_fee_payment', null, `crystallized performance fee paid (${className(terms, c.classId)})`)
      .post(ACCOUNTS.performanceFeePayable, c.perfCrystallizedUnpaid, undefined, c.classId)
      .post(bankAccount, c.perfCrystallizedUnpaid.negated())
      .build());
    book.moveCash(bank, c.perfCrystallizedUnpaid.negated());
    c.perfCrystallizedUnpaid = ZERO;
  }
  const stillPayable = [];
  for (const r of state.redemptionPayables) {
    if (r.payDate > date) { stillPayable.push(r); continue; }
    push(new EntryBuilder(date, 'redemption_payment', r.ref, `redemption ${r.ref} paid`)
      .post(ACCOUNTS.redemptionsPayable, r.amount)
      .post(bankAccount, r.amount.negated())
      .build());
    book.moveCash(bank, r.amount.negated());
  }
  state.redemptionPayables = stillPayable;
  for (const e of day.expenses) {
    if (e.payment.isZero()) continue;
    push(new EntryBuilder(date, 'expense_payment', e.ref, `paid: ${e.description}`)
      .post(ACCOUNTS.accruedExpenses, e.payment)
      .post(bankAccount, e.payment.negated())
      .build());
    book.moveCash(bank, e.payment.negated());
    state.accruedExpenses = state.accruedExpenses.minus(e.payment);
  }

  // 2. Trades and transfers of live connections (paper connections never reach the books).
  let realized = ZERO;
  let tradingFees = ZERO;
  const netTrades = new Map<string, Decimal>();
  const realizedBySymbol = new Map<string, Decimal>();
  for (const t of day.trades) {
    const conn = connectionTerms(terms, t.connection);
    if (conn.mode !== 'live') continue;
    const posting = postTrade(book, t, conn, date, terms.stablecoins);
    entries.push(posting.entry);
    realized = realized.plus(posting.realized);
    tradingFees = tradingFees.plus(posting.fee);
    netTrades.set(t.symbol, (netTrades.get(t.symbol) ?? ZERO).plus(posting.netTrade));
    realizedBySymbol.set(t.symbol, (realizedBySymbol.get(t.symbol) ?? ZERO).plus(posting.realized));
  }
  for (const tr of day.transfers) {
    const from = connectionTerms(terms, tr.fromConnection);
    const to = connectionTerms(terms, tr.toConnection);
    if (from.mode !== 'live' && to.mode !== 'live') continue;
    if (from.mode !== to.mode) throw new DayFailed(`transfer ${tr.ref} moves between a live and a paper connection`);
    push(applyTransfer(book, tr, from, to, cashSymbol, date));
  }

  // 3. Valuation at today's closes; a held asset without a close fails the run.
  const positions: PositionResult[] = [];
  let unrealized = ZERO;
  let stableUnrealized = ZERO;
  let marketValueTotal = ZERO;
  let shortMarketValue = ZERO;
  for (const [key, p] of state.positions) {
    if (p.quantity.isZero() && p.cost.isZero()) { state.positions.delete(key); continue; }
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
    marketValueTotal = marketValueTotal.plus(marketValue);
    positions.push({ connection: p.connection, symbol: p.symbol, quantity: p.quantity, cost: p.cost, price, marketValue });
  }
  for (const symbol of netTrades.keys()) {
    if (!day.prices.has(symbol)) throw new DayFailed(`missing price for ${symbol} on ${date}`);
  }
  positions.sort((a, b) => (a.connection + '|' + a.symbol < b.connection + '|' + b.symbol ? -1 : 1));
  const unrealizedChange = unrealized.minus(state.unrealized);
  push(new EntryBuilder(date, 'mark_to_market', null, `mark to market at ${date} closes`)
    .post(ACCOUNTS.unrealizedAppreciation, unrealizedChange)
    .post(ACCOUNTS.changeInUnrealized, unrealizedChange.negated())
    .build());
  state.unrealized = unrealized;
  // Stablecoins sit with cash in 1100: their price effect (a de-peg) is booked there, not in 1250.
  const stableChange = stableUnrealized.minus(state.stableUnrealized);
  push(new EntryBuilder(date, 'mark_to_market', null, `stablecoin price effect at ${date} closes`)
    .post(ACCOUNTS.cashAtVenues, stableChange)
    .post(ACCOUNTS.changeInUnrealized, stableChange.negated())
    .build());
  state.stableUnrealized = stableUnrealized;

  // 4. Expense accruals.
  let expenses = ZERO;
  for (const e of day.expenses) {
    if (e.accrual.isZero()) continue;
    const account = EXPENSE_ACCOUNT_BY_CATEGORY[e.category] ?? ACCOUNTS.otherExpenses;
    push(new EntryBuilder(date, 'expense_accrual', e.ref, `accrued: ${e.description}`)
      .post(account, e.accrual)
      .post(ACCOUNTS.accruedExpenses, e.accrual.negated())
      .build());
    expenses = expenses.plus(e.accrual);
  }
  state.accruedExpenses = state.accruedExpenses.plus(expenses);
  state.otherNetAssets = state.otherNetAssets.plus(day.manualPnl);

  // 5. Class allocation of the day's P&L and expenses, pro-rata to capital at the start of the day.
  const investmentPnl = realized.minus(tradingFees).plus(unrealizedChange).plus(stableChange).plus(day.manualPnl);
  const classIds = terms.classes.map((c) => c.id);
  const weights = classIds.map((id) => openingNavByClass.get(id) ?? ZERO);
  if (openingNav.lte(0) && !(investmentPnl.isZero() && expenses.isZero())) {
    throw new DayFailed(`P&L or expenses on ${date} but the fund has no capital at the start of the day`);
  }
  const pnlShares = allocateCents(investmentPnl, weights);
  const expenseShares = allocateCents(expenses, weights);

  const classResults: ClassResult[] = [];
  const lotResults = new Map<string, LotResult>();
  const grossNavPerUnit = new Map<string, Decimal>();
  for (const [i, terms_] of terms.classes.entries()) {
    const c = classState(state, terms_.id);
    const opening = openingNavByClass.get(terms_.id) ?? ZERO;
    const mgmtFee = managementFeeAccrual(terms_.mgmtFeeAnnualRate, opening, terms_.feeExempt);
    const lots = state.lots.filter((l) => l.classId === terms_.id && l.units.gt(0));
    const accruedBefore = sum(lots.map((l) => l.accrued));
    const gross = opening.plus(accruedBefore).plus(pnlShares[i]).minus(expenseShares[i]).minus(mgmtFee);
    const gnav = c.units.gt(0) ? gross.dividedBy(c.units) : terms_.initialNavPerUnit;
    grossNavPerUnit.set(terms_.id, gnav);
    if (!mgmtFee.isZero()) {
      push(new EntryBuilder(date, 'management_fee', null, `management fee accrual (${terms_.name})`)
        .post(ACCOUNTS.managementFees, mgmtFee, undefined, terms_.id)
        .post(ACCOUNTS.managementFeePayable, mgmtFee.negated(), undefined, terms_.id)
        .build());
    }
    c.mgmtPayable = c.mgmtPayable.plus(mgmtFee);

    // Performance fee per lot (series), then crystallization at the end of the class period.
    const periodEnd = isPeriodEnd(date, terms_.crystallizationFrequency);
    let crystallized = ZERO;
    for (const lot of lots) {
      lot.accrued = lotPerformanceFee({
        perfFeeRate: terms_.perfFeeRate, hurdleAnnualRate: terms_.hurdleAnnualRate, feeExempt: terms_.feeExempt,
        grossNavPerUnit: gnav, hwmPerUnit: lot.hwmPerUnit, hwmDate: lot.hwmDate, units: lot.units, date,
      });
      const result: LotResult = { lotId: lot.lotId, units: lot.units, hwmPerUnit: lot.hwmPerUnit, hwmDate: lot.hwmDate, accrued: lot.accrued, crystallized: ZERO, unitsCancelled: ZERO };
      if (periodEnd && lot.accrued.gt(0)) {
        const cancelled = toUnits(lot.accrued.dividedBy(gnav));
        result.crystallized = lot.accrued;
        result.unitsCancelled = cancelled;
        crystallized = crystallized.plus(lot.accrued);
        lot.units = lot.units.minus(cancelled);
        c.units = c.units.minus(cancelled);
        lot.hwmPerUnit = gnav.toDecimalPlaces(10);
        lot.hwmDate = date;
        lot.accrued = ZERO;
      }
      lotResults.set(lot.lotId, result);
    }
    const accruedAfter = sum(lots.map((l) => l.accrued));
    const perfFee = accruedAfter.plus(crystallized).minus(accruedBefore);
    if (!perfFee.isZero()) {
      push(new EntryBuilder(date, 'performance_fee', null, `performance fee accrual (${terms_.name})`)
        .post(ACCOUNTS.performanceFees, perfFee, undefined, terms_.id)
        .post(ACCOUNTS.performanceFeePayable, perfFee.negated(), undefined, terms_.id)
        .build());
    }
    c.perfCrystallizedUnpaid = c.perfCrystallizedUnpaid.plus(crystallized);
    c.nav = gross.minus(accruedAfter).minus(crystallized);
    classResults.push({
      classId: terms_.id, openingNav: opening, pnl: pnlShares[i], expenses: expenseShares[i], managementFee: mgmtFee,
      performanceFee: perfFee, performanceFeeCrystallized: crystallized, subscriptions: ZERO, redemptions: ZERO,
      nav: c.nav, units: c.units, navPerUnit: null, grossNavPerUnit: gnav,
    });
  }

  // 6. Capital flows dealt today: redemptions first (at the investor's net value), then subscriptions at GNAV.
  const flowResults: FlowResult[] = [];
  const newLots: LotState[] = [];
  const contributions = new Map<string, Decimal>();
  const redemptionsPaid = new Map<string, Decimal>();
  const flowPerfFee = new Map<string, Decimal>();
  const ordered = [...day.flows].sort((a, b) => (a.type === b.type ? (a.ref < b.ref ? -1 : 1) : a.type === 'redemption' ? -1 : 1));
  for (const flow of ordered) {
    const cTerms = terms.classes.find((c) => c.id === flow.classId);
    if (!cTerms) throw new DayFailed(`capital activity ${flow.ref} names an unknown share class`);
    const c = classState(state, flow.classId);
    const result = classResults.find((r) => r.classId === flow.classId)!;
    const gnav = grossNavPerUnit.get(flow.classId)!;
    const key = investorKey(flow.investorId, flow.classId);
    if (flow.type === 'redemption') {
      const lots = state.lots.filter((l) => l.classId === flow.classId && l.investorId === flow.investorId && l.units.gt(0));
      const lotValues = allocateLotValues(state.lots.filter((l) => l.classId === flow.classId && l.units.gt(0)), c.nav, gnav);
      const value = sum(lots.map((l) => lotValues.get(l.lotId)!));
      if (lots.length === 0 || value.lte(0)) {
        flowResults.push({ flowId: flow.flowId, outcome: 'failed', amount: ZERO, units: ZERO, navPerUnit: gnav, performanceFeeCrystallized: ZERO });
        continue;
      }
      const full = flow.fraction ? flow.fraction.gte(1) : flow.amount!.gte(value);
      const fraction = full ? new Decimal(1) : flow.fraction ?? flow.amount!.dividedBy(value);
      const paid = full ? value : flow.fraction ? toCents(fraction.times(value)) : flow.amount!;
      let unitsOut = ZERO;
      let feeOut = ZERO;
      for (const lot of lots) {
        const fee = full ? lot.accrued : toCents(lot.accrued.times(fraction));
        const units = full ? lot.units : toUnits(lot.units.times(fraction));
        const lr = lotResults.get(lot.lotId)!;
        lr.crystallized = lr.crystallized.plus(fee);
        lr.unitsCancelled = lr.unitsCancelled.plus(gnav.gt(0) ? toUnits(fee.dividedBy(gnav)) : ZERO);
        lot.accrued = lot.accrued.minus(fee);
        lot.units = lot.units.minus(units);
        if (full) { lot.hwmPerUnit = gnav.toDecimalPlaces(10); lot.hwmDate = date; }
        unitsOut = unitsOut.plus(units);
        feeOut = feeOut.plus(fee);
      }
      c.units = c.units.minus(unitsOut);
      c.nav = c.nav.minus(paid);
      c.perfCrystallizedUnpaid = c.perfCrystallizedUnpaid.plus(feeOut);
      result.performanceFeeCrystallized = result.performanceFeeCrystallized.plus(feeOut);
      result.redemptions = result.redemptions.plus(paid);
      redemptionsPaid.set(key, (redemptionsPaid.get(key) ?? ZERO).plus(paid));
      flowPerfFee.set(key, (flowPerfFee.get(key) ?? ZERO).plus(feeOut));
      state.redemptionPayables.push({ flowId: flow.flowId, ref: flow.ref, amount: paid, payDate: addDays(date, terms.settlementDays) });
      push(new EntryBuilder(date, 'redemption', flow.ref, `redemption ${flow.ref} (${cTerms.name})`)
        .post(ACCOUNTS.capitalRedemptions, paid, undefined, flow.classId)
        .post(ACCOUNTS.redemptionsPayable, paid.negated(), undefined, flow.classId)
        .build());
      flowResults.push({ flowId: flow.flowId, outcome: 'executed', amount: paid, units: unitsOut, navPerUnit: gnav, performanceFeeCrystallized: feeOut });
    } else {
      const amount = flow.amount!;
      const price = c.units.gt(0) ? gnav : cTerms.initialNavPerUnit;
      const units = toUnits(amount.dividedBy(price));
      const lot: LotState = {
        lotId: uuidFromKey(`${terms.fundId}:lot:${flow.flowId}`), flowId: flow.flowId, investorId: flow.investorId,
        classId: flow.classId, issueDate: date, issueNavPerUnit: price.toDecimalPlaces(10), unitsIssued: units, units,
        hwmPerUnit: price.toDecimalPlaces(10), hwmDate: date, accrued: ZERO,
      };
      state.lots.push(lot);
      newLots.push(lot);
      if (c.units.isZero()) grossNavPerUnit.set(flow.classId, price);
      c.units = c.units.plus(units);
      c.nav = c.nav.plus(amount);
      result.subscriptions = result.subscriptions.plus(amount);
      contributions.set(key, (contributions.get(key) ?? ZERO).plus(amount));
      book.moveCash(bank, amount);
      push(new EntryBuilder(date, 'subscription', flow.ref, `subscription ${flow.ref} (${cTerms.name})`)
        .post(bankAccount, amount)
        .post(ACCOUNTS.capitalContributions, amount.negated(), undefined, flow.classId)
        .build());
      lotResults.set(lot.lotId, { lotId: lot.lotId, units, hwmPerUnit: lot.hwmPerUnit, hwmDate: date, accrued: ZERO, crystallized: ZERO, unitsCancelled: ZERO });
      flowResults.push({ flowId: flow.flowId, outcome: 'executed', amount, units, navPerUnit: price, performanceFeeCrystallized: ZERO });
    }
  }
  state.lots = state.lots.filter((l) => l.units.gt(0) || l.accrued.gt(0));
  const lotsById = new Map(state.lots.map((l) => [l.lotId, l]));
  const previousLotsById = new Map(previous.lots.map((l) => [l.lotId, l]));
  for (const lr of lotResults.values()) {
    const lot = lotsById.get(lr.lotId);
    lr.units = lot ? lot.units : ZERO;
    lr.hwmPerUnit = lot ? lot.hwmPerUnit : lr.hwmPerUnit;
    lr.hwmDate = lot ? lot.hwmDate : lr.hwmDate;
    lr.accrued = lot ? lot.accrued : ZERO;
  }

  // 7. Close: class NAV per unit, investor capital accounts (closing capital sums to NAV exactly).
  const nav = sum([...state.classes.values()].map((c) => c.nav));
  const capitalAccounts: CapitalAccountResult[] = [];
  state.investorCapital = new Map();
  for (const r of classResults) {
    const c = classState(state, r.classId);
    r.nav = c.nav;
    r.units = c.units;
    r.navPerUnit = c.units.gt(0) ? c.nav.dividedBy(c.units).toDecimalPlaces(6) : null;
    const gnav = grossNavPerUnit.get(r.classId)!;
    const lots = state.lots.filter((l) => l.classId === r.classId && l.units.gt(0));
    const lotValues = allocateLotValues(lots, c.nav, gnav);
    const investors = new Map<string, { closing: Decimal; units: Decimal; perf: Decimal }>();
    for (const lot of lots) {
      const acc = investors.get(lot.investorId) ?? { closing: ZERO, units: ZERO, perf: ZERO };
      acc.closing = acc.closing.plus(lotValues.get(lot.lotId)!);
      acc.units = acc.units.plus(lot.units);
      investors.set(lot.investorId, acc);
    }
    for (const [lotId, lr] of lotResults) {
      const lot = lotsById.get(lotId) ?? previousLotsById.get(lotId);
      if (!lot || lot.classId !== r.classId) continue;
      const acc = investors.get(lot.investorId) ?? { closing: ZERO, units: ZERO, perf: ZERO };
      acc.perf = acc.perf.plus(lr.accrued).plus(lr.crystallized).minus(openingAccrued.get(lotId) ?? ZERO);
      investors.set(lot.investorId, acc);
    }
    for (const [key] of openingCapital) {
      const [investorId, classId] = key.split('|');
      if (classId === r.classId && !investors.has(investorId)) investors.set(investorId, { closing: ZERO, units: ZERO, perf: ZERO });
    }
    const ids = [...investors.keys()].sort();
    const mgmtShares = allocateCents(r.managementFee, ids.map((id) => openingCapital.get(investorKey(id, r.classId)) ?? ZERO));
    ids.forEach((investorId, i) => {
      const key = investorKey(investorId, r.classId);
      const acc = investors.get(investorId)!;
      const opening = openingCapital.get(key) ?? ZERO;
      const contributed = contributions.get(key) ?? ZERO;
      const redeemed = redemptionsPaid.get(key) ?? ZERO;
      const mgmt = r.managementFee.isZero() ? ZERO : mgmtShares[i];
      const pnl = acc.closing.minus(opening).minus(contributed).plus(redeemed).plus(mgmt).plus(acc.perf);
      if (acc.closing.gt(0)) state.investorCapital.set(key, acc.closing);
      capitalAccounts.push({
        investorId, classId: r.classId, openingCapital: opening, contributions: contributed, redemptions: redeemed, pnl,
        managementFee: mgmt, performanceFee: acc.perf, closingCapital: acc.closing, units: acc.units,
        navPerUnit: r.navPerUnit, ownershipRatio: nav.gt(0) ? acc.closing.dividedBy(nav).toDecimalPlaces(8) : ZERO,
      });
    });
  }

  // Safety net: the position book and the liabilities must give the same NAV as the classes.
  const perfPayable = sum(state.lots.map((l) => l.accrued)).plus(sum([...state.classes.values()].map((c) => c.perfCrystallizedUnpaid)));
  const mgmtPayable = sum([...state.classes.values()].map((c) => c.mgmtPayable));
  const redemptionsPayable = sum(state.redemptionPayables.map((r) => r.amount));
  const liabilitiesExShort = perfPayable.plus(mgmtPayable).plus(state.accruedExpenses).plus(redemptionsPayable);
  const bookNav = sum(positionsAfterFlows(state, positions, cashSymbol)).plus(state.otherNetAssets).minus(liabilitiesExShort);
  if (!bookNav.equals(nav)) {
    throw new Error(`NAV engine invariant broken on ${date}: book ${bookNav.toFixed(2)} ≠ classes ${nav.toFixed(2)}`);
  }
  const totalLiabilities = liabilitiesExShort.plus(shortMarketValue);
  const classTotal = (f: (r: ClassResult) => Decimal) => sum(classResults.map(f));
  state.valuationDate = date;

  const assets = assetResults(positions, netTrades, realizedBySymbol, day.prices, cashSymbol);
  return {
    ok: true, date, state, entries,
    summary: {
      openingNav, grossAssetValue: nav.plus(totalLiabilities), totalLiabilities, nav, investmentPnl, expenses,
      managementFee: classTotal((r) => r.managementFee), performanceFee: classTotal((r) => r.performanceFee),
      subscriptions: classTotal((r) => r.subscriptions), redemptions: classTotal((r) => r.redemptions),
    },
    classes: classResults, capitalAccounts, lots: [...lotResults.values()], newLots,
    positions: finalPositions(state, positions, cashSymbol), assets, flows: flowResults,
  };
}

/** Splits a class NAV over its lots by net value (units × GNAV − accrued fee), to the cent. */
function allocateLotValues(lots: LotState[], classNav: Decimal, gnav: Decimal): Map<string, Decimal> {
  const values = allocateCents(classNav, lots.map((l) => Decimal.max(ZERO, l.units.times(gnav).minus(l.accrued))));
  return new Map(lots.map((l, i) => [l.lotId, values[i]]));
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
      out.push({ connection: p.connection, symbol: p.symbol, quantity: p.quantity, cost: p.quantity, price: new Decimal(1), marketValue: p.quantity });
    } else if (!p.quantity.isZero() || !p.cost.isZero()) {
      out.push(byKey.get(`${p.connection}|${p.symbol}`)!);
    }
  }
  return out.sort((a, b) => (a.connection === b.connection ? (a.symbol < b.symbol ? -1 : 1) : a.connection < b.connection ? -1 : 1));
}

function assetResults(
  positions: PositionResult[], netTrades: Map<string, Decimal>, realized: Map<string, Decimal>, prices: Map<string, Decimal>, cashSymbol: string,
): AssetResult[] {
  const bySymbol = new Map<string, AssetResult>();
  for (const p of positions) {
    if (p.symbol === cashSymbol) continue;
    const a = bySymbol.get(p.symbol) ?? { symbol: p.symbol, quantity: ZERO, price: p.price, marketValue: ZERO, netTrades: ZERO, realizedPnl: ZERO };
    a.quantity = a.quantity.plus(p.quantity);
    a.marketValue = a.marketValue.plus(p.marketValue);
    bySymbol.set(p.symbol, a);
  }
  for (const [symbol, amount] of netTrades) {
    const a = bySymbol.get(symbol) ?? { symbol, quantity: ZERO, price: prices.get(symbol)!, marketValue: ZERO, netTrades: ZERO, realizedPnl: ZERO };
    a.netTrades = amount;
    a.realizedPnl = realized.get(symbol) ?? ZERO;
    bySymbol.set(symbol, a);
  }
  return [...bySymbol.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
}

function classState(state: EngineState, classId: string): ClassState {
  let c = state.classes.get(classId);
  if (!c) {
    c = { classId, units: ZERO, nav: ZERO, mgmtPayable: ZERO, perfCrystallizedUnpaid: ZERO };
    state.classes.set(classId, c);
  }
  return c;
}

function connectionTerms(terms: FundTerms, code: string) {
  const c = terms.connections.get(code);
  if (!c) throw new DayFailed(`unknown connection ${code}`);
  return c;
}

function className(terms: FundTerms, classId: string): string {
  return terms.classes.find((c: ShareClassTerms) => c.id === classId)?.name ?? classId;
}
