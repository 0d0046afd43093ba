import { Injectable, Logger } from '@nestjs/common';
import { notFound, unprocessable } from '../../common/errors/problem';
import { AnswerCache } from '../common/answer-cache';
import { D, Dec, ZERO, money, sum } from '../common/decimals';
import { AttributionAssetDto, AttributionDatesDto, AttributionDto } from './risk.dto';
import { RiskRepository, RunAssetRow, RunRow, WindowTotals } from './risk.repository';

/** Row for investment P&L the runs booked outside the position book (manual journal entries). */
export const MANUAL_PNL_ROW = 'MANUAL-ENTRIES';

/**
 * P&L attribution between the complete run on a date and the previous usable (complete) run,
 * from the runs' stored asset marks, net trades, fees and flows. Both runs are immutable, so the
 * answer is cached under their ids.
 */
@Injectable()
export class AttributionService {
  private readonly logger = new Logger('Attribution');

  constructor(
    private readonly repo: RiskRepository,
    private readonly cache: AnswerCache,
  ) {}

  async dates(fundId: string): Promise<AttributionDatesDto> {
    const rows = await this.repo.completeRunDates(fundId);
    const dates = rows.slice(1).map((r) => r.d);
    return { dates, latest: dates[dates.length - 1] ?? null };
  }

  async attribution(fundId: string, date: string): Promise<AttributionDto> {
    const run = await this.repo.completeRunOn(fundId, date);
    if (!run) throw notFound(`a complete NAV run on ${date}`);
    const prev = await this.repo.completeRunBefore(fundId, date);
    if (!prev)
      throw unprocessable(`${date} is the first usable NAV run; there is no previous run to attribute against`, [
        { field: 'date', message: 'is the first usable NAV run' },
      ]);
    return this.cache.immutableAnswer(fundId, `attribution:${run.id}:${prev.id}`, () =>
      this.compute(fundId, run, prev),
    );
  }

  private async compute(fundId: string, run: RunRow, prev: RunRow): Promise<AttributionDto> {
    const [closing, opening, trades, totals, manual] = await Promise.all([
      this.repo.runAssets(fundId, run.id),
      this.repo.runAssets(fundId, prev.id),
      this.repo.netTradesBetween(fundId, prev.valuation_date, run.valuation_date),
      this.repo.runTotalsBetween(fundId, prev.valuation_date, run.valuation_date),
      this.repo.manualPnlBetween(fundId, prev.valuation_date, run.valuation_date),
    ]);
    const byAsset = await this.assetRows(fundId, run.valuation_date, closing, opening, trades);
    const outsideAssets = this.outsideAssetsPnl(run.valuation_date, totals, manual, byAsset);
    if (!outsideAssets.isZero()) {
      byAsset.push({
        asset: MANUAL_PNL_ROW,
        openingMarketValue: '0.00',
        closingMarketValue: '0.00',
        netTrades: '0.00',
        priceEffect: '0.00',
        tradingEffect: money(outsideAssets),
        pnl: money(outsideAssets),
      });
    }
    return this.answer(run, prev, totals, byAsset);
  }

  /** One row per asset held at either run or traded between them, in symbol order. */
  private async assetRows(
    fundId: string,
    date: string,
    closing: RunAssetRow[],
    opening: RunAssetRow[],
    trades: { symbol: string; net_trades: string }[],
  ): Promise<AttributionAssetDto[]> {
    const bySymbol = (rows: RunAssetRow[]) => new Map(rows.map((r) => [r.symbol, r]));
    const close = bySymbol(closing);
    const open = bySymbol(opening);
    const net = new Map(trades.map((t) => [t.symbol, new D(t.net_trades)]));
    const symbols = [...new Set([...close.keys(), ...open.keys(), ...net.keys()])].sort();
    const byAsset: AttributionAssetDto[] = [];
    for (const symbol of symbols) {
      byAsset.push(
        await this.assetRow(fundId, date, symbol, open.get(symbol), close.get(symbol), net.get(symbol) ?? ZERO),
      );
    }
    return byAsset;
  }

  /** An asset's P&L, split into the price effect on the opening quantity and the rest (trading). */
  private async assetRow(
    fundId: string,
    date: string,
    symbol: string,
    o: RunAssetRow | undefined,
    c: RunAssetRow | undefined,
    netTrades: Dec,
  ): Promise<AttributionAssetDto> {
    const openingMv = o ? new D(o.market_value) : ZERO;
    const closingMv = c ? new D(c.market_value) : ZERO;
    const pnl = closingMv.minus(openingMv).minus(netTrades);
    let priceEffect = ZERO;
    if (o && !new D(o.quantity).isZero()) {
      const closePrice = c ? new D(c.price) : new D((await this.repo.closeOn(fundId, symbol, date)) ?? o.price);
      priceEffect = new D(o.quantity).times(closePrice.minus(o.price)).toDecimalPlaces(2, D.ROUND_HALF_UP);
    }
    return {
      asset: symbol,
      openingMarketValue: money(openingMv),
      closingMarketValue: money(closingMv),
      netTrades: money(netTrades),
      priceEffect: money(priceEffect),
      tradingEffect: money(pnl.minus(priceEffect)),
      pnl: money(pnl),
    };
  }

  /**
   * Investment P&L the runs booked outside the position book (manual journal entries): the
   * runs' own investment P&L less what the assets explain. Cross-checked against the ledger.
   */
  private outsideAssetsPnl(date: string, totals: WindowTotals, manual: string, byAsset: AttributionAssetDto[]): Dec {
    const outsideAssets = new D(totals.investment_pnl).minus(sum(byAsset.map((a) => a.pnl)));
    if (!outsideAssets.equals(new D(manual))) {
      this.logger.warn(
        `attribution ${date}: runs book ${outsideAssets.toFixed(2)} of non-asset P&L, the ledger's manual entries ${new D(manual).toFixed(2)}`,
      );
    }
    return outsideAssets;
  }

  /** The answer: NAV change net of flows, checked against the asset rows less fees. */
  private answer(run: RunRow, prev: RunRow, totals: WindowTotals, byAsset: AttributionAssetDto[]): AttributionDto {
    const openingNav = new D(prev.net_asset_value);
    const closingNav = new D(run.net_asset_value);
    const subscriptions = new D(totals.subscriptions);
    const redemptions = new D(totals.redemptions);
    // Flows are never P&L.
    const totalPnl: Dec = closingNav.minus(openingNav).minus(subscriptions).plus(redemptions);
    const fees = [totals.management_fee, totals.performance_fee, totals.expenses].map((v) => new D(v));
    const explained = sum(byAsset.map((a) => a.pnl)).minus(sum(fees));
    if (!explained.equals(totalPnl)) {
      // The books disagree with themselves; say so loudly rather than plug the gap.
      this.logger.error(
        `attribution ${run.valuation_date}: Σ asset pnl − fees = ${explained.toFixed(2)} but NAV change net of flows = ${totalPnl.toFixed(2)}`,
      );
    }
    return {
      date: run.valuation_date,
      previousDate: prev.valuation_date,
      navRunId: run.id,
      previousNavRunId: prev.id,
      openingNav: money(openingNav),
      closingNav: money(closingNav),
      totalPnl: money(totalPnl),
      byAsset,
      fees: { management: money(fees[0]), performance: money(fees[1]), expenses: money(fees[2]) },
      flows: { subscriptions: money(subscriptions), redemptions: money(redemptions) },
    };
  }
}
