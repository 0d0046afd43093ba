import { type Decimal, ZERO, allocateCents } from '../money';
import type { ClassAllocation } from './day-classes';
import { type DayContext, classState, investorKey } from './day-context';
import { type FlowsDealt, allocateLotValues } from './day-flows';
import type { CapitalAccountResult, ClassResult, LotState } from './engine-types';

interface InvestorTally {
  closing: Decimal;
  units: Decimal;
  perf: Decimal;
}

const emptyTally = (): InvestorTally => ({ closing: ZERO, units: ZERO, perf: ZERO });

/** After the flows: each lot result shows the lot as it closes the day (gone: no units, no accrual). */
export function refreshLotResults(ctx: DayContext, allocation: ClassAllocation): void {
  const lotsById = new Map(ctx.state.lots.map((l) => [l.lotId, l]));
  for (const lr of allocation.lotResults.values()) {
    const lot = lotsById.get(lr.lotId);
    lr.units = lot ? lot.units : ZERO;
    lr.hwmPerUnit = lot ? lot.hwmPerUnit : lr.hwmPerUnit;
    lr.hwmDate = lot ? lot.hwmDate : lr.hwmDate;
    lr.accrued = lot ? lot.accrued : ZERO;
  }
}

/** Step 7. Close: class NAV per unit, investor capital accounts (closing capital sums to NAV exactly). */
export function closeCapitalAccounts(
  ctx: DayContext,
  nav: Decimal,
  allocation: ClassAllocation,
  dealt: FlowsDealt,
): CapitalAccountResult[] {
  const capitalAccounts: CapitalAccountResult[] = [];
  ctx.state.investorCapital = new Map();
  for (const r of allocation.classResults) {
    const c = classState(ctx.state, r.classId);
    r.nav = c.nav;
    r.units = c.units;
    r.navPerUnit = c.units.gt(0) ? c.nav.dividedBy(c.units).toDecimalPlaces(6) : null;
    const investors = tallyInvestors(ctx, r.classId, allocation);
    capitalAccounts.push(...classCapitalAccounts(ctx, r, investors, nav, dealt));
  }
  return capitalAccounts;
}

function tallyInvestors(ctx: DayContext, classId: string, allocation: ClassAllocation): Map<string, InvestorTally> {
  const { state } = ctx;
  const c = classState(state, classId);
  const lots = state.lots.filter((l) => l.classId === classId && l.units.gt(0));
  const lotValues = allocateLotValues(lots, c.nav, allocation.grossNavPerUnit.get(classId)!);
  const investors = new Map<string, InvestorTally>();
  for (const lot of lots) {
    const acc = investors.get(lot.investorId) ?? emptyTally();
    acc.closing = acc.closing.plus(lotValues.get(lot.lotId)!);
    acc.units = acc.units.plus(lot.units);
    investors.set(lot.investorId, acc);
  }
  const lotsById = new Map<string, LotState>(state.lots.map((l) => [l.lotId, l]));
  const previousLotsById = new Map(ctx.previous.lots.map((l) => [l.lotId, l]));
  for (const [lotId, lr] of allocation.lotResults) {
    const lot = lotsById.get(lotId) ?? previousLotsById.get(lotId);
    if (!lot || lot.classId !== classId) continue;
    const acc = investors.get(lot.investorId) ?? emptyTally();
    acc.perf = acc.perf
      .plus(lr.accrued)
      .plus(lr.crystallized)
      .minus(ctx.openingAccrued.get(lotId) ?? ZERO);
    investors.set(lot.investorId, acc);
  }
  for (const [key] of ctx.openingCapital) {
    const [investorId, keyClassId] = key.split('|');
    if (keyClassId === classId && !investors.has(investorId)) investors.set(investorId, emptyTally());
  }
  return investors;
}

function classCapitalAccounts(
  ctx: DayContext,
  r: ClassResult,
  investors: Map<string, InvestorTally>,
  nav: Decimal,
  dealt: FlowsDealt,
): CapitalAccountResult[] {
  const { openingCapital, openingUnits } = ctx;
  const ids = [...investors.keys()].sort();
  // the fee comes out of GNAV, so each unit held this morning bears the same share of it (an investor
  // whose lots carry an accrued performance fee has less net capital, not fewer units)
  const mgmtShares = allocateCents(
    r.managementFee,
    ids.map((id) => openingUnits.get(investorKey(id, r.classId)) ?? ZERO),
  );
  return ids.map((investorId, i) => {
    const key = investorKey(investorId, r.classId);
    const acc = investors.get(investorId)!;
    const opening = openingCapital.get(key) ?? ZERO;
    const contributed = dealt.contributions.get(key) ?? ZERO;
    const redeemed = dealt.redemptionsPaid.get(key) ?? ZERO;
    const mgmt = r.managementFee.isZero() ? ZERO : mgmtShares[i];
    const pnl = acc.closing.minus(opening).minus(contributed).plus(redeemed).plus(mgmt).plus(acc.perf);
    if (acc.closing.gt(0)) ctx.state.investorCapital.set(key, acc.closing);
    return {
      investorId,
      classId: r.classId,
      openingCapital: opening,
      contributions: contributed,
      redemptions: redeemed,
      pnl,
      managementFee: mgmt,
      performanceFee: acc.perf,
      closingCapital: acc.closing,
      units: acc.units,
      navPerUnit: r.navPerUnit,
      ownershipRatio: nav.gt(0) ? acc.closing.dividedBy(nav).toDecimalPlaces(8) : ZERO,
    };
  });
}
