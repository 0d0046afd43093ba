import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/problem';
import { CursorCodec } from '../../common/pagination/cursor';
import { type CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { keysetPage } from '../../common/pagination/keyset-page';
import { todayUtc } from '../../common/validation/calendar-date';
import { money } from '../common/decimals';
import { FundProfileRepository } from '../overview/overview.repository';
import { nextDealingDate } from '../../fund/reporting/dealing-calendar';
import { DealingCalendarDto, ExpensesDto, LpReportsDto } from './reporting.dto';
import { ReportingRepository } from './reporting.repository';

@Injectable()
export class ReportingService {
  constructor(
    private readonly repo: ReportingRepository,
    private readonly profile: FundProfileRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async expenses(fundId: string, q: CursorPageQueryDto): Promise<ExpensesDto> {
    const kind = `fund-expenses:${fundId}`;
    const limit = q.limit ?? 100;
    const at = q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { d: 'date', x: 'text' });
    const [rows, total] = await Promise.all([
      this.repo.expensesForFund(fundId, at && { accrualDate: at.d, externalId: at.x }, limit + 1),
      this.repo.expenseCount(fundId),
    ]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { d: last.accrual_date, x: last.external_id }),
    );
    return {
      items: page.rows.map((r) => ({
        id: r.id,
        category: r.category,
        vendor: r.vendor,
        description: r.description,
        accrualDate: r.accrual_date,
        amount: money(r.amount),
        currency: r.currency,
        status: r.status,
        paidDate: r.paid_date,
      })),
      page: { total, nextCursor: page.nextCursor, hasMore: page.hasMore },
    };
  }

  async dealingCalendar(fundId: string): Promise<DealingCalendarDto> {
    const fund = await this.profile.fundTerms(fundId);
    if (!fund) throw notFound('fund');
    return {
      dealing: {
        frequency: fund.dealing_frequency,
        subscriptionNoticeDays: fund.subscription_notice_days,
        redemptionNoticeDays: fund.redemption_notice_days,
        settlementDays: fund.settlement_days,
        nextDealingDate: nextDealingDate(fund.dealing_frequency, todayUtc()),
      },
    };
  }

  async lpReports(fundId: string, q: CursorPageQueryDto): Promise<LpReportsDto> {
    const kind = `fund-lp-reports:${fundId}`;
    const limit = q.limit ?? 100;
    const pos =
      q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { e: 'date', s: 'date', i: 'uuid' });
    const after = pos && { periodEnd: pos.e, periodStart: pos.s, id: pos.i };
    const [rows, total] = await Promise.all([
      this.repo.lpReportsForFund(fundId, after, limit + 1),
      this.repo.lpReportCount(fundId),
    ]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { e: last.period_end, s: last.period_start, i: last.id }),
    );
    return {
      items: page.rows.map((r) => ({
        id: r.id,
        periodStart: r.period_start,
        periodEnd: r.period_end,
        status: r.status,
        preview: r.preview,
        distributedAt: r.distributed_at ? new Date(r.distributed_at).toISOString() : null,
      })),
      page: { total, nextCursor: page.nextCursor, hasMore: page.hasMore },
    };
  }
}
