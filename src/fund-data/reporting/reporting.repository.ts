import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';

@Injectable()
export class ReportingRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  /**
   * One keyset page, most recent accrual first. The position is the last row's (accrual_date,
   * external_id), unique per fund, compared as a row value, so the (fund_id, accrual_date desc,
   * external_id desc) index seeks straight to it, and a position whose row has since gone (a
   * re-import) still resumes where it was.
   */
  expensesForFund(fundId: string, after: { accrualDate: string; externalId: string } | null, limit: number) {
    return this.q.query(
      `SELECT e.id, e.category, e.vendor, e.description, to_char(e.accrual_date, 'YYYY-MM-DD') AS accrual_date, e.amount::text,
              e.currency, e.status, to_char(e.paid_date, 'YYYY-MM-DD') AS paid_date, e.external_id
         FROM expenses e
        WHERE e.fund_id = $1
          AND ($2::date IS NULL OR (e.accrual_date, e.external_id) < ($2::date, $3::text))
        ORDER BY e.accrual_date DESC, e.external_id DESC
        LIMIT $4`,
      [fundId, after?.accrualDate ?? null, after?.externalId ?? null, limit],
    ) as Promise<
      {
        id: string;
        category: string;
        vendor: string;
        description: string;
        accrual_date: string;
        amount: string;
        currency: string;
        status: string;
        paid_date: string | null;
        external_id: string;
      }[]
    >;
  }

  async expenseCount(fundId: string): Promise<number> {
    const rows = await this.q.query(`SELECT count(*)::int AS n FROM expenses WHERE fund_id = $1`, [fundId]);
    return rows[0].n;
  }

  /** One keyset page, most recent period first, on the (fund_id, period_end desc, period_start desc, id desc) index. */
  lpReportsForFund(
    fundId: string,
    after: { periodEnd: string; periodStart: string; id: string } | null,
    limit: number,
  ) {
    return this.q.query(
      `SELECT id, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end,
              status, preview, distributed_at
         FROM lp_reports
        WHERE fund_id = $1
          AND ($2::date IS NULL OR (period_end, period_start, id) < ($2::date, $3::date, $4::uuid))
        ORDER BY lp_reports.period_end DESC, lp_reports.period_start DESC, lp_reports.id DESC
        LIMIT $5`,
      [fundId, after?.periodEnd ?? null, after?.periodStart ?? null, after?.id ?? null, limit],
    ) as Promise<
      {
        id: string;
        period_start: string;
        period_end: string;
        status: string;
        preview: string;
        distributed_at: Date | null;
      }[]
    >;
  }

  async lpReportCount(fundId: string): Promise<number> {
    const rows = await this.q.query(`SELECT count(*)::int AS n FROM lp_reports WHERE fund_id = $1`, [fundId]);
    return rows[0].n;
  }
}
