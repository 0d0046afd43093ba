import { Injectable } from '@nestjs/common';
import { unprocessable } from '../../common/errors/problem';
import { AnswerCache } from '../common/answer-cache';
import { D, Dec, ZERO, money, ratio, safeDiv } from '../common/decimals';
import { LiveBookService, isCashLike } from '../common/live-book.service';
import { VarDto, VarQueryDto } from './risk.dto';
import { RiskRepository } from './risk.repository';
import { Z_SCORES, ewmaCovariance, parametricVar, sampleCovariance, simpleReturns } from './var-engine';

@Injectable()
export class VarService {
  constructor(
    private readonly live: LiveBookService,
    private readonly repo: RiskRepository,
    private readonly cache: AnswerCache,
  ) {}

  valueAtRisk(fundId: string, q: VarQueryDto): Promise<VarDto> {
    const confidence = q.confidence ?? '0.99';
    const horizonDays = q.horizonDays ?? 1;
    const method = q.method ?? 'ewma';
    const windowDays = q.windowDays ?? 250;
    return this.cache.liveAnswer(`var:${fundId}:${confidence}:${horizonDays}:${method}:${windowDays}`, () =>
      this.compute(fundId, confidence, horizonDays, method, windowDays),
    );
  }

  private async compute(
    fundId: string,
    confidence: '0.95' | '0.99',
    horizonDays: number,
    method: 'sample' | 'ewma',
    windowDays: number,
  ): Promise<VarDto> {
    const book = await this.live.book(fundId);
    // x: signed market value per non-cash asset, netted across live connections.
    const bySymbol = new Map<string, Dec>();
    for (const p of book.positions) {
      if (isCashLike(p.assetClass)) continue;
      bySymbol.set(p.asset, (bySymbol.get(p.asset) ?? ZERO).plus(p.marketValue));
    }
    const symbols = [...bySymbol.keys()].filter((s) => !bySymbol.get(s)!.isZero()).sort();
    const base = {
      method,
      confidence: ratio(confidence),
      horizonDays,
      windowDays,
      nav: book.nav ? money(book.nav) : null,
    };
    if (symbols.length === 0) {
      return {
        asOf: book.asOf,
        ...base,
        valueAtRisk: '0.00',
        valueAtRiskRatio: book.nav ? ratio('0') : null,
        portfolioVolatility: '0.00',
        components: [],
      };
    }
    const { dates, closes } = await this.alignedCloses(fundId, symbols, book.asOf, windowDays + 1);
    const returns = simpleReturns(closes);
    const cov = method === 'sample' ? sampleCovariance(returns) : ewmaCovariance(returns);
    const x = symbols.map((s) => bySymbol.get(s)!);
    const r = parametricVar(x, cov, Z_SCORES[confidence], horizonDays);
    return {
      asOf: dates[dates.length - 1],
      ...base,
      valueAtRisk: money(r.valueAtRisk),
      valueAtRiskRatio: book.nav && !book.nav.isZero() ? ratio(r.valueAtRisk.dividedBy(book.nav)) : null,
      portfolioVolatility: money(r.sigma),
      components: symbols.map((asset, i) => ({
        asset,
        marketValue: money(x[i]),
        componentVar: money(r.components[i]),
        contributionRatio: ratio(safeDiv(r.components[i], r.valueAtRisk)),
      })),
    };
  }

  /** The last `count` dates on which every symbol has a close, ending at or before `asOf`. */
  private async alignedCloses(
    fundId: string,
    symbols: string[],
    asOf: string,
    count: number,
  ): Promise<{ dates: string[]; closes: Dec[][] }> {
    const rows = await this.repo.closesForSymbols(fundId, symbols, asOf, count * 2 + 14);
    const byDate = new Map<string, Map<string, string>>();
    for (const r of rows) {
      if (!byDate.has(r.price_date)) byDate.set(r.price_date, new Map());
      byDate.get(r.price_date)!.set(r.symbol, r.close);
    }
    const complete = [...byDate.entries()]
      .filter(([, m]) => m.size === symbols.length)
      .map(([d]) => d)
      .sort();
    if (complete.length < count) {
      throw unprocessable(
        `not enough price history: ${count} aligned closes are needed for windowDays=${count - 1}, ${complete.length} are available`,
        [{ field: 'windowDays', message: `at most ${Math.max(0, complete.length - 1)} with the available closes` }],
      );
    }
    const dates = complete.slice(-count);
    return { dates, closes: dates.map((d) => symbols.map((s) => new D(byDate.get(d)!.get(s)!))) };
  }
}
