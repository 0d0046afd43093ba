import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { FundImportRepository } from '../../src/fund/import/fund-import.repository';
import { FundImportError } from '../../src/fund/import/import-errors';
import { NavRunRepository } from '../../src/fund/nav/nav-run.repository';
import { NavRunService } from '../../src/fund/nav/nav-run.service';

const base = join(tmpdir(), `fundgate-import-e2e-${process.pid}`);
const clean = join(base, 'clean');

/** Copies the clean folder and rewrites one line (1-based, header = 1) of one file. */
function corrupt(name: string, file: string, line: number, edit: (text: string) => string): string {
  const dir = join(base, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(clean, dir, { recursive: true });
  const lines = readFileSync(join(dir, file), 'utf8').split('\n');
  lines[line - 1] = edit(lines[line - 1]);
  writeFileSync(join(dir, file), lines.join('\n'));
  return dir;
}

async function importErrors(ds: DataSource, slug: string, dir: string) {
  try {
    await importFundFolder(ds, slug, dir);
  } catch (err) {
    if (err instanceof FundImportError) return err.errors;
    throw err;
  }
  throw new Error('import unexpectedly succeeded');
}

describe('fund importer', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = createDataSource(process.env.DATABASE_URL!, 4);
    await ds.initialize();
    generateDemoFund({ seed: 5, outDir: clean, trades: 800 });
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
  });

  const counts = async (slug: string) => {
    const [row] = await ds.query(
      `SELECT (SELECT count(*) FROM funds WHERE slug = $1)::int AS funds,
              (SELECT count(*) FROM trades t JOIN funds f ON f.id = t.fund_id WHERE f.slug = $1)::int AS trades,
              (SELECT count(*) FROM prices p JOIN funds f ON f.id = p.fund_id WHERE f.slug = $1)::int AS prices,
              (SELECT count(*) FROM capital_activity c JOIN funds f ON f.id = c.fund_id WHERE f.slug = $1)::int AS flows`,
      [slug],
    );
    return row;
  };

  it.each([
    [
      'a negative trade quantity',
      'trades.csv',
      3,
      (l: string) => l.replace(/,(buy|sell),([0-9.]+),/, ',$1,-$2,'),
      { file: 'trades.csv', line: 3, column: 'quantity', reason: expect.stringMatching(/greater than zero/) },
    ],
    [
      'an unknown connection',
      'trades.csv',
      4,
      (l: string) => l.replace(/Z,[a-z-]+,/, 'Z,nowhere-exchange,'),
      { file: 'trades.csv', line: 4, column: 'connection', reason: 'names an unknown connection "nowhere-exchange"' },
    ],
    [
      'a bad timestamp',
      'trades.csv',
      2,
      (l: string) => l.replace(/,\d{4}-\d{2}-\d{2}T[0-9:]+Z,/, ',2024-13-01 10:00,'),
      { file: 'trades.csv', line: 2, column: 'executed_at', reason: expect.stringMatching(/ISO 8601/) },
    ],
    [
      'an impossible price date',
      'prices.csv',
      5,
      (l: string) => l.replace(/^\d{4}-\d{2}-\d{2}/, '2024-02-30'),
      { file: 'prices.csv', line: 5, column: 'date', reason: expect.stringMatching(/calendar date/) },
    ],
    [
      'a price that is not a number',
      'prices.csv',
      6,
      (l: string) => l.replace(/,[^,]+$/, ',12,5'),
      { file: 'prices.csv', line: 6, column: '(row)', reason: expect.stringMatching(/not valid CSV/) },
    ],
    [
      'a flow with both amount and fraction',
      'capital-flows.csv',
      2,
      (l: string) => l.replace(/,subscription,([0-9.]+),,/, ',subscription,$1,0.5,'),
      {
        file: 'capital-flows.csv',
        line: 2,
        column: 'fraction',
        reason: 'exactly one of amount and fraction must be given',
      },
    ],
    [
      'an unknown capital-activity status',
      'capital-flows.csv',
      3,
      (l: string) => l.replace(/,settled,/, ',approved,'),
      {
        file: 'capital-flows.csv',
        line: 3,
        column: 'status',
        reason: expect.stringMatching(/must be one of pending, running, executed, settled, cancelled, failed/),
      },
    ],
    [
      'a paid expense without a paid date',
      'expenses.csv',
      2,
      (l: string) => l.replace(/,paid,[0-9-]+$/, ',paid,'),
      { file: 'expenses.csv', line: 2, column: 'paid_date', reason: 'is required when status is paid' },
    ],
    [
      'an expense accrued on the inception day (no capital yet)',
      'expenses.csv',
      2,
      (l: string) =>
        l
          .split(',')
          .map((c, i) => (i === 4 ? DEMO_INCEPTION_DATE : c))
          .join(','),
      {
        file: 'expenses.csv',
        line: 2,
        column: 'accrual_date',
        reason: `must be after the fund's inception ${DEMO_INCEPTION_DATE}`,
      },
    ],
    [
      'money with more than 2 decimals',
      'admin-navs.csv',
      3,
      (l: string) => l + '123',
      { file: 'admin-navs.csv', line: 3, column: 'nav', reason: expect.stringMatching(/more than 2 decimals/) },
    ],
    [
      'a missing header column',
      'investors.csv',
      1,
      (l: string) => l.replace(',tax_id', ',taxid'),
      { file: 'investors.csv', line: 1, column: 'tax_id', reason: 'missing column in the header' },
    ],
    [
      'a duplicated id in a small file',
      'transfers.csv',
      3,
      (l: string) => l.replace(/^TR\d+/, 'TR000001'),
      {
        file: 'transfers.csv',
        line: 3,
        column: 'transfer_id',
        reason: expect.stringMatching(/duplicates an earlier row/),
      },
    ],
    ['a bad share-class rate in fund.json', 'fund.json', 1, (l: string) => l, null],
  ])('refuses %s with file, line, column and reason, and imports nothing', async (name, file, line, edit, expected) => {
    const slug = `bad-${String(name)
      .replace(/[^a-z]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40)}`;
    let dir: string;
    if (file === 'fund.json') {
      dir = corrupt(slug, 'fund.json', 1, (l) => l);
      const json = JSON.parse(readFileSync(join(dir, 'fund.json'), 'utf8'));
      json.shareClasses[1].perfFeeRate = '20%';
      writeFileSync(join(dir, 'fund.json'), JSON.stringify(json));
    } else {
      dir = corrupt(slug, file, line, edit);
    }
    const errors = await importErrors(ds, slug, dir);
    if (expected) expect(errors[0]).toEqual(expected);
    else
      expect(errors[0]).toEqual({
        file: 'fund.json',
        line: 1,
        column: 'shareClasses[1].perfFeeRate',
        reason: 'must be a rate as a fraction of 1, got "20%"',
      });
    expect(await counts(slug)).toEqual({ funds: 0, trades: 0, prices: 0, flows: 0 });
  });

  it('imports a clean folder once; importing it again changes nothing', async () => {
    const first = await importFundFolder(ds, 'clean-fund', clean);
    expect(first.created).toBe(true);
    const trades = first.files.find((f) => f.file === 'trades.csv')!;
    expect(trades.inserted).toBe(trades.rows);
    const before = await counts('clean-fund');
    const second = await importFundFolder(ds, 'clean-fund', clean);
    expect(second.created).toBe(false);
    expect(second.files.every((f) => f.inserted === 0)).toBe(true);
    expect(await counts('clean-fund')).toEqual(before);
  });

  it('an import waits for a NAV run of the fund in progress, and a NAV run waits for an import', async () => {
    const slug = `lock-${process.pid}`;
    const report = await importFundFolder(ds, slug, clean);
    const settled = (p: Promise<unknown>) => {
      const state = { done: false };
      void p.then(
        () => (state.done = true),
        () => (state.done = true),
      );
      return state;
    };
    // waiting is seen where it happens: a backend of this database waiting for the NAV-inputs lock
    const pause = async () => {
      for (let i = 0; i < 100; i++) {
        const [{ n }] = await ds.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event = 'advisory' AND query LIKE '%fundgate:nav-inputs%'`,
        );
        if (n > 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('nothing waited for the NAV-inputs lock');
    };
    // a NAV run in progress (its lock held on a connection of its own)
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await new NavRunRepository(ds).with(runner).holdInputsLock(report.fundId);
    const importing = importFundFolder(ds, slug, clean);
    const imported = settled(importing);
    await pause();
    expect(imported.done).toBe(false);
    await runner.rollbackTransaction();
    await runner.release();
    await importing;
    // an import in progress (its transaction holds the lock)
    const tx = ds.createQueryRunner();
    await tx.connect();
    await tx.startTransaction();
    await new FundImportRepository(ds).with(tx).lockNavInputs({ slug });
    const running = new NavRunService(ds).runNavRange(report.fundId, { to: '2023-11-30' });
    const ran = settled(running);
    await pause();
    expect(ran.done).toBe(false);
    await tx.commitTransaction();
    await tx.release();
    expect((await running).completed).toBeGreaterThan(0);
    // a run told to wait a bounded time (an API job) gives up saying why
    const busy = ds.createQueryRunner();
    await busy.connect();
    await busy.startTransaction();
    await new FundImportRepository(ds).with(busy).lockNavInputs({ slug });
    await expect(new NavRunService(ds).runNavRange(report.fundId, { lockWaitMs: 300 })).rejects.toThrow(
      /another NAV run or an import of this fund is in progress/,
    );
    await busy.rollbackTransaction();
    await busy.release();
  });

  it('a bad row in a later file rolls back the earlier files of the same import', async () => {
    const dir = corrupt('late-bad', 'lp-reports.csv', 2, (l) => l.replace(/,distributed,/, ',published,'));
    const errors = await importErrors(ds, 'late-bad', dir);
    expect(errors[0]).toMatchObject({ file: 'lp-reports.csv', line: 2, column: 'status' });
    expect(await counts('late-bad')).toEqual({ funds: 0, trades: 0, prices: 0, flows: 0 });
  });
});
