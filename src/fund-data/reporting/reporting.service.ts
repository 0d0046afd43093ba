import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/problem';
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
  ) {}

  async expenses(fundId: string, limit = 100): Promise<ExpensesDto> {
    const [rows, total] = await Promise.all([this.repo.expensesForFund(fundId, limit), this.repo.expenseCount(fundId)]);
    return {
      items: rows.map((r) => ({
        id: r.id, category: r.category, vendor: r.vendor, description: r.description, accrualDate: r.accrual_date,
        amount: money(r.amount), currency: r.currency, status: r.status, paidDate: r.paid_date,
      })),
      total,
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

  async lpReports(fundId: string, limit = 100): Promise<LpReportsDto> {
    const [rows, total] = await Promise.all([this.repo.lpReportsForFund(fundId, limit), this.repo.lpReportCount(fundId)]);
    return {
      items: rows.map((r) => ({
        id: r.id, periodStart: r.period_start, periodEnd: r.period_end, status: r.status, preview: r.preview,
        distributedAt: r.distributed_at ? new Date(r.distributed_at).toISOString() : null,
      })),
      total,
    };
  }
}
