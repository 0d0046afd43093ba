import { Injectable } from '@nestjs/common';
import { AnswerCache } from '../common/answer-cache';
import { BooksRepository } from '../common/books.repository';
import { D, Dec, money, moneyOrNull, navPerUnitOrNull, ratio, ratioOrNull, sum, units, valuePerUnit } from '../common/decimals';
import { CapitalAccountsDto, CapitalActivityListDto, InvestorsDto } from './investors.dto';
import { CapitalAccountRow, InvestorsRepository } from './investors.repository';

const MONEY_MEMBERS = [
  ['openingCapital', 'opening_capital'], ['contributions', 'contributions'], ['redemptions', 'redemptions'], ['pnl', 'pnl'],
  ['managementFee', 'management_fee'], ['performanceFee', 'performance_fee'], ['closingCapital', 'closing_capital'],
] as const;

@Injectable()
export class InvestorsService {
  constructor(
    private readonly repo: InvestorsRepository,
    private readonly books: BooksRepository,
    private readonly cache: AnswerCache,
  ) {}

  async investors(fundId: string, limit = 100): Promise<InvestorsDto> {
    const run = await this.books.latestCompleteRun(fundId);
    const [rows, total] = await Promise.all([this.repo.investorsWithHoldings(fundId, run?.id ?? null, limit), this.repo.investorCount(fundId)]);
    return {
      items: rows.map((r) => ({
        investorId: r.investor_id, displayName: r.display_name, status: r.status, investorType: r.investor_type,
        openLots: r.open_lots, units: units(r.units),
      })),
      total,
    };
  }

  /** The latest complete run's capital accounts; immutable per run, so cached by run id. */
  async capitalAccounts(fundId: string): Promise<CapitalAccountsDto> {
    const run = await this.books.latestCompleteRun(fundId);
    if (!run) {
      const zero = Object.fromEntries(MONEY_MEMBERS.map(([k]) => [k, '0.00'])) as unknown as CapitalAccountsDto['totals'];
      return { navRunId: null, valuationDate: null, accounts: [], totals: zero };
    }
    return this.cache.immutableAnswer(fundId, `capital-accounts:${run.id}`, async () => {
      const rows = await this.repo.capitalAccountsOfRun(fundId, run.id);
      const totals = Object.fromEntries(
        MONEY_MEMBERS.map(([k, col]) => [k, money(sum(rows.map((r: CapitalAccountRow) => r[col])))]),
      ) as unknown as CapitalAccountsDto['totals'];
      return {
        navRunId: run.id,
        valuationDate: run.valuation_date,
        accounts: rows.map((r) => ({
          investorId: r.investor_id, displayName: r.display_name, shareClass: r.share_class,
          openingCapital: money(r.opening_capital), contributions: money(r.contributions), redemptions: money(r.redemptions),
          pnl: money(r.pnl), managementFee: money(r.management_fee), performanceFee: money(r.performance_fee),
          closingCapital: money(r.closing_capital), units: units(r.units), classNavPerUnit: navPerUnitOrNull(r.nav_per_unit),
          investorNavPerUnit: new D(r.units).isZero() ? null : valuePerUnit(new D(r.closing_capital).dividedBy(r.units)),
          ownershipRatio: ratio(r.ownership_ratio),
        })),
        totals,
      };
    });
  }

  async capitalActivity(fundId: string, status: string | undefined, limit = 100): Promise<CapitalActivityListDto> {
    const [rows, total] = await Promise.all([
      this.repo.capitalActivity(fundId, status ?? null, limit),
      this.repo.capitalActivityCount(fundId, status ?? null),
    ]);
    return {
      items: rows.map((r) => ({
        id: r.id, investorId: r.investor_id, displayName: r.display_name, type: r.type, shareClass: r.share_class,
        requestedAmount: moneyOrNull(r.requested_amount), requestedFraction: ratioOrNull(r.requested_fraction),
        dealingDate: r.dealing_date, status: r.status, createdAt: new Date(r.created_at).toISOString(),
      })),
      total,
    };
  }
}
