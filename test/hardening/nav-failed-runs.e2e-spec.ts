import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bootApp, dbOf, type TestApp, uniqueName } from '../utils/app';

/** A fund stuck on a missing price: re-running does not add another identical failed run each time. */
describe('NAV runs stuck on a missing price (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('one failed run row per date and reason, however often the range is re-run', async () => {
    const db = dbOf(app);
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-stuck-'));
    const slug = uniqueName('stuck');
    try {
      generateDemoFund({ seed: 99, outDir: dir, trades: 200, through: addDays(DEMO_INCEPTION_DATE, 6) });
      await importFundFolder(db, slug, dir, { synthetic: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const [{ id: fundId }] = await db.query('SELECT id FROM funds WHERE slug = $1', [slug]);
    const stuck = addDays(DEMO_INCEPTION_DATE, 3);
    const [{ instrument_id: gone }] = await db.query(
      `SELECT instrument_id FROM prices WHERE fund_id = $1 AND price_date = $2 ORDER BY instrument_id LIMIT 1`,
      [fundId, stuck],
    );
    await db.query('DELETE FROM prices WHERE fund_id = $1 AND instrument_id = $2 AND price_date = $3', [
      fundId,
      gone,
      stuck,
    ]);

    const navs = new NavRunService(db);
    const outcomes = [];
    for (let i = 0; i < 3; i++)
      outcomes.push(await navs.runNavRange(fundId, { to: addDays(DEMO_INCEPTION_DATE, 6), clock: demoClock(2) }));
    expect(outcomes.map((o) => o.failed?.date)).toEqual([stuck, stuck, stuck]);
    expect(new Set(outcomes.map((o) => o.failed?.runId)).size).toBe(1);
    const failedRows = await db.query(
      `SELECT failure_reason FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 AND status = 'failed'`,
      [fundId, stuck],
    );
    expect(failedRows).toHaveLength(1);
    expect(failedRows[0].failure_reason).toMatch(/^missing price for /);
  });
});
