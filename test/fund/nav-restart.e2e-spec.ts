import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { CursorCodec } from '../../src/common/pagination/cursor';
import { loadConfig } from '../../src/config/config';
import type { ReadReplica } from '../../src/database/read-replica';
import { NavRepository } from '../../src/fund-data/nav/nav.repository';
import { NavService } from '../../src/fund-data/nav/nav.service';

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
    generateDemoFund({ seed: 7, outDir: dir, trades: 300, through: day(30) });
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

  it('reconciliation calls an administrator NAV the restart marker reaches stale, not a break', async () => {
    const monthEnd = '2023-11-30';
    await new NavRunService(ds).runNavRange(fundId, { to: monthEnd });
    const config = loadConfig({ ...process.env, NAV_TOLERANCE_RATIO: '0.00000001' }); // every valued date is a break
    const service = new NavService(
      new NavRepository(ds as unknown as ReadReplica),
      config,
      new CursorCodec('x'.repeat(32)),
    );
    const statuses = async () =>
      Object.fromEntries(
        (await service.reconciliation(fundId, {})).items
          .filter((i) => i.valuationDate <= monthEnd)
          .map((i) => [i.valuationDate, i.status]),
      );
    expect(await statuses()).toEqual({ [monthEnd]: 'break', [DEMO_INCEPTION_DATE]: 'break' });
    await ds.query(`UPDATE funds SET nav_restart_from = $2 WHERE id = $1`, [fundId, day(20)]);
    try {
      expect(await statuses()).toEqual({ [monthEnd]: 'stale', [DEMO_INCEPTION_DATE]: 'break' });
    } finally {
      await ds.query(`UPDATE funds SET nav_restart_from = NULL WHERE id = $1`, [fundId]);
    }
  });
});
