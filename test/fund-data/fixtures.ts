import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { demoClock, seedDemoFund } from '../../src/fund/import/seed-demo-fund';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { addDays } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { call, dbOf, mintKey, type CallResult, type ResponseJson, type TestApp } from '../utils/app';

// Own slugs: other suites seed and purge the real 'demo' slug in the same test database.
export const DEMO_SLUG = 'fd-demo';
export const OTHER_SLUG = 'fd-other';
/** Small sizes keep the suite quick; the books still span three years of daily NAV runs. */
const DEMO_TRADES = 3000;

/**
 * Seeds the demo fund (the books' own seed: generator, importer, NAV engine) and a second,
 * smaller fund once per jest run. Test files run in parallel workers; an advisory lock makes
 * the first one seed and the others wait and reuse.
 */
export async function seedFundsOnce(app: TestApp): Promise<{ demoId: string; otherId: string }> {
  const db = dbOf(app);
  const demoId = fundIdForSlug(DEMO_SLUG);
  const otherId = fundIdForSlug(OTHER_SLUG);
  const qr = db.createQueryRunner();
  await qr.connect();
  try {
    // Waiting here while another worker seeds takes longer than the app pool's DB_LOCK_TIMEOUT_MS / DB_STATEMENT_TIMEOUT_MS.
    await qr.query(`SET lock_timeout = 0`);
    await qr.query(`SET statement_timeout = 0`);
    await qr.query(`SELECT pg_advisory_lock(774411)`);
    const seeded = await qr.query(
      `SELECT count(*)::int AS n FROM nav_runs WHERE fund_id = ANY($1::uuid[]) AND status = 'complete'`,
      [[demoId, otherId]],
    );
    if (seeded[0].n === 0) {
      const demoDir = join(tmpdir(), `fundgate-fd-test-demo-${process.pid}`);
      await seedDemoFund(db, { slug: DEMO_SLUG, trades: DEMO_TRADES, workDir: demoDir });
      rmSync(demoDir, { recursive: true, force: true });
      // The second fund: another seed, imported under its own slug, valued for its first 45 days only.
      const dir = join(tmpdir(), `fundgate-fd-test-other-${process.pid}`);
      generateDemoFund({ seed: 4242, outDir: dir, trades: 600 });
      await importFundFolder(db, OTHER_SLUG, dir, { synthetic: true });
      await new NavRunService(db).runNavRange(otherId, { to: addDays(DEMO_INCEPTION_DATE, 45), clock: demoClock(2) });
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await qr.query(`SELECT pg_advisory_unlock(774411)`);
    await qr.query(`RESET lock_timeout`);
    await qr.query(`RESET statement_timeout`);
    await qr.release();
  }
  return { demoId, otherId };
}

export async function fundKey(app: TestApp, slug: string): Promise<string> {
  return (await mintKey(app, { scopes: ['fund:read'], fund: slug, plan: 'platform' })).key;
}

/** Every GET endpoint with valid parameters (dates filled in by the caller's fund). */
export function allEndpoints(p: { attributionDate: string; journalFrom: string; journalTo: string }): string[] {
  return [
    '/api/v1/fund/overview',
    '/api/v1/fund/positions',
    '/api/v1/fund/breakdown',
    '/api/v1/fund/exposure',
    '/api/v1/fund/exposure/series?days=10',
    `/api/v1/fund/pnl/attribution?date=${p.attributionDate}`,
    '/api/v1/fund/risk/var?windowDays=30',
    '/api/v1/fund/trial-balance',
    '/api/v1/fund/capital-accounts',
    '/api/v1/fund/expenses',
    '/api/v1/fund/fee-terms',
    '/api/v1/fund/trades',
    `/api/v1/fund/ledger/journal-entries?from=${p.journalFrom}&to=${p.journalTo}`,
    '/api/v1/fund/ledger/gl-detail?accountCode=1000',
    '/api/v1/fund/investors',
    '/api/v1/fund/capital-activity',
    '/api/v1/fund/dealing-calendar',
    '/api/v1/fund/lp-reports',
    '/api/v1/fund/pnl/attribution-dates',
    '/api/v1/fund/risk/stress-presets',
    '/api/v1/fund/risk/stress-test?preset=covid-2020',
    '/api/v1/fund/nav/history',
    '/api/v1/fund/nav/reconciliation',
    '/api/v1/fund/performance',
    '/api/v1/fund/ledger/accounts',
  ];
}

export const DECIMAL = /^-?\d+(\.\d+)?$/;
export const MONEY = /^-?\d+\.\d{2}$/;

export async function get<T = ResponseJson>(app: TestApp, url: string, key: string): Promise<CallResult<NoInfer<T>>> {
  return call<T>(app, 'GET', url, { key });
}
