import { type IsoDate, addDays } from '../dates';
import { uuidFromKey } from '../ids';
import { ACCOUNTS } from '../ledger/chart-of-accounts';
import { EntryBuilder } from '../ledger/journal-entry';
import { Decimal, ZERO, allocateCents, sum, toCents, toUnits } from '../money';
import type { ClassAllocation } from './day-classes';
import { type DayContext, DayFailed, classState, investorKey, push } from './day-context';
import type { ClassResult, FlowEvent, FlowResult, LotState, ShareClassTerms } from './engine-types';

export interface FlowsDealt {
  flowResults: FlowResult[];
  newLots: LotState[];
  /** Per investor and class (investorKey): money subscribed and redemptions paid today. */
  contributions: Map<string, Decimal>;
  redemptionsPaid: Map<string, Decimal>;
}

/** Step 6. Capital flows dealt today: redemptions first (at the investor's net value), then subscriptions at GNAV. */
export function dealFlows(ctx: DayContext, allocation: ClassAllocation): FlowsDealt {
  const dealt: FlowsDealt = { flowResults: [], newLots: [], contributions: new Map(), redemptionsPaid: new Map() };
  const ordered = [...ctx.day.flows].sort((a, b) =>
    a.type === b.type ? (a.ref < b.ref ? -1 : 1) : a.type === 'redemption' ? -1 : 1,
  );
  for (const flow of ordered) {
    const classTerms = ctx.terms.classes.find((c) => c.id === flow.classId);
    if (!classTerms) throw new DayFailed(`capital activity ${flow.ref} names an unknown share class`);
    const result = allocation.classResults.find((r) => r.classId === flow.classId)!;
    if (flow.type === 'redemption') redeem(ctx, flow, classTerms, result, allocation, dealt);
    else subscribe(ctx, flow, classTerms, result, allocation, dealt);
  }
  ctx.state.lots = ctx.state.lots.filter((l) => l.units.gt(0) || l.accrued.gt(0));
  return dealt;
}

function redeem(
  ctx: DayContext,
  flow: FlowEvent,
  classTerms: ShareClassTerms,
  result: ClassResult,
  allocation: ClassAllocation,
  dealt: FlowsDealt,
): void {
  const { state, date } = ctx;
  const c = classState(state, flow.classId);
  const gnav = allocation.grossNavPerUnit.get(flow.classId)!;
  const key = investorKey(flow.investorId, flow.classId);
  const lots = state.lots.filter(
    (l) => l.classId === flow.classId && l.investorId === flow.investorId && l.units.gt(0),
  );
  const lotValues = allocateLotValues(
    state.lots.filter((l) => l.classId === flow.classId && l.units.gt(0)),
    c.nav,
    gnav,
  );
  const value = sum(lots.map((l) => lotValues.get(l.lotId)!));
  if (lots.length === 0 || value.lte(0)) {
    dealt.flowResults.push({
      flowId: flow.flowId,
      outcome: 'failed',
      amount: ZERO,
      units: ZERO,
      navPerUnit: gnav,
      performanceFeeCrystallized: ZERO,
    });
    return;
  }
  const full = flow.fraction ? flow.fraction.gte(1) : flow.amount!.gte(value);
  const fraction = full ? new Decimal(1) : (flow.fraction ?? flow.amount!.dividedBy(value));
  const paid = full ? value : flow.fraction ? toCents(fraction.times(value)) : flow.amount!;
  const { unitsOut, feeOut } = cancelLotUnits(lots, full, fraction, gnav, allocation, date);
  c.units = c.units.minus(unitsOut);
  c.nav = c.nav.minus(paid);
  c.perfCrystallizedUnpaid = c.perfCrystallizedUnpaid.plus(feeOut);
  result.performanceFeeCrystallized = result.performanceFeeCrystallized.plus(feeOut);
  result.redemptions = result.redemptions.plus(paid);
  dealt.redemptionsPaid.set(key, (dealt.redemptionsPaid.get(key) ?? ZERO).plus(paid));
  state.redemptionPayables.push({
    flowId: flow.flowId,
    ref: flow.ref,
    amount: paid,
    payDate: addDays(date, ctx.terms.settlementDays),
  });
  push(
    ctx,
    new EntryBuilder(date, 'redemption', flow.ref, `redemption ${flow.ref} (${classTerms.name})`)
      .post(ACCOUNTS.capitalRedemptions, paid, undefined, flow.classId)
      .post(ACCOUNTS.redemptionsPayable, paid.negated(), undefined, flow.classId)
      .build(),
  );
  dealt.flowResults.push({
    flowId: flow.flowId,
    outcome: 'executed',
    amount: paid,
    units: unitsOut,
    navPerUnit: gnav,
    performanceFeeCrystallized: feeOut,
  });
}

