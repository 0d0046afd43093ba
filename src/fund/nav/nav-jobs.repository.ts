import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type IsoDate } from '../dates';
import { SqlRepository } from '../../database/sql-repository';
import { utcMicros } from '../../database/sql-fragments';

export interface NavJobRow {
  id: string;
  fund_id: string;
  valuation_date: string;
  from_date: string;
  to_date: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  total_dates: number;
  completed_dates: number;
  outcome: Record<string, unknown> | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NavRunListRow {
  id: string;
  valuation_date: string;
  status: string;
  failure_reason: string | null;
  net_asset_value: string | null;
  started_at: Date;
  /** started_at to the microsecond, for the cursor. */
  started_key: string;
  completed_at: Date | null;
  published_at: Date | null;
}

const JOB_COLUMNS = `id, fund_id, to_char(valuation_date, 'YYYY-MM-DD') AS valuation_date, to_char(from_date, 'YYYY-MM-DD') AS from_date,
  to_char(to_date, 'YYYY-MM-DD') AS to_date, status, total_dates, completed_dates, outcome, error, created_at, started_at, finished_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** NAV-run jobs (the admin API's job resource) and the admin listing of a fund's runs. Fund-scoped. */
@Injectable()
export class NavJobsRepository extends SqlRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /** Inserts a queued job, or answers the fund's active job when one is already queued or running. */
  async insertQueued(
    fundId: string,
    keyId: string | null,
    date: IsoDate,
    from: IsoDate,
    to: IsoDate,
    total: number,
  ): Promise<{ job: NavJobRow | null; active: { id: string; ageMs: number } | null }> {
    const rows = await this.q.query(
      `INSERT INTO nav_run_jobs (fund_id, requested_by_key_id, valuation_date, from_date, to_date, total_dates)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (fund_id) WHERE status IN ('queued', 'running') DO NOTHING
       RETURNING ${JOB_COLUMNS}`,
      [fundId, keyId, date, from, to, total],
    );
    if (rows[0]) return { job: rows[0], active: null };
    const [active] = await this.q.query(
      `SELECT id, (extract(epoch FROM clock_timestamp() - created_at) * 1000)::float8 AS "ageMs"
         FROM nav_run_jobs WHERE fund_id = $1 AND status IN ('queued', 'running')`, // the database's clock, as created_at's
      [fundId],
    );
    return { job: null, active: active ?? null };
  }

  async find(fundId: string, jobId: string): Promise<NavJobRow | null> {
    if (!UUID.test(jobId)) return null;
    const [row] = await this.q.query(`SELECT ${JOB_COLUMNS} FROM nav_run_jobs WHERE fund_id = $1 AND id = $2`, [
      fundId,
      jobId,
    ]);
    return row ?? null;
  }

  /** Claims a queued job (or resumes one whose worker died while running); null when it is finished. */
  async start(jobId: string): Promise<NavJobRow | null> {
    const [rows] = await this.q.query(
      `UPDATE nav_run_jobs SET status = 'running', started_at = coalesce(started_at, clock_timestamp())
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${JOB_COLUMNS}`,
      [jobId],
    );
    return rows[0] ?? null;
  }

  /** Whether the job is running and has dates left (false once a delivery of it has done its range or it finished). */
  async isUnfinished(jobId: string): Promise<boolean> {
    const rows = await this.q.query(
      `SELECT 1 FROM nav_run_jobs WHERE id = $1 AND status = 'running' AND completed_dates < total_dates`,
      [jobId],
    );
    return rows.length > 0;
  }

  /** The range the running job really covers, settled under the fund's lock. */
  async settleRange(jobId: string, from: IsoDate, to: IsoDate, total: number): Promise<void> {
    await this.q.query(
      `UPDATE nav_run_jobs SET from_date = $2, to_date = $3, total_dates = $4 WHERE id = $1 AND status = 'running'`,
      [jobId, from, to, total],
    );
  }

  async progress(jobId: string, completedDates: number): Promise<void> {
    await this.q.query(`UPDATE nav_run_jobs SET completed_dates = $2 WHERE id = $1 AND status = 'running'`, [
      jobId,
      completedDates,
    ]);
  }

  async finish(
    jobId: string,
    status: 'succeeded' | 'failed',
    outcome: Record<string, unknown> | null,
    error: string | null,
  ): Promise<void> {
    await this.q.query(
      `UPDATE nav_run_jobs SET status = $2, outcome = $3, error = $4, finished_at = clock_timestamp() WHERE id = $1 AND status IN ('queued', 'running')`,
      [jobId, status, outcome === null ? null : JSON.stringify(outcome), error],
    );
  }

  /**
   * The fund's runs, newest first by (started_at, id), after the cursor position; a complete run dated
   * on or after funds.nav_restart_from is listed `stale` (it must be run again; publishing it is 409).
   */
  listRuns(fundId: string, after: { t: string; id: string } | null, limit: number): Promise<NavRunListRow[]> {
    return this.q.query(
      `SELECT id, to_char(valuation_date, 'YYYY-MM-DD') AS valuation_date,
              CASE WHEN status = 'complete' AND valuation_date >= (SELECT nav_restart_from FROM funds WHERE id = $1)
                   THEN 'stale' ELSE status END AS status, failure_reason,
              CASE WHEN status IN ('complete', 'superseded') THEN net_asset_value::text END AS net_asset_value,
              started_at, ${utcMicros('started_at')} AS started_key, completed_at, published_at
         FROM nav_runs
        WHERE fund_id = $1 AND ($2::timestamptz IS NULL OR (started_at, id) < ($2::timestamptz, $3::uuid))
        ORDER BY started_at DESC, id DESC
        LIMIT $4`,
      [fundId, after?.t ?? null, after?.id ?? null, limit],
    );
  }
}
