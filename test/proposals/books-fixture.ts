import { randomUUID } from 'node:crypto';
import { call, dbOf, type TestApp } from '../utils/app';

const CHART: [string, string, string, string][] = [
  ['1000', 'Cash at bank', 'asset', 'debit'],
  ['1300', 'Receivables', 'asset', 'debit'],
  ['2100', 'Accrued expenses', 'liability', 'credit'],
  ['3000', 'Capital contributions', 'equity', 'credit'],
  ['4200', 'Interest and other income', 'income', 'credit'],
  ['5300', 'Fund administration', 'expense', 'debit'],
  ['5400', 'Audit', 'expense', 'debit'],
  ['5500', 'Legal', 'expense', 'debit'],
  ['5600', 'Other expenses', 'expense', 'debit'],
];

export interface Books {
  fundId: string;
  investorId: string;
  shareClassId: string;
  closedClassId: string;
  draftReportId: string;
  distributedReportId: string;
  completeRunId: string;
  failedRunId: string;
}

/** Minimal books for a fresh fund: chart, one investor, two classes, LP reports, NAV runs; monthly dealing, 5 days' notice. */
export async function seedBooks(app: TestApp, fundId: string): Promise<Books> {
  const db = dbOf(app);
  await db.query(
    `UPDATE funds SET dealing_frequency = 'monthly', subscription_notice_days = 5, redemption_notice_days = 30 WHERE id = $1`,
    [fundId],
  );
  for (const [code, name, type, normal] of CHART) {
    await db.query(
      `INSERT INTO chart_of_accounts (fund_id, code, name, account_type, normal_balance) VALUES ($1, $2, $3, $4, $5)`,
      [fundId, code, name, type, normal],
    );
  }
  const b: Books = {
    fundId,
    investorId: randomUUID(),
    shareClassId: randomUUID(),
    closedClassId: randomUUID(),
    draftReportId: randomUUID(),
    distributedReportId: randomUUID(),
    completeRunId: randomUUID(),
    failedRunId: randomUUID(),
  };
  await db.query(
    `INSERT INTO share_classes (id, fund_id, name, currency, mgmt_fee_annual_rate, perf_fee_rate, crystallization_frequency, launch_date, initial_nav_per_unit, sort_order, status)
     VALUES ($1, $3, 'Class A', 'USD', 0.02, 0.2, 'annual', '2024-01-01', 1000, 1, 'open'),
            ($2, $3, 'Class Z', 'USD', 0, 0, 'annual', '2024-01-01', 1000, 2, 'closed')`,
    [b.shareClassId, b.closedClassId, fundId],
  );
  await db.query(
    `INSERT INTO investors (id, fund_id, external_id, display_name, investor_type, status, legal_name, email, postal_address, tax_id)
     VALUES ($1, $2, 'INV-1', 'Investor One', 'institution', 'active', 'Secret Legal Name LLC', 'x@example.com', '1 Street', 'TAX-1')`,
    [b.investorId, fundId],
  );
  await db.query(
    `INSERT INTO lp_reports (id, fund_id, external_id, period_start, period_end, status, preview, distributed_at)
     VALUES ($1, $3, 'RPT-Q1', '2025-01-01', '2025-03-31', 'draft', 'Q1 draft', NULL),
            ($2, $3, 'RPT-Q4', '2024-10-01', '2024-12-31', 'distributed', 'Q4', now())`,
    [b.draftReportId, b.distributedReportId, fundId],
  );
  await db.query(
    `INSERT INTO nav_runs (id, fund_id, valuation_date, status, failure_reason, started_at, completed_at, net_asset_value)
     VALUES ($1, $3, '2025-03-31', 'complete', NULL, now(), now(), 1234567.89),
            ($2, $3, '2025-03-30', 'failed', 'missing price', now(), NULL, NULL)`,
    [b.completeRunId, b.failedRunId, fundId],
  );
  return b;
}

/** The next month end at least `minDays` from today (a monthly dealing date with enough notice). */
export function monthEndAfter(minDays: number): string {
  const now = new Date();
  for (let m = 0; m < 24; m++) {
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m + 1, 0));
    if ((end.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) / 86_400_000 >= minDays)
      return end.toISOString().slice(0, 10);
  }
  throw new Error('unreachable');
}

/** Stages a small balanced journal entry (legal to other expenses) with `key`; answers the proposal id. */
export async function stageEntry(app: TestApp, key: string, description = 'staged'): Promise<string> {
  const res = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
    key,
    body: {
      entryDate: '2025-04-15',
      description,
      lines: [
        { accountCode: '5500', debit: '12.00' },
        { accountCode: '5600', credit: '12.00' },
      ],
    },
  });
  if (res.status !== 201) throw new Error(`staging failed: ${res.status} ${res.body}`);
  return res.json.id as string;
}
