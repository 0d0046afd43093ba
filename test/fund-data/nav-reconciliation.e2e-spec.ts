import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, endOfMonth } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import type { ReconciliationDto, ReconciliationRowDto } from '../../src/fund-data/nav/nav.dto';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';

jest.setTimeout(240_000);

const SLUG = `fd-recon-${process.pid}`;
const VALUED_THROUGH = '2023-12-31';
const SILENT_MONTH_END = '2023-11-30'; // valued, and the administrator never sent it
const RESTATED = '2023-12-31';

/**
 * What a fund administrator's controller reads in the reconciliation: every figure the administrator
 * sent for a date (a restatement keeps the replaced figure, when it was imported and when it was
 * replaced; the same figure again adds nothing), and the valued month-ends it has not sent at all
 * (a month-end after today is not awaited; none before the administrator's first NAV), both read in
 * one snapshot.
 */
describe('NAV reconciliation: restatements and month-ends awaiting the administrator (e2e)', () => {
  let app: TestApp;
  let key: string;
  const base = join(tmpdir(), `fundgate-recon-${process.pid}`);
  const generated = join(base, 'generated');
  const header = () => readFileSync(join(generated, 'admin-navs.csv'), 'utf8').split('\n')[0];
  /** A folder with admin-navs.csv holding only these `date,nav` lines. */
  const adminNavs = (name: string, lines: string[]) => {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'admin-navs.csv'), [header(), ...lines].join('\n') + '\n');
    return dir;
  };
  const reconciliation = async (query = 'limit=1000', as = key) => {
    const res = await call<ReconciliationDto>(app, 'GET', `/api/v1/fund/nav/reconciliation?${query}`, { key: as });
    expect(res.status).toBe(200);
    return res.json;
  };
  const row = async (date: string): Promise<ReconciliationRowDto> => {
    const found = (await reconciliation()).items.find((r) => r.valuationDate === date);
    if (!found) throw new Error(`no reconciliation row for ${date}`);
    return found;
  };
  const shadowNav = async (date: string): Promise<string> =>
    (
      await dbOf(app).query(
        `SELECT net_asset_value::text AS nav FROM nav_runs WHERE fund_id = $1 AND valuation_date = $2 AND status = 'complete'`,
        [fundIdForSlug(SLUG), date],
      )
    )[0].nav;

  beforeAll(async () => {
    app = await bootApp();
    generateDemoFund({ seed: 31, outDir: generated, trades: 150, through: VALUED_THROUGH });
    // the administrator never sent its November 2023 NAV
    const csv = readFileSync(join(generated, 'admin-navs.csv'), 'utf8');
    writeFileSync(
      join(generated, 'admin-navs.csv'),
      csv
        .split('\n')
        .filter((l) => !l.startsWith(`${SILENT_MONTH_END},`))
        .join('\n'),
    );
    await importFundFolder(dbOf(app), SLUG, generated, { synthetic: true });
    await new NavRunService(dbOf(app)).runNavRange(fundIdForSlug(SLUG), { to: VALUED_THROUGH });
    key = (await mintKey(app, { scopes: ['fund:read'], fund: SLUG, plan: 'platform' })).key;
  });
  afterAll(async () => {
    rmSync(base, { recursive: true, force: true });
    await app?.close();
  });

  it('a restated administrator NAV keeps the replaced figure with both times; an unchanged re-import adds nothing', async () => {
    const first = await row(RESTATED);
    expect(first.restatements).toEqual([]);
    const firstImportedAt = first.administratorNavImportedAt!;
    expect(Date.parse(firstImportedAt)).toBeGreaterThan(Date.now() - 600_000);

    const restatedTo = '1234567.89';
    const report = await importFundFolder(dbOf(app), SLUG, adminNavs('restated', [`${RESTATED},${restatedTo}`]));
    expect(report.files[0].restated).toEqual([{ date: RESTATED, from: first.administratorNav, to: restatedTo }]);
    const restated = await row(RESTATED);
    expect(restated).toMatchObject({ administratorNav: restatedTo, status: 'break' }); // compared with the current figure
    expect(restated.restatements).toEqual([
      { administratorNav: first.administratorNav, importedAt: firstImportedAt, replacedAt: expect.any(String) },
    ]);
    const replacedAt = restated.restatements[0].replacedAt;
    expect(replacedAt > firstImportedAt).toBe(true);
    expect(restated.administratorNavImportedAt).toBe(replacedAt);

    // the same figure again: no new history, the import time of the current figure stays
    await importFundFolder(dbOf(app), SLUG, adminNavs('unchanged', [`${RESTATED},${restatedTo}`]));
    expect(await row(RESTATED)).toEqual(restated);

    // restated back to the first figure: two replaced figures, latest first
    await importFundFolder(dbOf(app), SLUG, adminNavs('back', [`${RESTATED},${first.administratorNav}`]));
    const back = await row(RESTATED);
    expect(back.administratorNav).toBe(first.administratorNav);
    expect(back.restatements.map((r) => [r.administratorNav, r.importedAt])).toEqual([
      [restatedTo, replacedAt],
      [first.administratorNav, firstImportedAt],
    ]);
    expect(back.restatements[0].replacedAt).toBe(back.administratorNavImportedAt);
    expect(back.status).toBe(first.status);
    // other dates were never restated
    expect((await row('2023-10-31')).restatements).toEqual([]);
  });

  it('a valued month-end without an administrator NAV is awaited, on every page; a month-end after today is not', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const future = endOfMonth(addDays(today, 1)); // this month's end, or next month's on the last day of a month
    // a complete run dated after today (the engine values no such date; written here to prove the bound)
    await dbOf(app).query(
      `INSERT INTO nav_runs (id, fund_id, valuation_date, status, started_at, completed_at, net_asset_value)
       VALUES (gen_random_uuid(), $1, $2, 'complete', now(), now(), 1000.00)`,
      [fundIdForSlug(SLUG), future],
    );
    const expected = [
      { valuationDate: SILENT_MONTH_END, shadowNav: await shadowNav(SILENT_MONTH_END), runStatus: 'complete' },
    ];
    const whole = await reconciliation();
    expect(whole.awaitingAdministrator).toEqual(expected);
    expect(whole.items.map((r) => r.valuationDate)).not.toContain(SILENT_MONTH_END);
    // the rows stay keyset-paged; the awaited month-ends are the same on every page
    const first = await reconciliation('limit=1');
    const second = await reconciliation(`limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([first.items[0].valuationDate, second.items[0].valuationDate]).toEqual(
      whole.items.slice(0, 2).map((r) => r.valuationDate),
    );
    expect([first.awaitingAdministrator, second.awaitingAdministrator]).toEqual([expected, expected]);

    // the administrator sends it: a reconciliation row, no longer awaited
    await importFundFolder(dbOf(app), SLUG, adminNavs('late', [`${SILENT_MONTH_END},${expected[0].shadowNav}`]));
    const after = await reconciliation();
    expect(after.awaitingAdministrator).toEqual([]);
    expect(after.items.find((r) => r.valuationDate === SILENT_MONTH_END)).toMatchObject({
      administratorNav: expected[0].shadowNav,
      status: 'within_tolerance',
      restatements: [],
    });
  });

  /** A fund of its own with complete runs on these dates (written directly: only the dates matter here). */
  const fundWithRuns = async (dates: string[]) => {
    const fund = await createFund(app);
    for (const date of dates)
      await dbOf(app).query(
        `INSERT INTO nav_runs (id, fund_id, valuation_date, status, started_at, completed_at, net_asset_value)
         VALUES (gen_random_uuid(), $1, $2, 'complete', now(), now(), 1000.00)`,
        [fund.id, date],
      );
    const fundKey = (await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'platform' })).key;
    const adminNav = (date: string) =>
      dbOf(app).query(
        `INSERT INTO admin_navs (fund_id, valuation_date, net_asset_value, administrator) VALUES ($1, $2, 1000.00, 'Adm')`,
        [fund.id, date],
      );
    const awaited = async () =>
      (await reconciliation('limit=1000', fundKey)).awaitingAdministrator.map((a) => a.valuationDate);
    return { fund, fundKey, adminNav, awaited };
  };

  it('no month-end is awaited before the administrator’s first NAV, none while it has sent nothing', async () => {
    const { adminNav, awaited } = await fundWithRuns([
      '2024-01-31',
      '2024-02-29',
      '2024-03-15',
      '2024-03-31',
      '2024-04-30',
    ]);
    // valued since January, no administrator yet: nothing is awaited (the list does not grow with the fund's age)
    expect(await awaited()).toEqual([]);
    // the administrator starts reporting with March: only the month-ends from March on are awaited
    await adminNav('2024-03-31');
    expect(await awaited()).toEqual(['2024-04-30']);
    // it sends a figure for a day that is not a month-end, earlier: the bound moves back to it
    await adminNav('2024-02-15');
    expect(await awaited()).toEqual(['2024-04-30', '2024-02-29']);
  });

  it('items and awaitingAdministrator are one snapshot: an import committing during the read lists a month-end once', async () => {
    const { fund, fundKey, adminNav, awaited } = await fundWithRuns(['2024-05-31', '2024-06-30']);
    await adminNav('2024-05-31');
    expect(await awaited()).toEqual(['2024-06-30']);
    // An import of June's figure holds the history table until it commits, so a read of the history
    // waits for it while a read that does not touch the history goes on in the snapshot before.
    const importer = dbOf(app).createQueryRunner();
    try {
      await importer.startTransaction();
      await importer.query(`LOCK TABLE admin_nav_versions IN ACCESS EXCLUSIVE MODE`);
      await importer.query(
        `INSERT INTO admin_navs (fund_id, valuation_date, net_asset_value, administrator) VALUES ($1, '2024-06-30', 1000.00, 'Adm')`,
        [fund.id],
      );
      const answer = reconciliation('limit=1000', fundKey);
      // commit once the read's statements are either done or waiting for the import
      for (let i = 0; ; i++) {
        const [s] = await dbOf(app).query(
          `SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting,
                  count(*) FILTER (WHERE wait_event_type IS DISTINCT FROM 'Lock')::int AS running
             FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%admin_navs a%'`,
        );
        if (s.waiting > 0 && s.running === 0) break;
        if (i > 500) throw new Error('the reconciliation read never waited for the import');
        await new Promise((r) => setTimeout(r, 10));
      }
      await importer.commitTransaction();
      const read = await answer;
      const listed = [
        ...read.items.filter((r) => r.valuationDate === '2024-06-30').map(() => 'item'),
        ...read.awaitingAdministrator.filter((a) => a.valuationDate === '2024-06-30').map(() => 'awaiting'),
      ];
      expect(listed).toHaveLength(1); // in both, or in neither, when the two lists are read in two snapshots
    } finally {
      if (importer.isTransactionActive) await importer.rollbackTransaction();
      await importer.release();
    }
    expect(await awaited()).toEqual([]);
  });
});
