import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { addDays } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bootApp, call, dbOf, mintKey, TestApp } from '../utils/app';

const SLUG = 'nav-admin-fund';

describe('POST /api/v1/admin/nav-runs (e2e)', () => {
  let app: TestApp;
  let fundId: string;
  let publisher: string;

  beforeAll(async () => {
    app = await bootApp();
    const dir = join(tmpdir(), `fundgate-nav-admin-${process.pid}`);
    generateDemoFund({ seed: 99, outDir: dir, trades: 300 });
    await importFundFolder(dbOf(app), SLUG, dir, { synthetic: true });
    fundId = fundIdForSlug(SLUG);
    await new NavRunService(dbOf(app)).runNavRange(fundId, { to: addDays(DEMO_INCEPTION_DATE, 5), clock: demoClock(2) });
    publisher = (await mintKey(app, { scopes: ['nav:publish', 'fund:read'], fund: SLUG })).key;
  });
  afterAll(() => app.close());

  it('runs the engine for the next date and answers the complete run', async () => {
    const date = addDays(DEMO_INCEPTION_DATE, 6);
    const res = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: { valuationDate: date } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ valuationDate: date, status: 'complete', completedRuns: 1, supersededRuns: 0, supersedesRunId: null });
    expect(res.json.netAssetValue).toMatch(/^-?\d+\.\d{2}$/);
    const [row] = await dbOf(app).query(`SELECT net_asset_value::text AS nav FROM nav_runs WHERE id = $1 AND fund_id = $2 AND status = 'complete'`, [res.json.navRunId, fundId]);
    expect(row.nav).toBe(res.json.netAssetValue);
  });

  it('re-running a date supersedes its complete run', async () => {
    const date = addDays(DEMO_INCEPTION_DATE, 6);
    const [before] = await dbOf(app).query(`SELECT id FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 AND status = 'complete'`, [fundId, date]);
    const res = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: { valuationDate: date } });
    expect(res.status).toBe(200);
    expect(res.json.supersedesRunId).toBe(before.id);
    expect(res.json.supersededRuns).toBe(1);
    const [old] = await dbOf(app).query('SELECT status FROM nav_runs WHERE id = $1', [before.id]);
    expect(old.status).toBe('superseded');
  });

  it('validates the date and the scope', async () => {
    const bad = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: { valuationDate: '2026-02-30' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe('valuationDate');
    const missing = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: publisher, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('missing_parameter');
    const reader = (await mintKey(app, { scopes: ['fund:read'], fund: SLUG })).key;
    const forbidden = await call(app, 'POST', '/api/v1/admin/nav-runs', { key: reader, body: { valuationDate: addDays(DEMO_INCEPTION_DATE, 7) } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.code).toBe('insufficient_scope');
  });
});
