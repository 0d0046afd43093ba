import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavRunService } from '../../src/fund/nav/nav-run.service';

const day = (n: number) => addDays(DEMO_INCEPTION_DATE, n);

/**
 * A NAV run writes its days in batches, one transaction each. A re-run that cascades through later
 * dates and stops midway must not leave the next run going on from the last complete date as if the
 * chain were whole: the next run starts where the stopped one left off.
 */
describe('a NAV run that stops midway is taken up where it stopped (e2e)', () => {
  let ds: DataSource;
  let fundId: string;
  const slug = `restart-${process.pid}`;

  beforeAll(async () => {
    ds = createDataSource(process.env.DATABASE_URL!, 4);
    await ds.initialize();
    const dir = join(tmpdir(), `fundgate-nav-restart-${process.pid}`);
    generateDemoFund({ seed: 7, outDir: dir, trades: 300 });
    fundId = (await importFundFolder(ds, slug, dir, { synthetic: true })).fundId;
  }, 120_000);
  afterAll(() => ds?.destroy());

  const restartFrom = async () =>
    (await ds.query(`SELECT nav_restart_from::text AS d FROM funds WHERE id = $1`, [fundId]))[0].d as string | null;

  it('records where a cascade stopped, and the next run re-values from there to the end', async () => {
    const nav = new NavRunService(ds);
    const first = await nav.runNavRange(fundId, { to: day(10) });
    expect([first.completed, first.failed]).toEqual([11, null]);
    expect(await restartFrom()).toBeNull();
    // a re-run of day 2 in batches of 3 days, whose second batch (days 5-7) fails to write
    const fn = `fail_nav_${process.pid}`;
    await ds.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.fund_id = '${fundId}' AND NEW.valuation_date = '${day(6)}' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`);
    await ds.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON nav_runs FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      await expect(nav.runNavRange(fundId, { from: day(2), batchDays: 3 })).rejects.toThrow(/disk full/);
    } finally {
      await ds.query(`DROP TRIGGER ${fn} ON nav_runs`);
      await ds.query(`DROP FUNCTION ${fn}()`);
    }
    expect(await restartFrom()).toBe(day(5)); // days 2-4 were re-valued; 5-10 still hold the old chain
    const plan = await nav.planForDate(fundId, day(11));
    expect(plan).toEqual({ from: day(5), to: day(11), days: 7 });
    const next = await nav.runNavRange(fundId, { to: day(11) });
    expect([next.from, next.to, next.completed, next.superseded]).toEqual([day(5), day(11), 7, 6]);
    expect(await restartFrom()).toBeNull();
  });
});
