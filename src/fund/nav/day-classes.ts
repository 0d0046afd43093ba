import { isPeriodEnd } from '../dates';
import { ACCOUNTS } from '../ledger/chart-of-accounts';
import { EntryBuilder } from '../ledger/journal-entry';
import { type Decimal, ZERO, allocateCents, sum, toUnits } from '../money';
import { type DayContext, DayFailed, classState, push } from './day-context';
import type { ClassResult, LotResult, LotState, ShareClassTerms } from './engine-types';
import { lotPerformanceFee, managementFeeAccrual } from './fees';

export interface ClassAllocation {
  classResults: ClassResult[];
  lotResults: Map<string, LotResult>;
  grossNavPerUnit: Map<string, Decimal>;
}

/**
 * Step 5. Class allocation of the day's P&L and expenses, pro-rata to each class's gross capital at
 * the start of the day (its NAV plus the performance fee its lots have accrued and not crystallized:
 * that money is still invested, and the class's gross NAV per unit assumes it earns the portfolio's
 * return — weighting by NAV alone moved return from classes carrying an accrual to the others), then
 * each class's management fee and performance fee per lot (crystallizing at period end).
 */
export function allocateToClasses(ctx: DayContext, investmentPnl: Decimal, expenses: Decimal): ClassAllocation {
  const { terms, openingNav, openingNavByClass, openingAccruedByClass, date } = ctx;
  const weights = terms.classes.map((c) =>
    (openingNavByClass.get(c.id) ?? ZERO).plus(openingAccruedByClass.get(c.id) ?? ZERO),
  );
  if (openingNav.lte(0) && !(investmentPnl.isZero() && expenses.isZero())) {
    throw new DayFailed(`P&L or expenses on ${date} but the fund has no capital at the start of the day`);
  }
  const pnlShares = allocateCents(investmentPnl, weights);
  const expenseShares = allocateCents(expenses, weights);
  const allocation: ClassAllocation = { classResults: [], lotResults: new Map(), grossNavPerUnit: new Map() };
  for (const [i, classTerms] of terms.classes.entries()) {
    allocation.classResults.push(valueClass(ctx, classTerms, pnlShares[i], expenseShares[i], allocation));
  }
  return allocation;
}

function valueClass(
  ctx: DayContext,
  classTerms: ShareClassTerms,
  pnl: Decimal,
  expenses: Decimal,
  allocation: ClassAllocation,
): ClassResult {
  const { state, date } = ctx;
  const c = classState(state, classTerms.id);
  const opening = ctx.openingNavByClass.get(classTerms.id) ?? ZERO;
  const mgmtFee = managementFeeAccrual(classTerms.mgmtFeeAnnualRate, opening, classTerms.feeExempt);
  const lots = state.lots.filter((l) => l.classId === classTerms.id && l.units.gt(0));
  const accruedBefore = ctx.openingAccruedByClass.get(classTerms.id) ?? ZERO;
  const gross = opening.plus(accruedBefore).plus(pnl).minus(expenses).minus(mgmtFee);
  const gnav = c.units.gt(0) ? gross.dividedBy(c.units) : classTerms.initialNavPerUnit;
  allocation.grossNavPerUnit.set(classTerms.id, gnav);
  if (!mgmtFee.isZero()) {
    push(
      ctx,
      new EntryBuilder(date, 'management_fee', null, `management fee accrual (${classTerms.name})`)
        .post(ACCOUNTS.managementFees, mgmtFee, undefined, classTerms.id)
        .post(ACCOUNTS.managementFeePayable, mgmtFee.negated(), undefined, classTerms.id)
        .build(),
    );
  }
  c.mgmtPayable = c.mgmtPayable.plus(mgmtFee);

  const crystallized = accruePerformanceFees(ctx, classTerms, lots, gnav, allocation.lotResults);
  const accruedAfter = sum(lots.map((l) => l.accrued));
  const perfFee = accruedAfter.plus(crystallized).minus(accruedBefore);
  if (!perfFee.isZero()) {
    push(
      ctx,
      new EntryBuilder(date, 'performance_fee', null, `performance fee accrual (${classTerms.name})`)
        .post(ACCOUNTS.performanceFees, perfFee, undefined, classTerms.id)
        .post(ACCOUNTS.performanceFeePayable, perfFee.negated(), undefined, classTerms.id)
        .build(),
    );
  }
  c.perfCrystallizedUnpaid = c.perfCrystallizedUnpaid.plus(crystallized);
  c.nav = gross.minus(accruedAfter).minus(crystallized);
  return {
    classId: classTerms.id,
    openingNav: opening,
    pnl,
    expenses,
    managementFee: mgmtFee,
    performanceFee: perfFee,
    performanceFeeCrystallized: crystallized,
    subscriptions: ZERO,
    redemptions: ZERO,
    nav: c.nav,
    units: c.units,
    navPerUnit: null,
    grossNavPerUnit: gnav,
  };
}

/** Performance fee per lot (series), then crystallization at the end of the class period; answers the crystallized fee. */
function accruePerformanceFees(
  ctx: DayContext,
  classTerms: ShareClassTerms,
  lots: LotState[],
  gnav: Decimal,
  lotResults: Map<string, LotResult>,
): Decimal {
  const { date } = ctx;
  const c = classState(ctx.state, classTerms.id);
  const periodEnd = isPeriodEnd(date, classTerms.crystallizationFrequency);
  let crystallized = ZERO;
  for (const lot of lots) {
    lot.accrued = lotPerformanceFee({
      perfFeeRate: classTerms.perfFeeRate,
      hurdleAnnualRate: classTerms.hurdleAnnualRate,
      feeExempt: classTerms.feeExempt,
      grossNavPerUnit: gnav,
      hwmPerUnit: lot.hwmPerUnit,
      hwmDate: lot.hwmDate,
      units: lot.units,
      date,
    });
    const result: LotResult = {
      lotId: lot.lotId,
      units: lot.units,
      hwmPerUnit: lot.hwmPerUnit,
      hwmDate: lot.hwmDate,
      accrued: lot.accrued,
      crystallized: ZERO,
      unitsCancelled: ZERO,
    };
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
  return crystallized;
}