/**
 * Takes the redeemed fraction of units out of the investor's lots, crystallizing the same fraction of each
 * lot's accrued performance fee; a full redemption also resets the lots' high-water mark to today's GNAV.
 */
function cancelLotUnits(
  lots: LotState[],
  full: boolean,
  fraction: Decimal,
  gnav: Decimal,
  allocation: ClassAllocation,
  date: IsoDate,
): { unitsOut: Decimal; feeOut: Decimal } {
  let unitsOut = ZERO;
  let feeOut = ZERO;
  for (const lot of lots) {
    const fee = full ? lot.accrued : toCents(lot.accrued.times(fraction));
    const units = full ? lot.units : toUnits(lot.units.times(fraction));
    const lr = allocation.lotResults.get(lot.lotId)!;
    lr.crystallized = lr.crystallized.plus(fee);
    lr.unitsCancelled = lr.unitsCancelled.plus(gnav.gt(0) ? toUnits(fee.dividedBy(gnav)) : ZERO);
    lot.accrued = lot.accrued.minus(fee);
    lot.units = lot.units.minus(units);
    if (full) {
      lot.hwmPerUnit = gnav.toDecimalPlaces(10);
      lot.hwmDate = date;
    }
    unitsOut = unitsOut.plus(units);
    feeOut = feeOut.plus(fee);
  }
  return { unitsOut, feeOut };
}

function subscribe(
  ctx: DayContext,
  flow: FlowEvent,
  classTerms: ShareClassTerms,
  result: ClassResult,
  allocation: ClassAllocation,
  dealt: FlowsDealt,
): void {
  const { state, date } = ctx;
  const c = classState(state, flow.classId);
  const gnav = allocation.grossNavPerUnit.get(flow.classId)!;
  const key = investorKey(flow.investorId, flow.classId);
  const amount = flow.amount!;
  // the day's GNAV whenever the class had units this morning (a class emptied by a redemption dealt
  // just before is not relaunched); the initial price only for a class with no units all day
  const hadUnits = ctx.previous.classes.get(flow.classId)?.units.gt(0) ?? false;
  const price = hadUnits || c.units.gt(0) ? gnav : classTerms.initialNavPerUnit;
  const units = toUnits(amount.dividedBy(price));
  const lot: LotState = {
    lotId: uuidFromKey(`${ctx.terms.fundId}:lot:${flow.flowId}`),
    flowId: flow.flowId,
    investorId: flow.investorId,
    classId: flow.classId,
    issueDate: date,
    issueNavPerUnit: price.toDecimalPlaces(10),
    unitsIssued: units,
    units,
    hwmPerUnit: price.toDecimalPlaces(10),
    hwmDate: date,
    accrued: ZERO,
  };
  state.lots.push(lot);
  dealt.newLots.push(lot);
  if (c.units.isZero()) allocation.grossNavPerUnit.set(flow.classId, price);
  c.units = c.units.plus(units);
  c.nav = c.nav.plus(amount);
  result.subscriptions = result.subscriptions.plus(amount);
  dealt.contributions.set(key, (dealt.contributions.get(key) ?? ZERO).plus(amount));
  ctx.book.moveCash(ctx.bank, amount);
  push(
    ctx,
    new EntryBuilder(date, 'subscription', flow.ref, `subscription ${flow.ref} (${classTerms.name})`)
      .post(ctx.bankAccount, amount)
      .post(ACCOUNTS.capitalContributions, amount.negated(), undefined, flow.classId)
      .build(),
  );
  allocation.lotResults.set(lot.lotId, {
    lotId: lot.lotId,
    units,
    hwmPerUnit: lot.hwmPerUnit,
    hwmDate: date,
    accrued: ZERO,
    crystallized: ZERO,
    unitsCancelled: ZERO,
  });
  dealt.flowResults.push({
    flowId: flow.flowId,
    outcome: 'executed',
    amount,
    units,
    navPerUnit: price,
    performanceFeeCrystallized: ZERO,
  });
}

/** Splits a class NAV over its lots by net value (units × GNAV − accrued fee), to the cent. */
export function allocateLotValues(lots: LotState[], classNav: Decimal, gnav: Decimal): Map<string, Decimal> {
  const values = allocateCents(
    classNav,
    lots.map((l) => Decimal.max(ZERO, l.units.times(gnav).minus(l.accrued))),
  );
  return new Map(lots.map((l, i) => [l.lotId, values[i]]));
}
