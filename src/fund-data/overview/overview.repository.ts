import { Injectable } from '@nestjs/common';
import { ReadReplica } from '../../database/read-replica';
import { SqlRepository } from '../../database/sql-repository';

export interface FundTermsRow {
  base_currency: string;
  inception_date: string | null;
  aum_target: string | null;
  management_fee_basis: string;
  management_fee_accrual: string;
  day_count_convention: string;
  performance_fee_method: string;
  hurdle_type: string;
  hurdle_compounding: string;
  crystallization_events: string[];
  dealing_frequency: string;
  subscription_notice_days: number;
  redemption_notice_days: number;
  settlement_days: number;
}

export interface ShareClassRow {
  name: string;
  currency: string;
  mgmt_fee_annual_rate: string;
  perf_fee_rate: string;
  hurdle_annual_rate: string | null;
  crystallization_frequency: string;
  fee_exempt: boolean;
  status: string;
  launch_date: string;
}

@Injectable()
export class FundProfileRepository extends SqlRepository {
  constructor(db: ReadReplica) {
    super(db);
  }

  async fundTerms(fundId: string): Promise<FundTermsRow | null> {
    const rows: FundTermsRow[] = await this.q.query(
      `SELECT base_currency, to_char(inception_date, 'YYYY-MM-DD') AS inception_date, aum_target::text,
              management_fee_basis, management_fee_accrual, day_count_convention, performance_fee_method,
              hurdle_type, hurdle_compounding, crystallization_events, dealing_frequency,
              subscription_notice_days, redemption_notice_days, settlement_days
         FROM funds WHERE id = $1`,
      [fundId],
    );
    return rows[0] ?? null;
  }

  shareClasses(fundId: string): Promise<ShareClassRow[]> {
    return this.q.query(
      `SELECT name, currency, mgmt_fee_annual_rate::text, perf_fee_rate::text, hurdle_annual_rate::text,
              crystallization_frequency, fee_exempt, status, to_char(launch_date, 'YYYY-MM-DD') AS launch_date
         FROM share_classes WHERE fund_id = $1 ORDER BY sort_order, name`,
      [fundId],
    );
  }
}
