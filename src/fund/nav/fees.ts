import { type IsoDate, daysBetween } from '../dates';
import { Decimal, ZERO, toCents } from '../money';

const DAYS_IN_YEAR = 365;

/** Management fee for `days` calendar days (ACT/365) on the class NAV at the start of the day. */
export function managementFeeAccrual(
  annualRate: Decimal,
  openingClassNav: Decimal,
  feeExempt: boolean,
  days = 1,
): Decimal {
  if (feeExempt || openingClassNav.lte(0)) return ZERO;
  return toCents(annualRate.times(openingClassNav).times(days).dividedBy(DAYS_IN_YEAR));
}

/** HWM per unit grown by the hard hurdle, compounded: HWM × (1 + h)^(days since HWM date / 365). */
export function hurdleThreshold(
  hwmPerUnit: Decimal,
  hurdleAnnualRate: Decimal | null,
  hwmDate: IsoDate,
  date: IsoDate,
): Decimal {
  if (hurdleAnnualRate === null || hurdleAnnualRate.isZero()) return hwmPerUnit;
  return hwmPerUnit.times(hurdleGrowth(hurdleAnnualRate, daysBetween(hwmDate, date)));
}

const growthCache = new Map<string, Decimal>();

/** (1 + h)^(days / 365); memoized because every lot of a class shares few (rate, days) pairs. */
export function hurdleGrowth(hurdleAnnualRate: Decimal, days: number): Decimal {
  const key = `${hurdleAnnualRate.toString()}|${days}`;
  let factor = growthCache.get(key);
  if (!factor) {
    factor = hurdleAnnualRate.plus(1).pow(new Decimal(days).dividedBy(DAYS_IN_YEAR));
    if (growthCache.size > 100_000) growthCache.clear();
    growthCache.set(key, factor);
  }
  return factor;
}

export interface LotFeeInput {
  perfFeeRate: Decimal;
  hurdleAnnualRate: Decimal | null;
  feeExempt: boolean;
  grossNavPerUnit: Decimal;
  hwmPerUnit: Decimal;
  hwmDate: IsoDate;
  units: Decimal;
  date: IsoDate;
}

/** Accrued performance fee of one lot (series): rate × max(0, GNAV − threshold) × units, in cents. */
export function lotPerformanceFee(input: LotFeeInput): Decimal {
  if (input.feeExempt || input.perfFeeRate.isZero() || input.units.lte(0)) return ZERO;
  const threshold = hurdleThreshold(input.hwmPerUnit, input.hurdleAnnualRate, input.hwmDate, input.date);
  const excess = input.grossNavPerUnit.minus(threshold);
  if (excess.lte(0)) return ZERO;
  return toCents(input.perfFeeRate.times(excess).times(input.units));
}
