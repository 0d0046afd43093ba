import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/problem';
import { D, Dec, ZERO, money, ratio, sum } from '../common/decimals';
import { LiveBookService } from '../common/live-book.service';
import { StressPresetsDto, StressTestDto } from './risk.dto';
import { RiskRepository } from './risk.repository';

@Injectable()
export class StressService {
  constructor(
    private readonly live: LiveBookService,
    private readonly repo: RiskRepository,
  ) {}

  async presets(fundId: string): Promise<StressPresetsDto> {
    const rows = await this.repo.stressPresets(fundId, null);
    return {
      items: rows.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        windowStart: p.window_start,
        windowEnd: p.window_end,
        source: p.source,
        returns: Object.fromEntries(Object.entries(p.returns).map(([k, v]) => [k, ratio(v)])),
      })),
      total: rows.length,
    };
  }

  /** Current live positions × the preset's return per asset (asset-class fallback otherwise). */
  async stressTest(fundId: string, presetId: string): Promise<StressTestDto> {
    const [preset] = await this.repo.stressPresets(fundId, presetId);
    if (!preset) throw notFound(`stress preset ${presetId}`);
    const book = await this.live.book(fundId);
    const assets = new Map<string, { assetClass: string; mv: Dec }>();
    for (const p of book.positions) {
      const a = assets.get(p.asset) ?? { assetClass: p.assetClass, mv: ZERO };
      a.mv = a.mv.plus(p.marketValue);
      assets.set(p.asset, a);
    }
    const byAsset = [...assets.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([asset, a]) => {
        const named = preset.returns[asset];
        const fallback = named === undefined;
        const r = new D(named ?? preset.fallbacks[a.assetClass] ?? '0');
        const pnl = a.mv.times(r).toDecimalPlaces(2, D.ROUND_HALF_UP);
        return { asset, assetClass: a.assetClass, mv: a.mv, r, pnl, fallback };
      });
    const pnl = sum(byAsset.map((a) => a.pnl));
    return {
      preset: preset.id,
      asOf: book.asOf,
      nav: book.nav ? money(book.nav) : null,
      pnl: money(pnl),
      pnlRatio: book.nav && !book.nav.isZero() ? ratio(pnl.dividedBy(book.nav)) : null,
      byAsset: byAsset.map((a) => ({
        asset: a.asset,
        assetClass: a.assetClass,
        marketValue: money(a.mv),
        returnRatio: ratio(a.r),
        pnl: money(a.pnl),
        fallback: a.fallback,
      })),
      fallbackAssets: byAsset.filter((a) => a.fallback).map((a) => a.asset),
    };
  }
}
