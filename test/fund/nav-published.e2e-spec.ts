import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavJobQueue } from '../../src/fund/nav/nav-job.queue';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bootApp, call, dbOf, mintKey, type ResponseJson, type TestApp } from '../utils/app';
import { runCli } from '../utils/cli';

const day = (n: number) => addDays(DEMO_INCEPTION_DATE, n);

/**
 * A published NAV is final and the books are closed through it: no run (API job, fund:nav, a
 * cascade, a restart marker) starts on or before the last published valuation date, so a published
 * run is never superseded and never published a second time.
 */
describe('NAV runs never reach back past the last published date (e2e)', () => {
  let app: TestApp;
  let fundId: string;
  let publisher: string;
  const slug = `nav-published-${process.pid}`;
  const env = () => ({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL! });
  const nav = (args: string[]) => runCli('src/cli/fund-nav.ts', ['--fund', slug, ...args], env());
  const post = (valuationDate: string) =>
    call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: { valuationDate } });
  const runsOf = async () =>
    (await dbOf(app).query(`SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = $1`, [fundId]))[0].n as number;
  const publishedStatus = async () =>
    (
      await dbOf(app).query(
        `SELECT status FROM nav_runs WHERE fund_id = $1 AND published_at IS NOT NULL ORDER BY valuation_date`,
        [fundId],
      )
    ).map((r: { status: string }) => r.status);
  async function settle(jobId: string): Promise<ResponseJson> {
    for (let i = 0; i < 600; i++) {
      const res = await call(app, 'GET', `/api/v1/admin/nav-jobs/${jobId}`, { key: publisher });
      if (res.json.status === 'succeeded' || res.json.status === 'failed') return res.json;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  beforeAll(async () => {
    app = await bootApp({}, { NAV_RUN_MAX_DAYS: '40' });
    const dir = join(tmpdir(), `fundgate-nav-published-${process.pid}`);
    generateDemoFund({ seed: 11, outDir: dir, trades: 300, through: day(10) });
    fundId = (await importFundFolder(dbOf(app), slug, dir, { synthetic: true })).fundId;
    await new NavRunService(dbOf(app)).runNavRange(fundId, { to: day(10) });
    // day 8 is published (as POST /api/v1/admin/nav-runs/{id}/publish leaves it): the books are closed through it
    await dbOf(app).query(
      `UPDATE nav_runs SET published_at = clock_timestamp() WHERE fund_id = $1 AND valuation_date = $2 AND status = 'complete'`,
      [fundId, day(8)],
    );
    publisher = (await mintKey(app, { scopes: ['nav:publish', 'fund:read'], fund: slug })).key;
  }, 180_000);
  afterAll(() => app.close());

  it('the API answers 422 naming valuationDate and the closed-through date for a date on or before it', async () => {
    const before = await runsOf();
    for (const date of [day(8), day(2)]) {
      const res = await post(date);
      expect(res.status).toBe(422);
      expect(res.json.code).toBe('unprocessable');
      expect(res.json.detail).toContain(date);
      expect(res.json.detail).toContain(`published through ${day(8)}`);
      expect(res.json.errors).toEqual([
        { field: 'valuationDate', message: `must be after ${day(8)}, the last published valuation date` },
      ]);
    }
    expect(await runsOf()).toBe(before);
    expect(await publishedStatus()).toEqual(['complete']);
  });

  it('a job planned before the publication (a race) fails under the lock saying the books are closed, and runs nothing', async () => {
    const before = await runsOf();
    const [job] = await dbOf(app).query(
      `INSERT INTO nav_run_jobs (fund_id, valuation_date, from_date, to_date, total_dates) VALUES ($1, $2, $2, $3, 3) RETURNING id`,
      [fundId, day(6), day(8)],
    );
    await app.get(NavJobQueue).process(job.id);
    const [row] = await dbOf(app).query(`SELECT status, error FROM nav_run_jobs WHERE id = $1`, [job.id]);
    expect(row.status).toBe('failed');
    expect(row.error).toContain(`the books are closed through ${day(8)}`);
    expect(await runsOf()).toBe(before);
    expect(await publishedStatus()).toEqual(['complete']);
  });

  it('a restart marker on or before the closed date (none should be) reaches back no further than the day after', async () => {
    await dbOf(app).query(`UPDATE funds SET nav_restart_from = $2 WHERE id = $1`, [fundId, day(3)]);
    const res = await post(day(10));
    expect(res.status).toBe(202);
    expect([res.json.fromDate, res.json.toDate]).toEqual([day(9), day(10)]);
    const job = await settle(res.json.jobId);
    expect(job).toMatchObject({ status: 'succeeded', outcome: { completedRuns: 2, supersededRuns: 2 } });
    expect(await publishedStatus()).toEqual(['complete']);
  });

  it('fund:nav exits non-zero with the same message and runs nothing; --from after --to is refused', async () => {
    const before = await runsOf();
    const closed = await nav(['--from', day(1), '--to', day(5)]);
    expect(closed.code).not.toBe(0);
    expect(closed.stderr).toContain(`the books are closed through ${day(8)}, the last published valuation date`);
    const reversed = await nav(['--from', day(10), '--to', day(9)]);
    expect([reversed.code, reversed.stderr]).toEqual([1, expect.stringContaining(`--from ${day(10)} is after --to`)]);
    expect(await runsOf()).toBe(before);
    expect(await publishedStatus()).toEqual(['complete']);
  }, 120_000);

  it('fund:nav says on stderr when --to widened to cascade through later complete dates', async () => {
    const out = await nav(['--from', day(9), '--to', day(9)]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`--to widened to ${day(10)}`);
    expect(JSON.parse(out.stdout)).toMatchObject({ from: day(9), to: day(10), completed: 2, superseded: 2 });
  }, 120_000);
});
