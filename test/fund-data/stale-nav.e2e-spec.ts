import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { addDays } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bootApp, call, dbOf, mintKey, type ResponseJson, type TestApp, uniqueName } from '../utils/app';

const SLUG = 'fd-stale-nav';
const LAST = addDays(DEMO_INCEPTION_DATE, 6);
const BOOKED = addDays(DEMO_INCEPTION_DATE, 3);

/**
 * A journal entry approved into a valued day makes the NAV runs from its date stale until the NAV is
 * run again: every read that serves a run's status says so (overview, NAV history, the admin list),
 * also straight after a cached "complete" answer, and the re-run is complete again.
 */
describe('a NAV made stale by a back-dated booking (e2e)', () => {
  let app: TestApp;
  let fundId: string;
  let agent: string;
  let manager: string;
  let publisher: string;

  const get = (path: string, key = publisher) => call(app, 'GET', path, { key });
  const overviewNav = async () => {
    const res = await get('/api/v1/fund/overview');
    expect(res.status).toBe(200);
    return res.json.latestNav as { valuationDate: string; status: string; netAssetValue: string };
  };
  const historyStatuses = async () =>
    (await get(`/api/v1/fund/nav/history?from=${addDays(BOOKED, -1)}&limit=100`)).json.items.map(
      (r: ResponseJson) => `${r.valuationDate} ${r.status}`,
    );
  const adminStatuses = async () =>
    (await get('/api/v1/admin/nav-runs?limit=100')).json.items
      .filter((r: ResponseJson) => r.valuationDate >= addDays(BOOKED, -1))
      .map((r: ResponseJson) => `${r.valuationDate} ${r.status}`);

  beforeAll(async () => {
    // the overview is a live answer: a cached "complete" outlives the approval by LIVE_CACHE_SECONDS at most
    app = await bootApp({}, { LIVE_CACHE_SECONDS: '1', DB_STATEMENT_TIMEOUT_MS: '45000' });
    const dir = join(tmpdir(), `fundgate-stale-nav-${process.pid}`);
    generateDemoFund({ seed: 77, outDir: dir, trades: 200, through: LAST });
    await importFundFolder(dbOf(app), SLUG, dir, { synthetic: true });
    rmSync(dir, { recursive: true, force: true });
    fundId = fundIdForSlug(SLUG);
    await new NavRunService(dbOf(app)).runNavRange(fundId, { to: LAST, clock: demoClock(2) });
    agent = (await mintKey(app, { scopes: ['fund:propose'], fund: SLUG, account: uniqueName('maker') })).key;
    manager = (await mintKey(app, { scopes: ['proposals:review'], fund: SLUG, account: uniqueName('checker') })).key;
    publisher = (await mintKey(app, { scopes: ['fund:read', 'nav:publish'], fund: SLUG })).key;
  });
  afterAll(() => app.close());

  it('approving a back-dated entry: overview, NAV history and the admin list say stale; a re-run is complete again', async () => {
    const before = await overviewNav(); // cached from here on for LIVE_CACHE_SECONDS (1 s here)
    expect(before).toMatchObject({ valuationDate: LAST, status: 'complete' });
    expect((await historyStatuses()).join()).not.toMatch(/stale/);

    const staged = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: agent,
      body: {
        entryDate: BOOKED,
        description: 'Late legal invoice',
        lines: [
          { accountCode: '5500', debit: '100.00' },
          { accountCode: '1000', credit: '100.00' },
        ],
      },
    });
    expect(staged.status).toBe(201);
    const approved = await call(app, 'POST', `/api/v1/admin/proposals/${staged.json.id}/approve`, {
      key: manager,
      body: {},
    });
    expect(approved.status).toBe(200);
    const [marker] = await dbOf(app).query(`SELECT nav_restart_from::text AS d FROM funds WHERE id = $1`, [fundId]);
    expect(marker.d).toBe(BOOKED);

    // the same run, its own figures, but no longer complete (once the live answer's second is up)
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await overviewNav()).toEqual({ ...before, status: 'stale' });
    const history = await historyStatuses();
    expect(history).toEqual([
      `${LAST} stale`,
      `${addDays(LAST, -1)} stale`,
      `${addDays(LAST, -2)} stale`,
      `${BOOKED} stale`,
      `${addDays(BOOKED, -1)} complete`,
    ]);
    expect(await adminStatuses()).toEqual(history);

    const job = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: { valuationDate: LAST } });
    expect(job.status).toBe(202);
    expect(job.json.fromDate).toBe(BOOKED);
    let outcome: ResponseJson;
    for (let i = 0; i < 600 && !outcome; i++) {
      const polled = await get(`/api/v1/admin/nav-jobs/${job.json.jobId}`);
      if (polled.json.status === 'succeeded' || polled.json.status === 'failed') outcome = polled.json;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(outcome).toMatchObject({ status: 'succeeded' });

    await new Promise((r) => setTimeout(r, 1_100));
    const after = await overviewNav();
    expect(after).toMatchObject({ valuationDate: LAST, status: 'complete' });
    const moved = Number(before.netAssetValue) - Number(after.netAssetValue);
    // the $100 expense, less the performance fee it no longer accrues: the re-run valued the booking
    expect(moved).toBeGreaterThan(50);
    expect(moved).toBeLessThanOrEqual(100);
    const rerun = await historyStatuses();
    expect(rerun.filter((s: string) => s.endsWith(' complete'))).toEqual([
      `${LAST} complete`,
      `${addDays(LAST, -1)} complete`,
      `${addDays(LAST, -2)} complete`,
      `${BOOKED} complete`,
      `${addDays(BOOKED, -1)} complete`,
    ]);
    expect(rerun.filter((s: string) => s.endsWith(' superseded'))).toHaveLength(4);
    expect(rerun.join()).not.toMatch(/stale/);
  });
});
