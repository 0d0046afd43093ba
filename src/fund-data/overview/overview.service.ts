import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/problem';
import { AnswerCache } from '../common/answer-cache';
import { BooksRepository } from '../common/books.repository';
import { money, moneyOrNull, ratio, ratioOrNull } from '../common/decimals';
import { servedRunStatus } from '../common/run-status';
import { FeeTermsDto, OverviewDto, ShareClassDto } from './overview.dto';
import { FundProfileRepository, ShareClassRow } from './overview.repository';

const shareClass = (c: ShareClassRow): ShareClassDto => ({
  name: c.name,
  currency: c.currency,
  mgmtFeeAnnualRate: ratio(c.mgmt_fee_annual_rate),
  perfFeeRate: ratio(c.perf_fee_rate),
  hurdleAnnualRate: ratioOrNull(c.hurdle_annual_rate),
  crystallizationFrequency: c.crystallization_frequency,
  feeExempt: c.fee_exempt,
  status: c.status,
});

@Injectable()
export class OverviewService {
  constructor(
    private readonly repo: FundProfileRepository,
    private readonly books: BooksRepository,
    private readonly cache: AnswerCache,
  ) {}

  /**
   * A live answer (at most LIVE_CACHE_SECONDS old, as every live answer): the fund's terms, classes
   * and latest complete run, served `stale` once something booked on or before its date (an approved
   * proposal, an import) marked the NAV to be run again from there (`funds.nav_restart_from`). No
   * query on a cached call: the overview is the hot read issue 17 measures.
   */
  overview(fundId: string): Promise<OverviewDto> {
    return this.cache.liveAnswer(`overview:${fundId}`, async () => {
      const [fund, classes, run] = await Promise.all([
        this.repo.fundTerms(fundId),
        this.repo.shareClasses(fundId),
        this.books.latestCompleteRun(fundId),
      ]);
      const status = run && servedRunStatus(run.status, run.stale);
      if (!fund) throw notFound('fund');
      return {
        fund: {
          baseCurrency: fund.base_currency,
          inceptionDate: fund.inception_date,
          aumTarget: moneyOrNull(fund.aum_target),
        },
        shareClasses: classes.map(shareClass),
        latestNav: run
          ? {
              valuationDate: run.valuation_date,
              status: status!,
              grossAssetValue: money(run.gross_asset_value),
              netAssetValue: money(run.net_asset_value),
            }
          : null,
      };
    });
  }

  async feeTerms(fundId: string): Promise<FeeTermsDto> {
    const [fund, classes] = await Promise.all([this.repo.fundTerms(fundId), this.repo.shareClasses(fundId)]);
    if (!fund) throw notFound('fund');
    return {
      baseCurrency: fund.base_currency,
      managementFeeBasis: fund.management_fee_basis,
      managementFeeAccrual: fund.management_fee_accrual,
      dayCountConvention: fund.day_count_convention,
      performanceFeeMethod: fund.performance_fee_method,
      hurdleType: fund.hurdle_type,
      hurdleCompounding: fund.hurdle_compounding,
      crystallizationEvents: fund.crystallization_events,
      shareClasses: classes.map((c) => ({ ...shareClass(c), launchDate: c.launch_date })),
    };
  }
}
