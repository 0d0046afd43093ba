import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type IsoDate } from '../dates';
import { type Decimal } from '../money';
import { deserializeState, serializeState } from './engine-state';
import { type DayFailure, type DayValuation, type EngineState } from './engine-types';
import { SqlRepository } from '../../database/sql-repository';
import { lockNavInputs, lockNavInputsForRequest } from '../../database/sql-fragments';

export interface CompleteRunRef {
  id: string;
  valuationDate: IsoDate;
}

const m = (d: Decimal) => d.toFixed(2);

/** Writes NAV runs, their results and their journal entries; reads run checkpoints. */
@Injectable()
export class NavRunRepository extends SqlRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  /**
   * Waits for the fund's NAV-inputs lock and holds it until this transaction ends (bind with
   * `with(qr)` to a transaction of its own that the run keeps open, then rolls back): a transaction
   * lock cannot outlive its holder on a pooled connection, whatever fails.
   */
  async holdInputsLock(fundId: string, waitMs = 0): Promise<void> {
    // `waitMs` 0: a run waits its turn behind another run or an import however long it takes (this
    // transaction holds nothing else); the transaction may stay idle for the whole run.
    await this.q.query(
      `SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', '0', true),
              set_config('idle_in_transaction_session_timeout', '0', true)`,
      [String(waitMs)],
    );
    await lockNavInputs(
      this.q,
      fundId,
      () => new Error('another NAV run or an import of this fund is in progress; try again when it has finished'),
    );
  }

  /** Throws when the connection holding the inputs lock is gone (and the lock with it). */
  async assertInputsLockHeld(): Promise<void> {
    await this.q.query('SELECT 1');
  }

  /** The first date a run stopped short of (funds.nav_restart_from); null when the last run reached its end. */
  async restartFrom(fundId: string): Promise<IsoDate | null> {
    const [row] = await this.q.query(`SELECT nav_restart_from::text AS d FROM funds WHERE id = $1`, [fundId]);
    return row?.d ?? null;
  }

  /** In a run's batch transaction: where the run must go on from after this batch (null: it reached its end). */
  async setRestartFrom(fundId: string, date: IsoDate | null): Promise<void> {
    await this.q.query(`UPDATE funds SET nav_restart_from = $2 WHERE id = $1`, [fundId, date]);
  }

  async lastCompleteRunBefore(
    fundId: string,
    date: IsoDate,
  ): Promise<{ ref: CompleteRunRef; state: EngineState } | null> {
    const [row] = await this.q.query(
      `SELECT id, valuation_date::text AS d, engine_state FROM nav_runs
        WHERE fund_id = $1 AND status = 'complete' AND valuation_date < $2 ORDER BY valuation_date DESC LIMIT 1`,
      [fundId, date],
    );
    return row ? { ref: { id: row.id, valuationDate: row.d }, state: deserializeState(row.engine_state) } : null;
  }

  /** Every administrator NAV that has a complete shadow run for its date, newest first. */
  async reconciliationPairs(fundId: string, limit: number): Promise<{ d: string; shadow: string; admin: string }[]> {
    return this.q.query(
      `SELECT a.valuation_date::text AS d, r.net_asset_value::text AS shadow, a.net_asset_value::text AS admin
         FROM admin_navs a JOIN nav_runs r ON r.fund_id = a.fund_id AND r.valuation_date = a.valuation_date AND r.status = 'complete'
        WHERE a.fund_id = $1 ORDER BY a.valuation_date DESC LIMIT $2`,
      [fundId, limit],
    );
  }

  /** The newest run for a date (complete, failed or running). */
  async latestRunFor(
    fundId: string,
    date: IsoDate,
  ): Promise<{
    id: string;
    valuation_date: string;
    status: string;
    failure_reason: string | null;
    started_at: Date;
    completed_at: Date | null;
    gav: string | null;
    nav: string | null;
    supersedes_run_id: string | null;
  } | null> {
    const [row] = await this.q.query(
      `SELECT id, valuation_date::text AS valuation_date, status, failure_reason, started_at, completed_at,
              gross_asset_value::text AS gav, net_asset_value::text AS nav, supersedes_run_id
         FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 ORDER BY started_at DESC, (status = 'complete') DESC LIMIT 1`,
      [fundId, date],
    );
    return row ?? null;
  }

  /**
   * Publication's hold on the fund's NAV inputs for its transaction, within the pool's lock_timeout:
   * an approval booking into a valued date commits wholly before it (and publication sees the
   * restart marker it set) or after it (and sees the books closed through the published date).
   */
  async lockInputsForPublication(fundId: string): Promise<void> {
    await lockNavInputsForRequest(this.q, fundId, 'publish');
  }

  /** A run of the fund, locked for publication (null: no such run). */
  async lockForPublication(
    fundId: string,
    runId: string,
  ): Promise<{
    id: string;
    status: string;
    published_at: Date | null;
    valuation_date: IsoDate;
    restart_from: IsoDate | null;
  } | null> {
    const rows = await this.q.query(
      `SELECT r.id, r.status, r.published_at, r.valuation_date::text AS valuation_date,
              f.nav_restart_from::text AS restart_from
         FROM nav_runs r JOIN funds f ON f.id = r.fund_id
        WHERE r.fund_id = $1 AND r.id = $2 FOR UPDATE OF r`,
      [fundId, runId],
    );
    return rows[0] ?? null;
  }

  /** Marks the run published; `fundId` again in the WHERE, so a run of another fund is never touched (defence in depth). */
  async markPublished(
    fundId: string,
    runId: string,
    keyId: string | null,
    userId: string | null,
  ): Promise<{ id: string; valuation_date: string; status: string; net_asset_value: string; published_at: Date }> {
    const [updated] = await this.q.query(
      `UPDATE nav_runs SET published_at = clock_timestamp(), published_by_key_id = $2, published_by_user_id = $3 WHERE id = $1 AND fund_id = $4
       RETURNING id, valuation_date::text AS valuation_date, status, net_asset_value::text AS net_asset_value, published_at`,
      [runId, keyId, userId, fundId],
    );
    return updated[0];
  }

  async lastCompleteDate(fundId: string): Promise<IsoDate | null> {
    const [row] = await this.q.query(
      `SELECT max(valuation_date)::text AS d FROM nav_runs WHERE fund_id = $1 AND status = 'complete'`,
      [fundId],
    );
    return row.d;
  }

  async completeRunsBetween(fundId: string, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, string>> {
    const rows = await this.q.query(
      `SELECT id, valuation_date::text AS d FROM nav_runs WHERE fund_id = $1 AND status = 'complete' AND valuation_date BETWEEN $2 AND $3`,
      [fundId, from, to],
    );
    return new Map(rows.map((r: { id: string; d: string }) => [r.d, r.id]));
  }

  async attemptsBetween(fundId: string, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, number>> {
    const rows = await this.q.query(
      `SELECT valuation_date::text AS d, count(*)::int AS n FROM nav_runs WHERE fund_id = $1 AND valuation_date BETWEEN $2 AND $3 GROUP BY 1`,
      [fundId, from, to],
    );
    return new Map(rows.map((r: { d: string; n: number }) => [r.d, r.n]));
  }

  /**
   * Records a failed run and returns its id; when the newest run of that date already failed for the
   * same reason (a re-import or re-run still stuck on the same missing price), that run is returned
   * instead of adding another identical row each time.
   */
  async insertFailedRun(fundId: string, runId: string, failure: DayFailure, at: Date): Promise<string> {
    const rows = await this.q.query(
      `WITH newest AS (
         SELECT id, status, failure_reason FROM nav_runs WHERE fund_id = $2 AND valuation_date = $3
          ORDER BY started_at DESC, id DESC LIMIT 1
       ), added AS (
         INSERT INTO nav_runs (id, fund_id, valuation_date, status, failure_reason, started_at, completed_at)
         SELECT $1, $2, $3, 'failed', $4, $5, $5
          WHERE NOT EXISTS (SELECT 1 FROM newest WHERE status = 'failed' AND failure_reason = $4)
         RETURNING id
       )
       SELECT id FROM added UNION ALL SELECT id FROM newest WHERE status = 'failed' AND failure_reason = $4`,
      [runId, fundId, failure.date, failure.reason, at.toISOString()],
    );
    return rows[0].id;
  }

  /** Inserts the runs as `running`; `completeRuns` flips them once superseded runs are reversed. */
  async insertRunningRuns(fundId: string, runs: { id: string; day: DayValuation; at: Date }[]): Promise<void> {
    const col = <T>(f: (r: { id: string; day: DayValuation; at: Date }) => T) => runs.map(f);
    await this.q.query(
      `INSERT INTO nav_runs (fund_id, id, valuation_date, status, started_at, opening_nav, gross_asset_value, total_liabilities,
                             net_asset_value, investment_pnl, expenses, management_fee, performance_fee, subscriptions, redemptions, engine_state)
       SELECT $1, u.id, u.d, 'running', u.at, u.opening, u.gav, u.liab, u.nav, u.pnl, u.exp, u.mgmt, u.perf, u.subs, u.reds, u.state
         FROM unnest($2::uuid[], $3::date[], $4::timestamptz[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[],
                     $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[], $15::jsonb[])
           AS u(id, d, at, opening, gav, liab, nav, pnl, exp, mgmt, perf, subs, reds, state)`,
      [
        fundId,
        col((r) => r.id),
        col((r) => r.day.date),
        col((r) => r.at.toISOString()),
        col((r) => m(r.day.summary.openingNav)),
        col((r) => m(r.day.summary.grossAssetValue)),
        col((r) => m(r.day.summary.totalLiabilities)),
        col((r) => m(r.day.summary.nav)),
        col((r) => m(r.day.summary.investmentPnl)),
        col((r) => m(r.day.summary.expenses)),
        col((r) => m(r.day.summary.managementFee)),
        col((r) => m(r.day.summary.performanceFee)),
        col((r) => m(r.day.summary.subscriptions)),
        col((r) => m(r.day.summary.redemptions)),
        col((r) => JSON.stringify(serializeState(r.day.state))),
      ],
    );
  }

  /** Marks a complete run superseded and posts one reversing entry per entry it booked. Returns the entries posted. */
  async supersede(
    fundId: string,
    oldRunId: string,
    newRunId: string,
    firstEntryNumber: number,
    postedAt: Date,
  ): Promise<number> {
    await this.q.query(
      `UPDATE nav_runs SET status = 'superseded', superseded_by_run_id = $2 WHERE id = $1 AND fund_id = $3`,
      [oldRunId, newRunId, fundId],
    );
    await this.q.query(`UPDATE nav_runs SET supersedes_run_id = $1 WHERE id = $2`, [oldRunId, newRunId]);
    const [row] = await this.q.query(
      `WITH originals AS (
         SELECT e.*, row_number() OVER (ORDER BY e.entry_number) - 1 AS k FROM journal_entries e
          WHERE e.fund_id = $1 AND e.nav_run_id = $2 AND e.status = 'posted'),
       ins AS (
         INSERT INTO journal_entries (id, fund_id, entry_number, entry_date, posted_at, description, source, source_ref, nav_run_id, status, reverses_entry_id)
         SELECT md5($1::text || ':reversal:' || o.id::text)::uuid, $1, $3 + o.k, o.entry_date, $5, 'Reversal of #' || o.entry_number || ': ' || o.description,
                'reversal', o.source_ref, $4, 'reversal', o.id FROM originals o
         RETURNING 1)
       SELECT count(*)::int AS n FROM ins`,
      [fundId, oldRunId, firstEntryNumber, newRunId, postedAt.toISOString()],
    );
    await this.q.query(
      `INSERT INTO journal_lines (fund_id, entry_id, line_no, entry_date, account_code, debit, credit, currency, description, share_class_id)
       SELECT l.fund_id, r.id, l.line_no, l.entry_date, l.account_code, l.credit, l.debit, l.currency, 'Reversal: ' || l.description, l.share_class_id
         FROM journal_entries r JOIN journal_lines l ON l.entry_id = r.reverses_entry_id
        WHERE r.fund_id = $1 AND r.nav_run_id = $2 AND r.status = 'reversal'`,
      [fundId, newRunId],
    );
    return row.n;
  }

  async completeRuns(runIds: string[], completedAt: Date[]): Promise<void> {
    await this.q.query(
      `UPDATE nav_runs r SET status = 'complete', completed_at = u.at FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) WHERE r.id = u.id`,
      [runIds, completedAt.map((d) => d.toISOString())],
    );
  }

  /** Executed activity whose settlement date has a complete run becomes settled. */
  async settleActivity(fundId: string, throughDate: IsoDate): Promise<void> {
    await this.q.query(
      `UPDATE capital_activity ca SET status = 'settled' FROM funds f
        WHERE ca.fund_id = $1 AND f.id = ca.fund_id AND ca.status = 'executed' AND ca.dealing_date + f.settlement_days <= $2::date`,
      [fundId, throughDate],
    );
  }

  async referenceIds(fundId: string): Promise<{ symbols: Map<string, string>; connections: Map<string, string> }> {
    const [symbols, connections] = await Promise.all([
      this.q.query(`SELECT id, symbol FROM instruments WHERE fund_id = $1`, [fundId]),
      this.q.query(`SELECT id, code FROM connections WHERE fund_id = $1`, [fundId]),
    ]);
    return {
      symbols: new Map(symbols.map((r: { id: string; symbol: string }) => [r.symbol, r.id])),
      connections: new Map(connections.map((r: { id: string; code: string }) => [r.code, r.id])),
    };
  }
}
