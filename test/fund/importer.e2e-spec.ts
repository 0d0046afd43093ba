import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

async function importErrors(ds: DataSource, slug: string, dir: string, options: { batchRows?: number } = {}) {
  try {
    await importFundFolder(ds, slug, dir, options);
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
    [
      'a trade before inception',
      'trades.csv',
      2,
      (l: string) => l.replace(/,\d{4}-\d{2}-\d{2}T/, ',2023-10-01T'),
      {
        file: 'trades.csv',
        line: 2,
        column: 'executed_at',
        reason: "2023-10-01 is before the fund's inception 2023-10-31",
      },
    ],
    [
      'a timestamp at hour 24',
      'trades.csv',
      2,
      (l: string) => l.replace(/T[0-9:]+Z,/, 'T24:00:00Z,'),
      { file: 'trades.csv', line: 2, column: 'executed_at', reason: expect.stringMatching(/ISO 8601/) },
    ],
    [
      'a year the books cannot hold',
      'prices.csv',
      5,
      (l: string) => l.replace(/^\d{4}-\d{2}-\d{2}/, '0000-01-01'),
      {
        file: 'prices.csv',
        line: 5,
        column: 'date',
        reason: expect.stringMatching(/between 1900-01-01 and 2199-12-31/),
      },
    ],
    [
      'money beyond what its column holds',
      'admin-navs.csv',
      3,
      (l: string) => l.replace(/,.*$/, ',1000000000000000000.00'),
      { file: 'admin-navs.csv', line: 3, column: 'nav', reason: expect.stringMatching(/more than 18 digits/) },
    ],
    [
      'a header naming a column twice',
      'prices.csv',
      1,
      (l: string) => l + ',close',
      { file: 'prices.csv', line: 1, column: 'close', reason: 'appears twice in the header' },
    ],
    [
      'a NUL character in a text field',
      'investors.csv',
      2,
      (l: string) => l.replace('Investor 001', 'Investor\u0000001'),
      { file: 'investors.csv', line: 2, column: 'display_name', reason: 'contains a NUL character' },
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
        reason: 'must be a rate as a fraction of 1 (0.02 for 2 %), got "20%"',
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

  it('refuses fund.json terms the books cannot mean, naming each JSON path', async () => {
    const dir = corrupt('bad-terms', 'fund.json', 1, (l) => l);
    const json = JSON.parse(readFileSync(join(dir, 'fund.json'), 'utf8'));
    json.shareClasses[0].mgmtFeeAnnualRate = '2'; // 2 % typed as a percentage: 200 % a year
    json.shareClasses[1].currency = 'EUR';
    json.shareClasses[1].initialNavPerUnit = '0';
    json.shareClasses[2].name = json.shareClasses[0].name;
    json.chartOfAccounts = [{ code: '9999', name: 'Nowhere' }];
    writeFileSync(join(dir, 'fund.json'), JSON.stringify(json));
    const errors = await importErrors(ds, 'bad-terms', dir);
    expect(errors.map((e) => [e.column, e.reason])).toEqual([
      ['shareClasses[0].mgmtFeeAnnualRate', 'must be a rate as a fraction of 1 (0.02 for 2 %), got "2"'],
      ['shareClasses[1].currency', `must be the base currency ${json.baseCurrency}: the books model no FX`],
      ['shareClasses[1].initialNavPerUnit', 'must be greater than zero'],
      ['shareClasses[2].name', `names the class "${json.shareClasses[0].name}" a second time`],
      ['chartOfAccounts[0].code', 'names no account of the chart: 9999'],
    ]);
  });

  it("a re-imported fund.json may change a class's status, not the terms or the inception the books rest on", async () => {
    const slug = `terms-${process.pid}`;
    const { fundId } = await importFundFolder(ds, slug, clean);
    await new NavRunService(ds).runNavRange(fundId, { to: '2023-11-05' });
    const edit = (
      name: string,
      change: (json: { inceptionDate: string; shareClasses: Record<string, string>[] }) => void,
    ) => {
      const dir = corrupt(name, 'fund.json', 1, (l) => l);
      const json = JSON.parse(readFileSync(join(dir, 'fund.json'), 'utf8'));
      change(json);
      writeFileSync(join(dir, 'fund.json'), JSON.stringify(json));
      return dir;
    };
    const terms = edit('terms-changed', (json) => {
      json.inceptionDate = '2023-10-01';
      json.shareClasses[0].perfFeeRate = '0.25';
    });
    expect((await importErrors(ds, slug, terms)).map((e) => e.column)).toEqual([
      'inceptionDate',
      'shareClasses[0].perfFeeRate',
    ]);
    const status = edit('terms-status', (json) => (json.shareClasses[0].status = 'soft_closed'));
    await importFundFolder(ds, slug, status);
    const [row] = await ds.query(`SELECT status FROM share_classes WHERE fund_id = $1 ORDER BY sort_order LIMIT 1`, [
      fundId,
    ]);
    expect(row.status).toBe('soft_closed');
  });

  it('before any NAV run, the inception may move earlier, not past rows the books already hold', async () => {
    const slug = `inception-${process.pid}`;
    const { fundId } = await importFundFolder(ds, slug, clean);
    const fundOnly = (name: string, inceptionDate: string) => {
      const dir = join(base, name);
      mkdirSync(dir, { recursive: true });
      const json = JSON.parse(readFileSync(join(clean, 'fund.json'), 'utf8'));
      writeFileSync(join(dir, 'fund.json'), JSON.stringify({ ...json, inceptionDate }));
      return dir;
    };
    expect(await importErrors(ds, slug, fundOnly('inception-later', '2023-11-15'))).toEqual([
      {
        file: 'fund.json',
        line: 1,
        column: 'inceptionDate',
        reason: `cannot move to 2023-11-15: rows the books already hold need an inception on or before ${DEMO_INCEPTION_DATE}`,
      },
    ]);
    await importFundFolder(ds, slug, fundOnly('inception-earlier', '2023-10-01'));
    const [fund] = await ds.query(`SELECT inception_date::text AS d FROM funds WHERE id = $1`, [fundId]);
    expect(fund.d).toBe('2023-10-01');
    // a manual journal entry (an approved proposal) dated after the inception holds it back too
    await ds.query(
      `INSERT INTO journal_entries (id, fund_id, entry_number, entry_date, posted_at, description, source, status)
       VALUES (gen_random_uuid(), $1, 1, '2023-10-15', now(), 'Reclassify', 'proposal', 'posted')`,
      [fundId],
    );
    expect((await importErrors(ds, slug, fundOnly('past-entry', '2023-10-15')))[0].reason).toBe(
      'cannot move to 2023-10-15: rows the books already hold need an inception on or before 2023-10-14',
    );
  });

  it('a key repeated with other values is refused across batch boundaries too (prices and trades)', async () => {
    const price = corrupt('dup-price', 'prices.csv', 1, (l) => l);
    const prices = readFileSync(join(price, 'prices.csv'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(price, 'prices.csv'), [...prices, prices[1].replace(/,[^,]+$/, ',1.00')].join('\n') + '\n');
    expect((await importErrors(ds, 'dup-price', price))[0]).toMatchObject({
      line: prices.length + 1,
      reason: expect.stringMatching(/^duplicates an earlier row of this file \(the same symbol on \d{4}-/),
    });
    const trade = corrupt('dup-trade', 'trades.csv', 1, (l) => l);
    const trades = readFileSync(join(trade, 'trades.csv'), 'utf8').trimEnd().split('\n');
    const again = [...trades, trades[1], trades[2].replace(/,(buy|sell),[0-9.]+,/, ',$1,1,')];
    writeFileSync(join(trade, 'trades.csv'), again.join('\n') + '\n');
    const errors = await importErrors(ds, 'dup-trade', trade, { batchRows: 100 }); // a new fund: the batch-less path
    expect(errors).toEqual([
      {
        file: 'trades.csv',
        line: trades.length + 2, // the identical repeat on the line before is dropped
        column: 'trade_id',
        reason: 'repeats the key of an earlier row with other values',
      },
    ]);
  });

  it('refuses bytes that are not UTF-8, naming the line and column', async () => {
    const dir = corrupt('latin1', 'investors.csv', 2, (l) => l);
    const text = readFileSync(join(dir, 'investors.csv'), 'latin1').replace('Investor 001', 'M\u00fcller');
    writeFileSync(join(dir, 'investors.csv'), Buffer.from(text, 'latin1')); // ü as the single byte 0xFC
    const errors = await importErrors(ds, 'latin1', dir);
    expect(errors[0]).toEqual({
      file: 'investors.csv',
      line: 2,
      column: 'display_name',
      reason: 'is not valid UTF-8 (save the file as UTF-8)',
    });
  });

  it('a re-import updates what the books can take, refuses other changes, and restarts the NAV from the earliest date it moved', async () => {
    const slug = `reimport-${process.pid}`;
    const { fundId } = await importFundFolder(ds, slug, clean);
    const nav = new NavRunService(ds);
    await nav.runNavRange(fundId, { to: '2023-11-30' });
    const header = (file: string) => readFileSync(join(clean, file), 'utf8').split('\n')[0];
    const line = (file: string, n: number) => readFileSync(join(clean, file), 'utf8').split('\n')[n - 1];
    /** A folder holding only `file`: its header, then these rows (an existing fund needs no fund.json). */
    const only = (name: string, file: string, rows: string[]) => {
      const dir = join(base, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file), [header(file), ...rows].join('\n') + '\n');
      return dir;
    };
    const fileOf = (r: Awaited<ReturnType<typeof importFundFolder>>, file: string) =>
      r.files.find((f) => f.file === file);

    // a corrected close on a valued day is taken, and the NAV is redone from that day
    const price = await importFundFolder(ds, slug, only('re-price', 'prices.csv', ['2023-11-10,BTC,35300.00']));
    expect(fileOf(price, 'prices.csv')).toMatchObject({ inserted: 0, updated: 1 });
    expect(price.navRestartFrom).toBe('2023-11-10');
    const redo = await nav.runNavRange(fundId, { to: '2023-11-30' });
    expect(redo).toMatchObject({ from: '2023-11-10', failed: null });
    expect(redo.superseded).toBeGreaterThan(0);

    // a booked trade cannot change: the line, the column and both values are named
    const trade = line('trades.csv', 2);
    const changed = trade.replace(/,buy,[0-9.]+,/, ',buy,342,');
    expect(await importErrors(ds, slug, only('re-trade', 'trades.csv', [changed]))).toEqual([
      {
        file: 'trades.csv',
        line: 2,
        column: 'quantity',
        reason: expect.stringMatching(
          /^differs from the row already imported \(quantity: 341\.658636 stored, 342 in the file\)/,
        ),
      },
    ]);
    // nor can a file hold one trade id twice with different values
    const twice = await importErrors(ds, slug, only('re-twice', 'trades.csv', [trade, changed]));
    expect(twice[0]).toMatchObject({ line: 3, reason: 'repeats the key of an earlier row with other values' });

    // a late trade dated inside the valued days is booked, and the NAV is redone from its date
    const lateTrade = 'T09999999,2023-11-05T10:00:00Z,coinbase-prime,BTC,buy,1,35000.00,10.00,USD';
    const late = await importFundFolder(ds, slug, only('re-late', 'trades.csv', [lateTrade]));
    expect([fileOf(late, 'trades.csv')?.inserted, late.navRestartFrom]).toEqual([1, '2023-11-05']);
    expect((await nav.runNavRange(fundId, { to: '2023-11-30' })).from).toBe('2023-11-05');

    // lifecycle changes: an accrued expense paid, a pending flow cancelled, a register update
    const expense = line('expenses.csv', 142).replace(/,accrued,$/, ',paid,2026-11-10');
    expect(
      fileOf(await importFundFolder(ds, slug, only('re-exp', 'expenses.csv', [expense])), 'expenses.csv'),
    ).toMatchObject({ updated: 1 });
    const cancelled = line('capital-flows.csv', 127).replace(',pending,', ',cancelled,');
    const settledBack = line('capital-flows.csv', 2).replace(',settled,', ',pending,'); // the books moved it on: kept
    const flows = await importFundFolder(ds, slug, only('re-flow', 'capital-flows.csv', [cancelled, settledBack]));
    expect(fileOf(flows, 'capital-flows.csv')).toMatchObject({ inserted: 0, updated: 1 });
    const uncancel = line('capital-flows.csv', 2).replace(',settled,', ',cancelled,');
    expect((await importErrors(ds, slug, only('re-uncancel', 'capital-flows.csv', [uncancel])))[0]).toMatchObject({
      line: 2,
      column: 'status',
      reason: expect.stringContaining('the flow is settled in the books; the file cannot make it cancelled'),
    });
    const investor = line('investors.csv', 2).replace('kai.demoford@example.com', 'kai@example.org');
    expect(
      fileOf(await importFundFolder(ds, slug, only('re-inv', 'investors.csv', [investor])), 'investors.csv'),
    ).toMatchObject({ updated: 1 });
    const [stored] = await ds.query(
      `SELECT (SELECT close::text FROM prices p JOIN instruments i ON i.id = p.instrument_id
                WHERE p.fund_id = $1 AND i.symbol = 'BTC' AND p.price_date = '2023-11-10') AS close,
              (SELECT status FROM expenses WHERE fund_id = $1 AND external_id = 'EXP-2026-10-ADM') AS expense,
              (SELECT status FROM capital_activity WHERE fund_id = $1 AND external_id = 'CF00126') AS flow,
              (SELECT status FROM capital_activity WHERE fund_id = $1 AND external_id = 'CF00001') AS settled,
              (SELECT email FROM investors WHERE fund_id = $1 AND external_id = 'INV001') AS email`,
      [fundId],
    );
    expect(stored).toEqual({
      close: '35300.0000000000',
      expense: 'paid',
      flow: 'cancelled',
      settled: 'settled',
      email: 'kai@example.org',
    });

    // once a NAV is published the books are closed through it: nothing new or changed may be dated inside
    await ds.query(
      `UPDATE nav_runs SET published_at = now() WHERE fund_id = $1 AND status = 'complete' AND valuation_date = '2023-11-30'`,
      [fundId],
    );
    const inside = lateTrade.replace('T09999999,2023-11-05', 'T09999998,2023-11-20');
    expect((await importErrors(ds, slug, only('re-closed', 'trades.csv', [inside])))[0]).toEqual({
      file: 'trades.csv',
      line: 2,
      column: 'executed_at',
      reason:
        '2023-11-20 is on or before 2023-11-30, the last published NAV: the books are closed through it; date a correction after it',
    });
    const closedPrice = only('re-closed-price', 'prices.csv', ['2023-11-10,BTC,35400.00']);
    expect((await importErrors(ds, slug, closedPrice))[0]).toMatchObject({ line: 2, column: 'close' });
    // market history before inception moves nothing: taken, closed books or not, and the NAV is not redone
    const history = await importFundFolder(ds, slug, only('re-history', 'prices.csv', ['2023-01-15,BTC,21000.00']));
    expect([fileOf(history, 'prices.csv')?.inserted, history.navRestartFrom]).toEqual([1, null]);
    // a report distributed through fundgate stays distributed when the file still says draft
    await ds.query(
      `UPDATE lp_reports SET status = 'distributed', distributed_at = now() WHERE fund_id = $1 AND external_id = 'LPR-2026-09'`,
      [fundId],
    );
    const reports = await importFundFolder(
      ds,
      slug,
      only('re-reports', 'lp-reports.csv', [line('lp-reports.csv', 13)]),
    );
    expect(fileOf(reports, 'lp-reports.csv')).toMatchObject({ inserted: 0, updated: 0 });
  });

  it('a bad row in a later file rolls back the earlier files of the same import', async () => {
    const dir = corrupt('late-bad', 'lp-reports.csv', 2, (l) => l.replace(/,distributed,/, ',published,'));
    const errors = await importErrors(ds, 'late-bad', dir);
    expect(errors[0]).toMatchObject({ file: 'lp-reports.csv', line: 2, column: 'status' });
    expect(await counts('late-bad')).toEqual({ funds: 0, trades: 0, prices: 0, flows: 0 });
  });
});
