import { type IsoDate, isPeriodEnd } from '../dates';
import { Decimal, toUnits } from '../money';
import { type ShareClassTerms } from './engine-types';
import { lotPerformanceFee } from './fees';

/**
 * Units of the notional lead-series lot. Large so that the books' own rounding (fees in cents,
 * cancelled units to 8 decimals) costs less than 1e-10 of the value per unit.
 */
const NOTIONAL_UNITS = new Decimal(1_000_000);

export interface GnavPoint {
  d: IsoDate;
  /**
   * The class's NAV per unit after management fee, before performance fee (GNAV) on that date; null
   * on a day the class had no units (emptied by redemptions).
   */
  gnav: Decimal | null;
}

export interface SeriesValue {
  d: IsoDate;
  /** Net value of the lead series per original unit: what one unit bought at launch is worth today. */
  valuePerOriginalUnit: Decimal;
}

type FeeTerms = Pick<
  ShareClassTerms,
  'perfFeeRate' | 'hurdleAnnualRate' | 'feeExempt' | 'crystallizationFrequency' | 'initialNavPerUnit'
>;

/**
 * The class's lead series as an investor holds it: a lot issued at launch at the initial NAV per
 * unit, never redeemed, run through exactly the books' performance-fee rules (per-series HWM,
 * hard compounded hurdle, crystallization at period end by cancelling units at GNAV). Its value
 * per original unit, `(units × GNAV − accrued fee) / original units`, is net of every fee the
 * investor bears: management fee and expenses (inside GNAV), accrued and crystallized
 * performance fees (the cancelled units). Class NAV per unit is not: it jumps back up to GNAV at
 * each crystallization. Points must be in date order; those before `launchDate` are ignored.
 *
 * A class emptied by redemptions and later relaunched (it reissues at its initial NAV per unit) is
 * chain-linked with a zero return over the days it had no units: the lead lot is reissued at the
 * initial price for the value it had, with a new HWM at that price — nobody lost anything across
 * the gap, and a track record that carried the old lot into the new price would show a false loss.
 */
export function leadSeriesValues(terms: FeeTerms, launchDate: IsoDate, points: GnavPoint[]): SeriesValue[] {
  let units = NOTIONAL_UNITS;
  let hwmPerUnit = terms.initialNavPerUnit;
  let hwmDate = launchDate;
  let emptied = false;
  const out: SeriesValue[] = [];
  for (const p of points) {
    if (p.d < launchDate) continue;
    if (p.gnav === null) {
      emptied = out.length > 0;
      continue;
    }
    if (emptied) {
      const value = out[out.length - 1].valuePerOriginalUnit;
      units = value.times(NOTIONAL_UNITS).dividedBy(terms.initialNavPerUnit);
      [hwmPerUnit, hwmDate, emptied] = [terms.initialNavPerUnit, p.d, false];
      // reissued today: nothing accrues on the issue date
      out.push({ d: p.d, valuePerOriginalUnit: units.times(p.gnav).dividedBy(NOTIONAL_UNITS) });
      continue;
    }
    if (p.d === launchDate) {
      // issued today at the day's price: nothing accrues on the issue date
      out.push({ d: p.d, valuePerOriginalUnit: p.gnav });
      continue;
    }
    let accrued = lotPerformanceFee({
      perfFeeRate: terms.perfFeeRate,
      hurdleAnnualRate: terms.hurdleAnnualRate,
      feeExempt: terms.feeExempt,
      grossNavPerUnit: p.gnav,
      hwmPerUnit,
      hwmDate,
      units,
      date: p.d,
    });
    if (accrued.gt(0) && isPeriodEnd(p.d, terms.crystallizationFrequency)) {
      units = units.minus(toUnits(accrued.dividedBy(p.gnav)));
      hwmPerUnit = p.gnav.toDecimalPlaces(10);
      hwmDate = p.d;
      accrued = new Decimal(0);
    }
    out.push({ d: p.d, valuePerOriginalUnit: units.times(p.gnav).minus(accrued).dividedBy(NOTIONAL_UNITS) });
  }
  return out;
}
