import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { leadSeriesValues } from '../../src/fund/nav/lead-series';
import { Decimal } from '../../src/fund/money';
import { PerformanceService } from '../../src/fund-data/risk/performance.service';
import { RiskRepository } from '../../src/fund-data/risk/risk.repository';
import type { ReadReplica } from '../../src/database/read-replica';

/**
 * A class whose last holder redeems: the exit day (units at its start, none at its end) is a day
 * of the class's track record — its GNAV is read, and its return is in the performance answer.
 * The demo never empties a class, so this fund adds one: Class E, one subscription at the end of
 * November and a full redemption at the end of December.
 */
describe('a class emptied by its last redemption (e2e)', () => {
  let ds: DataSource;
  let fundId: string;
  const slug = `class-exit-${process.pid}`;
  const [issued, exit] = ['2023-11-30', '2023-12-31'];

  beforeAll(async () => {
    ds = createDataSource(process.env.DATABASE_URL!, 4);
    await ds.initialize();
    const dir = join(tmpdir(), `fundgate-class-exit-${process.pid}`);
    generateDemoFund({ seed: 11, outDir: dir, trades: 150, through: '2024-01-05' });
    const json = JSON.parse(readFileSync(join(dir, 'fund.json'), 'utf8'));
    json.shareClasses.push({ ...json.shareClasses[0], name: 'Class E', feeExempt: false });
    writeFileSync(join(dir, 'fund.json'), JSON.stringify(json));
    appendFileSync(
      join(dir, 'capital-flows.csv'),
      `CFE0001,INV001,Class E,subscription,250000.00,,${issued},settled,2023-11-01T09:00:00Z\n` +
        `CFE0002,INV001,Class E,redemption,,1,${exit},settled,2023-11-15T09:00:00Z\n`,
    );
    fundId = (await importFundFolder(ds, slug, dir, { synthetic: true })).fundId;
    await new NavRunService(ds).runNavRange(fundId, { to: '2024-01-05' });
  }, 180_000);
  afterAll(() => ds?.destroy());

  it('reads the GNAV of the exit day, none after it, and the December return runs to the exit day', async () => {
    const repo = new RiskRepository(ds as unknown as ReadReplica);
    const cls = (await repo.shareClass(fundId, 'Class E'))!;
    const series = await repo.classGrossNavPerUnitSeries(fundId, cls.id);
    const gnav = (d: string) => series.find((p) => p.d === d)?.gnav;
    expect(gnav('2023-11-29')).toBeNull();
    expect(gnav(issued)).not.toBeNull();
    expect(gnav(exit)).not.toBeNull(); // the exit day: units at its start
    expect(gnav('2024-01-01')).toBeNull();
    const answer = await new PerformanceService(repo).performance(fundId, 'Class E');
    const december = answer.monthly.find((m) => m.month === '2023-12')!;
    // the lead lot's value on the exit day against its value at the end of November
    const values = leadSeriesValues(
      {
        perfFeeRate: new Decimal(cls.perf_fee_rate),
        hurdleAnnualRate: cls.hurdle_annual_rate === null ? null : new Decimal(cls.hurdle_annual_rate),
        crystallizationFrequency: cls.crystallization_frequency,
        feeExempt: cls.fee_exempt,
        initialNavPerUnit: new Decimal(cls.initial_nav_per_unit),
      } as Parameters<typeof leadSeriesValues>[0],
      issued,
      series.filter((p) => p.gnav !== null).map((p) => ({ d: p.d, gnav: new Decimal(p.gnav!) })),
    );
    const at = (d: string) => values.find((v) => v.d === d)!.valuePerOriginalUnit;
    expect(december.return).toBe(at(exit).dividedBy(at(issued)).minus(1).toFixed(8));
    expect(answer.monthly.at(-1)!.month).toBe('2023-12');
  });
});
