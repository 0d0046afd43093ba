import { Injectable } from '@nestjs/common';
import { AnswerCache } from '../common/answer-cache';
import { D, Dec, ZERO, money, qty, ratio, ratioOrNull, safeDiv, sum } from '../common/decimals';
import { LiveBook, LiveBookService, LivePosition, isCashLike } from '../common/live-book.service';
import { BreakdownDto, BreakdownRowDto, ExposureDto, ExposureSeriesRowDto, PositionsDto } from './positions.dto';
import { PositionsRepository } from './positions.repository';

export interface ExposureFigures {
  long: Dec;
  short: Dec;
  cash: Dec;
}

/** Long/short over non-cash positions; cash = cash and stablecoins (signed). */
export function exposureOf(positions: Pick<LivePosition, 'assetClass' | 'marketValue'>[]): ExposureFigures {
  let long = ZERO;
  let short = ZERO;
  let cash = ZERO;
  for (const p of positions) {
    if (isCashLike(p.assetClass)) cash = cash.plus(p.marketValue);
    else if (p.marketValue.isPositive()) long = long.plus(p.marketValue);
    else short = short.plus(p.marketValue.abs());
  }
  return { long, short, cash };
}

@Injectable()
export class PositionsService {
  constructor(
    private readonly live: LiveBookService,
    private readonly repo: PositionsRepository,
    private readonly cache: AnswerCache,
  ) {}

  positions(fundId: string): Promise<PositionsDto> {
    return this.cache.liveAnswer(`positions:${fundId}`, () => this.positionsOf(fundId));
  }

  breakdown(fundId: string): Promise<BreakdownDto> {
    return this.cache.liveAnswer(`breakdown:${fundId}`, () => this.breakdownOf(fundId));
  }

  exposure(fundId: string): Promise<ExposureDto> {
    return this.cache.liveAnswer(`exposure:${fundId}`, () => this.exposureOf(fundId));
  }

  private async positionsOf(fundId: string): Promise<PositionsDto> {
    const book = await this.live.book(fundId);
    return {
      asOf: book.asOf,
      baseCurrency: book.baseCurrency,
      totalMarketValue: money(book.totalMarketValue),
      positions: book.positions.map((p) => ({
        asset: p.asset,
        venue: p.venue,
        quantity: qty(p.quantity),
        price: qty(p.price),
        marketValue: money(p.marketValue),
        weight: ratio(safeDiv(p.marketValue, book.totalMarketValue)),
      })),
    };
  }

  private async breakdownOf(fundId: string): Promise<BreakdownDto> {
    const book = await this.live.book(fundId);
    return {
      asOf: book.asOf,
      totalMarketValue: money(book.totalMarketValue),
      byAsset: group(book, (p) => p.asset),
      bySourceType: group(book, (p) => p.sourceType),
      byVenue: group(book, (p) => p.venue),
    };
  }

  private async exposureOf(fundId: string): Promise<ExposureDto> {
    const book = await this.live.book(fundId);
    const e = exposureOf(book.positions);
    const over = (v: Dec) => (book.nav && !book.nav.isZero() ? ratio(v.dividedBy(book.nav)) : null);
    return {
      asOf: book.asOf,
      baseCurrency: book.baseCurrency,
      nav: book.nav ? money(book.nav) : null,
      longExposure: money(e.long),
      shortExposure: money(e.short),
      grossExposure: money(e.long.plus(e.short)),
      netExposure: money(e.long.minus(e.short)),
      cashExposure: money(e.cash),
      grossExposureRatio: over(e.long.plus(e.short)),
      netExposureRatio: over(e.long.minus(e.short)),
      cashExposureRatio: over(e.cash),
    };
  }

  async exposureSeries(fundId: string, days = 30): Promise<ExposureSeriesRowDto[]> {
    const rows = await this.repo.exposureByCompleteRun(fundId, days);
    return rows.map((r) => {
      const nav = new D(r.nav);
      const long = new D(r.long);
      const short = new D(r.short);
      return {
        date: r.date,
        nav: money(nav),
        longExposure: money(long),
        shortExposure: money(short),
        grossExposure: money(long.plus(short)),
        netExposure: money(long.minus(short)),
        cashExposure: money(r.cash),
        grossExposureRatio: nav.isZero() ? null : ratioOrNull(long.plus(short).dividedBy(nav)),
        netExposureRatio: nav.isZero() ? null : ratioOrNull(long.minus(short).dividedBy(nav)),
      };
    });
  }
}

function group(book: LiveBook, keyOf: (p: LivePosition) => string): BreakdownRowDto[] {
  const totals = new Map<string, Dec[]>();
  for (const p of book.positions) {
    const k = keyOf(p);
    totals.set(k, [...(totals.get(k) ?? []), p.marketValue]);
  }
  return [...totals.entries()]
    .map(([key, values]) => ({ key, value: sum(values) }))
    .sort((a, b) => b.value.abs().comparedTo(a.value.abs()) || (a.key < b.key ? -1 : 1))
    .map(({ key, value }) => ({
      key,
      marketValue: money(value),
      weight: ratio(safeDiv(value, book.totalMarketValue)),
    }));
}
