import { Injectable } from '@nestjs/common';
import { AnswerCache } from './answer-cache';
import { BooksRepository } from './books.repository';
import { D, Dec, ZERO, sum } from './decimals';

export interface LivePosition {
  asset: string;
  assetClass: string;
  venue: string;
  sourceType: string;
  quantity: Dec;
  price: Dec;
  /** Cents: quantity × price rounded half-up, as the books value a position. */
  marketValue: Dec;
}

export interface LiveBook {
  asOf: string;
  baseCurrency: string;
  positions: LivePosition[];
  totalMarketValue: Dec;
  /** NAV of the latest complete run (ratios are over it); null before the first run. */
  nav: Dec | null;
  navRunId: string | null;
}

/** Cash and stablecoins count as cash in exposure, VaR and the breakdown. */
export const isCashLike = (assetClass: string) => assetClass === 'cash' || assetClass === 'stablecoin';

/**
 * The fund's live book: holdings of live connections at the latest closes. Shared by positions,
 * breakdown, exposure, VaR and stress tests so they always agree with each other. Cached in
 * process for at most `liveCacheSeconds`.
 */
@Injectable()
export class LiveBookService {
  constructor(
    private readonly books: BooksRepository,
    private readonly cache: AnswerCache,
  ) {}

  book(fundId: string): Promise<LiveBook> {
    return this.cache.liveAnswer(`book:${fundId}`, () => this.compute(fundId));
  }

  private async compute(fundId: string): Promise<LiveBook> {
    const [holdings, run, baseCurrency] = await Promise.all([
      this.books.liveHoldings(fundId),
      this.books.latestCompleteRun(fundId),
      this.books.baseCurrency(fundId),
    ]);
    let asOf = holdings.runDate ?? '';
    const positions: LivePosition[] = holdings.rows.map((r) => {
      if (r.price_date && r.price_date > asOf) asOf = r.price_date;
      const quantity = new D(r.quantity);
      const price = new D(r.price);
      const marketValue = quantity.times(price).toDecimalPlaces(2, D.ROUND_HALF_UP);
      return {
        asset: r.symbol,
        assetClass: r.asset_class,
        venue: r.venue,
        sourceType: r.source_type,
        quantity,
        price,
        marketValue,
      };
    });
    return {
      asOf: asOf || new Date().toISOString().slice(0, 10),
      baseCurrency: baseCurrency ?? 'USD',
      positions,
      totalMarketValue: positions.length ? sum(positions.map((p) => p.marketValue)) : ZERO,
      nav: run ? new D(run.net_asset_value) : null,
      navRunId: run?.id ?? null,
    };
  }
}
