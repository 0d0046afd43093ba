import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/problem';
import { daysBetween } from '../../common/validation/calendar-date';
import { CrystallizationFrequency } from '../../fund/dates';
import { leadSeriesValues } from '../../fund/nav/lead-series';
import { Decimal } from '../../fund/money';
import { D, Dec, ZERO, ratio } from '../common/decimals';
import { PerformanceDto } from './risk.dto';
import { RiskRepository } from './risk.repository';

interface Point {
  d: string;
  npu: Dec;
}

/** The last point strictly before `date`, or the launch point when there is none. */
function baseBefore(points: Point[], date: string, launch: Point): Point {
  let base = launch;
  for (const p of points) {
    if (p.d >= date) break;
    base = p;
  }
  return base;
}

/**
 * Performance from a value-per-unit series (`npu`): period returns against the last value before
 * each period, monthly table, annualized volatility (daily × √365) and max drawdown.
 */
export function performanceOf(className: string, launch: Point, points: Point[]): PerformanceDto {
  const last = points[points.length - 1];
  if (!last) {
    return {
      shareClass: className,
      asOf: null,
      returns: { mtd: null, qtd: null, ytd: null, itd: null, annualizedItd: null },
      monthly: [],
      annualizedVolatility: null,
      maxDrawdown: null,
    };
  }
  const y = last.d.slice(0, 4);
  const m = Number(last.d.slice(5, 7));
  const quarterStart = `${y}-${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  const ret = (from: Point) => last.npu.dividedBy(from.npu).minus(1);
  const itd = ret(launch);
  const days = daysBetween(launch.d, last.d);
  // a return over less than a year is not annualised (GIPS; ten days at +2 % would read +106 % a year)
  const annualizedItd = days >= 365 ? itd.plus(1).pow(new D(365).dividedBy(days)).minus(1) : null;

  const monthly: { month: string; return: string }[] = [];
  let prevEnd = launch;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const next = points[i + 1];
    if (!next || next.d.slice(0, 7) !== p.d.slice(0, 7)) {
      monthly.push({ month: p.d.slice(0, 7), return: ratio(p.npu.dividedBy(prevEnd.npu).minus(1)) });
      prevEnd = p;
    }
  }

  const daily: Dec[] = [];
  for (let i = 1; i < points.length; i++) daily.push(points[i].npu.dividedBy(points[i - 1].npu).minus(1));
  let vol: Dec | null = null;
  if (daily.length >= 2) {
    const mean = daily.reduce((a, r) => a.plus(r), ZERO).dividedBy(daily.length);
    const variance = daily.reduce((a, r) => a.plus(r.minus(mean).pow(2)), ZERO).dividedBy(daily.length - 1);
    vol = variance.sqrt().times(new D(365).sqrt());
  }
  let peak = launch.npu;
  let maxDd = ZERO;
  for (const p of points) {
    if (p.npu.gt(peak)) peak = p.npu;
    const dd = p.npu.dividedBy(peak).minus(1);
    if (dd.lt(maxDd)) maxDd = dd;
  }
  return {
    shareClass: className,
    asOf: last.d,
    returns: {
      mtd: ratio(ret(baseBefore(points, `${last.d.slice(0, 7)}-01`, launch))),
      qtd: ratio(ret(baseBefore(points, quarterStart, launch))),
      ytd: ratio(ret(baseBefore(points, `${y}-01-01`, launch))),
      itd: ratio(itd),
      annualizedItd: annualizedItd ? ratio(annualizedItd) : null,
    },
    monthly,
    annualizedVolatility: vol ? ratio(vol) : null,
    maxDrawdown: ratio(maxDd),
  };
}

@Injectable()
export class PerformanceService {
  constructor(private readonly repo: RiskRepository) {}

  async performance(fundId: string, shareClass?: string): Promise<PerformanceDto> {
    const cls = await this.repo.shareClass(fundId, shareClass ?? null);
    if (!cls) throw notFound(shareClass ? `share class ${shareClass}` : 'share class');
    const series = await this.repo.classGrossNavPerUnitSeries(fundId, cls.id);
    // The lead lot is issued when the class first has units, whatever launch date the fund definition
    // gives (later: the hurdle clock and ITD start there; earlier: the first months are not dropped).
    const launchDate = series.find((s) => s.gnav !== null)?.d ?? cls.launch_date;
    // The investor's basis: the lead series' value per original unit, net of every fee (docs/books-figures.md).
    const values = leadSeriesValues(
      {
        perfFeeRate: new Decimal(cls.perf_fee_rate),
        hurdleAnnualRate: cls.hurdle_annual_rate === null ? null : new Decimal(cls.hurdle_annual_rate),
        feeExempt: cls.fee_exempt,
        crystallizationFrequency: cls.crystallization_frequency as CrystallizationFrequency,
        initialNavPerUnit: new Decimal(cls.initial_nav_per_unit),
      },
      launchDate,
      series.map((s) => ({ d: s.d, gnav: s.gnav === null ? null : new Decimal(s.gnav) })),
    );
    const launch = { d: launchDate, npu: new D(cls.initial_nav_per_unit) };
    return performanceOf(
      cls.name,
      launch,
      values.map((v) => ({ d: v.d, npu: new D(v.valuePerOriginalUnit.toString()) })),
    );
  }
}
