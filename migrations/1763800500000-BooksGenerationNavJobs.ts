import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * - `funds.books_generation`: a per-fund counter bumped in the same transaction as anything that
 *   rewrites the books (purge, NAV run batches, journal entries). Cached answers are keyed by it,
 *   so a re-seed that reproduces the same run ids and entry numbers still misses the cache.
 * - `nav_run_jobs`: NAV runs requested over the admin API run as BullMQ jobs; this is the job
 *   resource (range, progress, outcome). At most one queued or running job per fund (unique index).
 * - the admin listing pages a fund's runs newest first by (started_at, id).
 */
export class BooksGenerationNavJobs1763800500000 implements MigrationInterface {
  name = 'BooksGenerationNavJobs1763800500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE funds ADD COLUMN books_generation bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE nav_run_jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        fund_id uuid NOT NULL REFERENCES funds(id),
        requested_by_key_id uuid,
        valuation_date date NOT NULL,
        from_date date NOT NULL,
        to_date date NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        total_dates integer NOT NULL CHECK (total_dates > 0),
        completed_dates integer NOT NULL DEFAULT 0,
        outcome jsonb,
        error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(
      `CREATE UNIQUE INDEX nav_run_jobs_one_active_per_fund ON nav_run_jobs (fund_id) WHERE status IN ('queued', 'running')`,
    );
    await q.query(`CREATE INDEX nav_run_jobs_fund_created_idx ON nav_run_jobs (fund_id, created_at DESC)`);
    await q.query(`CREATE INDEX nav_runs_fund_started_idx ON nav_runs (fund_id, started_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX nav_runs_fund_started_idx`);
    await q.query(`DROP TABLE nav_run_jobs`);
    await q.query(`ALTER TABLE funds DROP COLUMN books_generation`);
  }
}
