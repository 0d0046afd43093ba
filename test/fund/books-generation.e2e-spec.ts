import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { purgeSyntheticFundBooks } from '../../src/fund/import/fund-purge';
import { demoClock } from '../../src/fund/import/seed-demo-fund';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { addDays } from '../../src/fund/dates';
import { fundIdForSlug } from '../../src/fund/ids';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { cacheNamespace } from '../../src/fund-data/common/answer-cache';
import { bootApp, call, dbOf, mintKey, type TestApp } from '../utils/app';

jest.setTimeout(240_000);
const SLUG = 'generation-fund';

/** Issue 13 finding 7: a re-seed must never be served the previous books' cached answers. */
describe('caches keyed by the books generation (e2e)', () => {
  let app: TestApp;
  let key: string;
  const fundId = fundIdForSlug(SLUG);
  const dir = join(tmpdir(), `fundgate-generation-${process.pid}`);
  const to = addDays(DEMO_INCEPTION_DATE, 20);

  /** Purge, import the folder, run the first 20 days: the same number of entries every time. */
  async function seed(): Promise<void> {
    await purgeSyntheticFundBooks(dbOf(app), fundId);
    await importFundFolder(dbOf(app), SLUG, dir, { synthetic: true });
    await new NavRunService(dbOf(app)).runNavRange(fundId, { to, clock: demoClock(2) });
  }
  const trialBalance = async () => (await call(app, 'GET', `/api/v1/fund/trial-balance?asOf=${to}`, { key })).json;
  const account = (tb: { accounts: { accountCode: string; debit: string; credit: string }[] }, code: string) =>
    tb.accounts.find((a) => a.accountCode === code);

  beforeAll(async () => {
    app = await bootApp();
    generateDemoFund({ seed: 7, outDir: dir, trades: 200, through: to });
    await seed();
    key = (await mintKey(app, { scopes: ['fund:read'], fund: SLUG, plan: 'platform' })).key;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  });

  it('re-seeding with other prices gives the same entry numbers but a fresh trial balance', async () => {
    const before = await trialBalance();
    const [{ n: entriesBefore }] = await dbOf(app).query(
      `SELECT max(entry_number)::int AS n FROM journal_entries WHERE fund_id = $1`,
      [fundId],
    );
    // The last date's BTC close 1 % higher: the same postings, other amounts.
    const prices = readFileSync(join(dir, 'prices.csv'), 'utf8')
      .split('\n')
      .map((line) => {
        const cells = line.split(',');
        if (cells[0] !== to || cells[1] !== 'BTC') return line;
        cells[2] = (Number(cells[2]) * 1.01).toFixed(2);
        return cells.join(',');
      });
    writeFileSync(join(dir, 'prices.csv'), prices.join('\n'));
    await seed();
    const [{ n: entriesAfter }] = await dbOf(app).query(
      `SELECT max(entry_number)::int AS n FROM journal_entries WHERE fund_id = $1`,
      [fundId],
    );
    expect(entriesAfter).toBe(entriesBefore);
    const [ledger] = await dbOf(app).query(
      `SELECT sum(debit - credit)::text AS net FROM journal_lines WHERE fund_id = $1 AND account_code = '1250' AND entry_date <= $2`,
      [fundId, to],
    );
    const after = await trialBalance();
    expect(account(after, '1250')).not.toEqual(account(before, '1250'));
    const served = account(after, '1250')!;
    expect(Number(served.debit) - Number(served.credit)).toBeCloseTo(Number(ledger.net), 2);
  });

  it('namespaces the cache by database, so two databases on one Redis index never share an answer', () => {
    const a = cacheNamespace('postgres://postgres@127.0.0.1:5432/fundgate_a');
    const b = cacheNamespace('postgres://postgres@127.0.0.1:5432/fundgate_b');
    const c = cacheNamespace('postgres://postgres@10.0.0.9:5432/fundgate_a');
    expect(new Set([a, b, c]).size).toBe(3);
    expect(cacheNamespace('postgres://user:secret@127.0.0.1:5432/fundgate_a')).toBe(a);
    expect(a).not.toContain('secret');
  });
});
