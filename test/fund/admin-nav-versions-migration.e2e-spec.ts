import { AdminNavVersions1763802100000 } from '../../migrations/1763802100000-AdminNavVersions';
import type { ReconciliationDto } from '../../src/fund-data/nav/nav.dto';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';
import { isolatedDatabase } from '../webhooks/isolated-db';

/**
 * The migration that keeps every administrator NAV (on a database of its own: its down drops a table
 * the reconciliation reads). up makes the stored figures their dates' first version, with no import
 * time; a restatement then keeps the replaced figure; down keeps the current figures and drops the
 * history; up again starts the history from them. The history refuses update, delete and TRUNCATE.
 */
describe('migration AdminNavVersions (e2e)', () => {
  let app: TestApp;
  let fundId: string;
  let key: string;
  const migration = new AdminNavVersions1763802100000();

  beforeAll(async () => {
    app = await bootApp({}, { DATABASE_URL: await isolatedDatabase('admin_nav_versions') });
    const fund = await createFund(app);
    fundId = fund.id;
    key = (await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'platform' })).key;
  });
  afterAll(() => app?.close());

  const db = () => dbOf(app);
  const rows = async () =>
    (await call<ReconciliationDto>(app, 'GET', '/api/v1/fund/nav/reconciliation', { key })).json.items.map((r) => ({
      date: r.valuationDate,
      nav: r.administratorNav,
      importedAt: r.administratorNavImportedAt,
      restatements: r.restatements,
    }));
  const versionsTable = async () =>
    (await db().query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'admin_nav_versions'`))[0].n;
  const restate = (date: string, nav: string) =>
    db().query(`UPDATE admin_navs SET net_asset_value = $3 WHERE fund_id = $1 AND valuation_date = $2`, [
      fundId,
      date,
      nav,
    ]);

  it('up: stored figures are version 1 (no import time); down keeps the current figures; up again', async () => {
    const runner = db().createQueryRunner();
    try {
      await migration.down(runner);
      expect(await versionsTable()).toBe(0);
      // figures stored before the history existed
      await db().query(
        `INSERT INTO admin_navs (fund_id, valuation_date, net_asset_value, administrator)
         VALUES ($1, '2026-09-30', 1000.00, 'Adm'), ($1, '2026-10-31', 2000.00, 'Adm')`,
        [fundId],
      );
      await migration.up(runner);
      expect(await rows()).toEqual([
        { date: '2026-10-31', nav: '2000.00', importedAt: null, restatements: [] },
        { date: '2026-09-30', nav: '1000.00', importedAt: null, restatements: [] },
      ]);

      await restate('2026-10-31', '2100.00');
      await restate('2026-09-30', '1000.00'); // the same figure: no history
      const [october, september] = await rows();
      expect(september).toEqual({ date: '2026-09-30', nav: '1000.00', importedAt: null, restatements: [] });
      expect(october).toEqual({
        date: '2026-10-31',
        nav: '2100.00',
        importedAt: expect.any(String),
        restatements: [{ administratorNav: '2000.00', importedAt: null, replacedAt: october.importedAt }],
      });
      // the history is append-only
      await expect(db().query(`UPDATE admin_nav_versions SET net_asset_value = 1`)).rejects.toThrow(/append-only/);
      await expect(db().query(`DELETE FROM admin_nav_versions`)).rejects.toThrow(/append-only/);
      // row triggers do not fire on TRUNCATE: a statement trigger refuses it, directly, by cascade, and in a purge
      await expect(db().query(`TRUNCATE admin_nav_versions`)).rejects.toThrow(/append-only/);
      await expect(db().query(`TRUNCATE admin_navs CASCADE`)).rejects.toThrow(/append-only/);
      const purge = db().createQueryRunner();
      try {
        await purge.startTransaction();
        await purge.query(`SET LOCAL fundgate.purge = 'on'`);
        await expect(purge.query(`TRUNCATE admin_nav_versions`)).rejects.toThrow(/append-only/);
      } finally {
        await purge.rollbackTransaction();
        await purge.release();
      }
      expect((await rows()).map((r) => r.restatements.length)).toEqual([1, 0]);

      await migration.down(runner);
      expect(await versionsTable()).toBe(0);
      const current = await db().query(
        `SELECT valuation_date::text AS d, net_asset_value::text AS nav FROM admin_navs WHERE fund_id = $1 ORDER BY 1`,
        [fundId],
      );
      expect(current).toEqual([
        { d: '2026-09-30', nav: '1000.00' },
        { d: '2026-10-31', nav: '2100.00' },
      ]);
      await restate('2026-10-31', '2200.00'); // no trigger left behind

      await migration.up(runner);
      expect((await rows()).map((r) => [r.nav, r.importedAt, r.restatements])).toEqual([
        ['2200.00', null, []],
        ['1000.00', null, []],
      ]);
    } finally {
      await runner.release();
    }
  });
});
