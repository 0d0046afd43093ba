import { Injectable } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor';
import { keysetPage } from '../../common/pagination/keyset-page';
import { AnswerCache } from '../common/answer-cache';
import { BooksRepository } from '../common/books.repository';
import {
  D,
  money,
  moneyOrNull,
  navPerUnitOrNull,
  ratio,
  ratioOrNull,
  sum,
  units,
  valuePerUnit,
} from '../common/decimals';
import {
  CapitalAccountsDto,
  CapitalActivityListDto,
  type CapitalActivityQueryDto,
  InvestorsDto,
  type InvestorsQueryDto,
} from './investors.dto';
import { CapitalAccountRow, InvestorsRepository } from './investors.repository';

const MONEY_MEMBERS = [
  ['openingCapital', 'opening_capital'],
  ['contributions', 'contributions'],
  ['redemptions', 'redemptions'],
  ['pnl', 'pnl'],
  ['managementFee', 'management_fee'],
  ['performanceFee', 'performance_fee'],
  ['closingCapital', 'closing_capital'],
] as const;

@Injectable()
export class InvestorsService {
  constructor(
    private readonly repo: InvestorsRepository,
    private readonly books: BooksRepository,
    private readonly cache: AnswerCache,
    private readonly cursors: CursorCodec,
  ) {}

  async investors(fundId: string, q: InvestorsQueryDto): Promise<InvestorsDto> {
    const kind = `fund-investors:${fundId}`;
    const limit = q.limit ?? 100;
    const at = q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { n: 'text', i: 'uuid' });
    const run = await this.books.latestCompleteRun(fundId);
    const [rows, total] = await Promise.all([
      this.repo.investorsWithHoldings(fundId, run?.id ?? null, at && { displayName: at.n, id: at.i }, limit + 1),
      this.repo.investorCount(fundId),
    ]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { n: last.display_name, i: last.investor_id }),
    );
    return {
      items: page.rows.map((r) => ({
        investorId: r.investor_id,
        displayName: r.display_name,
        status: r.status,
        investorType: r.investor_type,
        openLots: r.open_lots,
        units: units(r.units),
      })),
      page: { total, nextCursor: page.nextCursor, hasMore: page.hasMore },
    };
  }

  /** The latest complete run's capital accounts; immutable per run, so cached by run id. */
  async capitalAccounts(fundId: string): Promise<CapitalAccountsDto> {
    const run = await this.books.latestCompleteRun(fundId);
    if (!run) {
      const zero = Object.fromEntries(
        MONEY_MEMBERS.map(([k]) => [k, '0.00']),
      ) as unknown as CapitalAccountsDto['totals'];
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
          investorId: r.investor_id,
          displayName: r.display_name,
          shareClass: r.share_class,
          openingCapital: money(r.opening_capital),
          contributions: money(r.contributions),
          redemptions: money(r.redemptions),
          pnl: money(r.pnl),
          managementFee: money(r.management_fee),
          performanceFee: money(r.performance_fee),
          closingCapital: money(r.closing_capital),
          units: units(r.units),
          classNavPerUnit: navPerUnitOrNull(r.nav_per_unit),
          investorNavPerUnit: new D(r.units).isZero()
            ? null
            : valuePerUnit(new D(r.closing_capital).dividedBy(r.units)),
          ownershipRatio: ratio(r.ownership_ratio),
        })),
        totals,
      };
    });
  }

  async capitalActivity(fundId: string, q: CapitalActivityQueryDto): Promise<CapitalActivityListDto> {
    const status = q.status ?? null;
    // Bound to the fund and the status filter: a cursor of another filter is not valid here.
    const kind = `fund-capital-activity:${fundId}:${status ?? '*'}`;
    const limit = q.limit ?? 100;
    const pos =
      q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { d: 'date', c: 'timestamp', i: 'uuid' });
    const [rows, total] = await Promise.all([
      this.repo.capitalActivity(fundId, status, pos && { dealingDate: pos.d, createdAt: pos.c, id: pos.i }, limit + 1),
      this.repo.capitalActivityCount(fundId, status),
    ]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { d: last.dealing_date, c: last.created_key, i: last.id }),
    );
    return {
      items: page.rows.map((r) => ({
        id: r.id,
        investorId: r.investor_id,
        displayName: r.display_name,
        type: r.type,
        shareClass: r.share_class,
        requestedAmount: moneyOrNull(r.requested_amount),
        requestedFraction: ratioOrNull(r.requested_fraction),
        dealingDate: r.dealing_date,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
        dealt:
          r.dealt_amount === null
            ? null
            : {
                amount: money(r.dealt_amount),
                units: units(r.dealt_units!),
                navPerUnit: valuePerUnit(r.dealt_nav_per_unit!),
                performanceFeeCrystallized: money(r.dealt_fee!),
              },
      })),
      page: { total, nextCursor: page.nextCursor, hasMore: page.hasMore },
    };
  }
}
