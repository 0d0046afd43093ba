import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { addDays } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { NavJobQueue } from '../../src/fund/nav/nav-job.queue';
import { NavRunRepository } from '../../src/fund/nav/nav-run.repository';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bootApp, call, createFund, dbOf, mintKey, type ResponseJson, type TestApp } from '../utils/app';

const SLUG = 'nav-admin-fund';
const MAX_DAYS = 40;

/** NAV runs as jobs (issue 13, finding 8): enqueue → 202, poll the job, one job per fund, bounded ranges. */
describe('admin NAV runs as jobs (e2e)', () => {
  let app: TestApp;
  let fundId: string;
  let publisher: string;

  const post = (valuationDate: unknown, key = publisher) =>
    call(app, 'POST', '/api/v1/admin/nav-runs', { key, body: { valuationDate } });
  async function settle(jobId: string): Promise<ResponseJson> {
    for (let i = 0; i < 600; i++) {
      const res = await call(app, 'GET', `/api/v1/admin/nav-jobs/${jobId}`, { key: publisher });
      expect(res.status).toBe(200);
      if (res.json.status === 'succeeded' || res.json.status === 'failed') return res.json;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  beforeAll(async () => {
    app = await bootApp(
      {},
      { NAV_RUN_MAX_DAYS: String(MAX_DAYS), DB_STATEMENT_TIMEOUT_MS: '45000', DB_LOCK_TIMEOUT_MS: '7000' },
    );
    const dir = join(tmpdir(), `fundgate-nav-admin-${process.pid}`);
    generateDemoFund({ seed: 99, outDir: dir, trades: 300, through: addDays(DEMO_INCEPTION_DATE, 6 + MAX_DAYS) });
    await importFundFolder(dbOf(app), SLUG, dir, { synthetic: true });
    fundId = fundIdForSlug(SLUG);
    await new NavRunService(dbOf(app)).runNavRange(fundId, {
      to: addDays(DEMO_INCEPTION_DATE, 5),
      clock: demoClock(2),
    });
    publisher = (await mintKey(app, { scopes: ['nav:publish', 'fund:read'], fund: SLUG })).key;
  });
  afterAll(() => app.close());

  it('enqueues a run (202 + job resource), records progress and outcome, and the run lands in the books', async () => {
    const date = addDays(DEMO_INCEPTION_DATE, 6);
    const res = await post(date);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      valuationDate: date,
      fromDate: date,
      toDate: date,
      status: expect.stringMatching(/^(queued|running|succeeded)$/),
    });
    expect(res.headers.location).toBe(`/api/v1/admin/nav-jobs/${res.json.jobId}`);
    const job = await settle(res.json.jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: { completedDates: 1, totalDates: 1 }, error: null });
    expect(job.outcome).toMatchObject({ completedRuns: 1, supersededRuns: 0, failedRun: null, lastCompleteDate: date });
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
    const [row] = await dbOf(app).query(
      `SELECT id, net_asset_value::text AS nav FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 AND status = 'complete'`,
      [fundId, date],
    );
    expect(job.outcome.navRunId).toBe(row.id);
    expect(job.outcome.netAssetValue).toBe(row.nav);
  });

  it('a re-run supersedes the complete run; the listing shows both, newest first, cursor-paged', async () => {
    const date = addDays(DEMO_INCEPTION_DATE, 6);
    const [before] = await dbOf(app).query(
      `SELECT id FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 AND status = 'complete'`,
      [fundId, date],
    );
    const job = await settle((await post(date)).json.jobId);
    expect(job.outcome.supersededRuns).toBe(1);
    const page = await call(app, 'GET', '/api/v1/admin/nav-runs?limit=2', { key: publisher });
    expect(page.status).toBe(200);
    expect(page.json.items.map((r: { status: string; valuationDate: string }) => [r.valuationDate, r.status])).toEqual([
      [date, 'complete'],
      [date, 'superseded'],
    ]);
    expect(page.json.items[1].navRunId).toBe(before.id);
    expect(page.json.items[0]).toMatchObject({
      failureReason: null,
      publishedAt: null,
      netAssetValue: expect.stringMatching(/^\d+\.\d{2}$/),
    });
    expect(page.json.hasMore).toBe(true);
    const next = await call(
      app,
      'GET',
      `/api/v1/admin/nav-runs?limit=100&cursor=${encodeURIComponent(page.json.nextCursor)}`,
      { key: publisher },
    );
    expect(next.json.items[0].valuationDate).toBe(addDays(DEMO_INCEPTION_DATE, 5));
    expect(next.json.items).toHaveLength(6);
    expect(next.json.hasMore).toBe(false);
    const bad = await call(app, 'GET', '/api/v1/admin/nav-runs?cursor=nope', { key: publisher });
    expect(bad.status).toBe(400);
  });

  it('one job per fund at a time: a second request gets 409 naming the running job', async () => {
    const first = await post(addDays(DEMO_INCEPTION_DATE, 6 + MAX_DAYS));
    expect(first.status).toBe(202);
    const second = await post(addDays(DEMO_INCEPTION_DATE, 8));
    expect(second.status).toBe(409);
    expect(second.json.code).toBe('nav_job_in_progress');
    expect(second.json.detail).toContain(first.json.jobId);
    expect(second.headers.location).toBe(`/api/v1/admin/nav-jobs/${first.json.jobId}`);
    const job = await settle(first.json.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.progress).toEqual({ completedDates: MAX_DAYS, totalDates: MAX_DAYS });
  });

  /** A one-date job row for the last complete date, as a request or a worker would have left it (`columns`: SQL values). */
  async function jobRow(columns: Record<string, string>): Promise<{ id: string; date: string }> {
    const date = (await new NavRunRepository(dbOf(app)).lastCompleteDate(fundId))!;
    const names = ['fund_id', 'valuation_date', 'from_date', 'to_date', 'total_dates', ...Object.keys(columns)];
    const values = ['$1', '$2', '$2', '$2', '1', ...Object.values(columns)];
    const [row] = await dbOf(app).query(
      `INSERT INTO nav_run_jobs (${names.join(', ')}) VALUES (${values.join(', ')}) RETURNING id`,
      [fundId, date],
    );
    return { id: row.id, date };
  }

  it('a job row its queue lost stops blocking the fund; one whose queue job may still be on its way keeps blocking', async () => {
    const db = dbOf(app);
    const orphan = await jobRow({ created_at: "clock_timestamp() - interval '5 seconds'" });
    const date = orphan.date;
    const young = await post(date);
    expect([young.status, young.json.code]).toEqual([409, 'nav_job_in_progress']);
    await db.query(`UPDATE nav_run_jobs SET created_at = created_at - interval '2 minutes' WHERE id = $1`, [orphan.id]);
    const res = await post(date);
    expect(res.status).toBe(202);
    const [lost] = await db.query(`SELECT status, error FROM nav_run_jobs WHERE id = $1`, [orphan.id]);
    expect(lost).toEqual({ status: 'failed', error: 'lost: the queue no longer holds it' });
    expect((await settle(res.json.jobId)).status).toBe('succeeded');
  });

  it('a job delivered again after a delivery has done its range does not run it twice', async () => {
    const db = dbOf(app);
    // the first delivery has run every date and is about to record the outcome
    const job = await jobRow({ completed_dates: '1', status: "'running'", started_at: 'clock_timestamp()' });
    const runs = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = $1`, [fundId]))[0].n as number;
    const before = await runs();
    await app.get(NavJobQueue).process(job.id);
    expect(await runs()).toBe(before);
    const [row] = await db.query(`SELECT status, outcome FROM nav_run_jobs WHERE id = $1`, [job.id]);
    expect(row).toEqual({ status: 'running', outcome: null }); // left to the delivery that ran it
    await db.query(`UPDATE nav_run_jobs SET status = 'failed', error = 'test' WHERE id = $1`, [job.id]);
  });

  it('a range that widened after the request is run and counted as the lock found it, and refused beyond the bound', async () => {
    const db = dbOf(app);
    const runs = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = $1`, [fundId]))[0].n as number;
    const restartFrom = (date: string) =>
      db.query(`UPDATE funds SET nav_restart_from = $2 WHERE id = $1`, [fundId, date]);
    try {
      // planned as one date; since then a run stopped short three dates earlier
      const small = await jobRow({});
      await restartFrom(addDays(small.date, -3));
      await app.get(NavJobQueue).process(small.id);
      const done = (await call(app, 'GET', `/api/v1/admin/nav-jobs/${small.id}`, { key: publisher })).json;
      expect(done).toMatchObject({
        status: 'succeeded',
        fromDate: addDays(small.date, -3),
        toDate: small.date,
        progress: { completedDates: 4, totalDates: 4 },
      });
      // beyond NAV_RUN_MAX_DAYS once widened: the job fails saying so, and runs nothing
      const large = await jobRow({});
      await restartFrom(addDays(large.date, -MAX_DAYS));
      const before = await runs();
      await app.get(NavJobQueue).process(large.id);
      const refused = (await call(app, 'GET', `/api/v1/admin/nav-jobs/${large.id}`, { key: publisher })).json;
      expect(refused.status).toBe('failed');
      expect(refused.error).toContain(`(${MAX_DAYS + 1} dates), more than NAV_RUN_MAX_DAYS (${MAX_DAYS})`);
      expect(refused.progress).toEqual({ completedDates: 0, totalDates: 1 });
      expect(await runs()).toBe(before);
    } finally {
      await restartFrom(null as unknown as string); // the marker must not leak into later tests
    }
  });

  it('bounds the range per call; a date before inception is refused as such, not run for a minute', async () => {
    const jobs = async () =>
      (await dbOf(app).query(`SELECT count(*)::int AS n FROM nav_run_jobs WHERE fund_id = $1`, [fundId]))[0].n;
    const before = await jobs();
    const res = await post('1900-01-01');
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('unprocessable');
    expect(res.json.errors[0]).toEqual({
      field: 'valuationDate',
      message: `must be on or after the fund inception ${DEMO_INCEPTION_DATE}`,
    });
    const far = await post(addDays(DEMO_INCEPTION_DATE, 400));
    expect(far.status).toBe(422);
    expect(far.json.code).toBe('range_too_large');
    expect(far.json.errors[0].field).toBe('valuationDate');
    expect(await jobs()).toBe(before); // refused before any job row is written
  });

  it('jobs of another fund are not found; date, scope and pool timeouts are checked', async () => {
    const other = (await mintKey(app, { scopes: ['nav:publish'], fund: (await createFund(app)).slug })).key;
    const [job] = await dbOf(app).query(`SELECT id FROM nav_run_jobs WHERE fund_id = $1 LIMIT 1`, [fundId]);
    expect((await call(app, 'GET', `/api/v1/admin/nav-runs/jobs/${job.id}`, { key: other })).status).toBe(404);
    expect((await call(app, 'GET', '/api/v1/admin/nav-runs/jobs/not-a-uuid', { key: publisher })).status).toBe(400);
    const bad = await post('2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe('valuationDate');
    const missing = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: {} });
    expect(missing.json.code).toBe('missing_parameter');
    const reader = (await mintKey(app, { scopes: ['fund:read'], fund: SLUG })).key;
    expect((await post(addDays(DEMO_INCEPTION_DATE, 7), reader)).json.code).toBe('insufficient_scope');
    expect((await call(app, 'GET', '/api/v1/admin/nav-runs', { key: reader })).status).toBe(403);
    const [timeouts] = await dbOf(app).query(
      `SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l`,
    );
    expect(timeouts).toEqual({ s: '45s', l: '7s' });
  });
});
