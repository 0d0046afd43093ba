import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { FundImportError } from '../../src/fund/import/import-errors';

const base = join(tmpdir(), `fundgate-import-audit-${process.pid}`);
const clean = join(base, 'clean');
const today = new Date().toISOString().slice(0, 10);

/**
 * What an auditor found in the importer: rows dated in the future up to 2199 were taken, a CSV
 * syntax error without the CSV_ prefix escaped the file-naming wrapper, an empty file passed as one
 * without rows, and a restated administrator NAV was reported as a bare `updated: 1`.
 */
describe('fund importer: dates, CSV syntax, empty files and restated NAVs (e2e)', () => {
  let ds: DataSource;
  const slug = `import-audit-${process.pid}`;
  const header = (file: string) => readFileSync(join(clean, file), 'utf8').split('\n')[0];
  const line = (file: string, n: number) => readFileSync(join(clean, file), 'utf8').split('\n')[n - 1];
  /** A folder holding only `file` with these exact contents (an existing fund needs no fund.json). */
  const only = (name: string, file: string, text: string) => {
    const dir = join(base, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), text);
    return dir;
  };
  const rows = (file: string, lines: string[]) => [header(file), ...lines].join('\n') + '\n';
  async function errorsOf(dir: string) {
    try {
      await importFundFolder(ds, slug, dir);
    } catch (err) {
      if (err instanceof FundImportError) return err.errors;
      throw err;
    }
    throw new Error('import unexpectedly succeeded');
  }

  beforeAll(async () => {
    ds = createDataSource(process.env.DATABASE_URL!, 2);
    await ds.initialize();
    generateDemoFund({ seed: 21, outDir: clean, trades: 100 });
    await importFundFolder(ds, slug, clean);
  }, 120_000);
  afterAll(() => ds?.destroy());

  it('refuses an administrator NAV or a trade dated after today, and any row more than a year ahead', async () => {
    const tomorrow = addDays(today, 1);
    expect(
      await errorsOf(only('nav-future', 'admin-navs.csv', rows('admin-navs.csv', [`${tomorrow},1000.00`]))),
    ).toEqual([
      {
        file: 'admin-navs.csv',
        line: 2,
        column: 'date',
        reason: expect.stringContaining(`${tomorrow} is after today`),
      },
    ]);
    const trade = line('trades.csv', 2)
      .replace(/^[^,]+,/, 'future-trade-1,')
      .replace(/,\d{4}-\d{2}-\d{2}T/, `,${tomorrow}T`);
    expect(await errorsOf(only('trade-future', 'trades.csv', rows('trades.csv', [trade])))).toEqual([
      {
        file: 'trades.csv',
        line: 2,
        column: 'executed_at',
        reason: expect.stringContaining(`${tomorrow} is after today`),
      },
    ]);
    const far = addDays(today, 400);
    expect(await errorsOf(only('price-far', 'prices.csv', rows('prices.csv', [`${far},BTC,35300.00`])))).toEqual([
      {
        file: 'prices.csv',
        line: 2,
        column: 'date',
        reason: expect.stringContaining(`${far} is more than a year after today`),
      },
    ]);
  });

  it('a CSV syntax error of any code (INVALID_OPENING_QUOTE) names the file and line', async () => {
    const dir = only('bad-quote', 'prices.csv', rows('prices.csv', ['2023-11-10,B"TC,35300.00']));
    expect(await errorsOf(dir)).toEqual([
      {
        file: 'prices.csv',
        line: 2,
        column: '(row)',
        reason: expect.stringMatching(/^is not valid CSV: Invalid Opening Quote/),
      },
    ]);
  });

  it('an empty (0-byte) CSV is refused: its first line must be the header', async () => {
    expect(await errorsOf(only('empty', 'prices.csv', ''))).toEqual([
      {
        file: 'prices.csv',
        line: 1,
        column: '(file)',
        reason: 'is empty: its first line must be the header (date,symbol,close)',
      },
    ]);
  });

  it('a restated administrator NAV is reported with the stored and the new value', async () => {
    const [date, stored] = line('admin-navs.csv', 3).split(',');
    const report = await importFundFolder(
      ds,
      slug,
      only('restated', 'admin-navs.csv', rows('admin-navs.csv', [`${date},123456.78`])),
    );
    expect(report.files).toEqual([
      {
        file: 'admin-navs.csv',
        rows: 1,
        inserted: 0,
        updated: 1,
        restated: [{ date, from: stored, to: '123456.78' }],
      },
    ]);
  });
});
