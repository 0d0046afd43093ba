import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';

@Injectable()
export class ReportingRepository {
  constructor(private readonly db: ReadReplica) {}

  expensesForFund(fundId: string, limit: number) {
    return this.db.query(
      `SELECT id, category, vendor, description, to_char(accrual_date, 'YYYY-MM-DD') AS accrual_date, amount::text,
              currency, status, to_char(paid_date, 'YYYY-MM-DD') AS paid_date
         FROM expenses WHERE fund_id = $1
        ORDER BY accrual_date DESC, external_id DESC
        LIMIT $2`,
      [fundId, limit],
    ) as Promise<{ id: string; category: string; vendor: string; description: string; accrual_date: string; amount: string; currency: string; status: string; paid_date: string | null }[]>;
  }

  async expenseCount(fundId: string): Promise<number> {
    const rows = await this.db.query(`SELECT count(*)::int AS n FROM expenses WHERE fund_id = $1`, [fundId]);
    return rows[0].n;
  }

  lpReportsForFund(fundId: string, limit: number) {
    return this.db.query(
      `SELECT id, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end,
              status, preview, distributed_at
         FROM lp_reports WHERE fund_id = $1
        ORDER BY period_end DESC, period_start DESC, id
        LIMIT $2`,
      [fundId, limit],
    ) as Promise<{ id: string; period_start: string; period_end: string; status: string; preview: string; distributed_at: Date | null }[]>;
  }

  async lpReportCount(fundId: string): Promise<number> {
    const rows = await this.db.query(`SELECT count(*)::int AS n FROM lp_reports WHERE fund_id = $1`, [fundId]);
    return rows[0].n;
  }
}
