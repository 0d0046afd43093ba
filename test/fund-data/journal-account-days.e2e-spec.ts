import { bootApp, dbOf, type TestApp } from '../utils/app';
import { seedFundsOnce } from './fixtures';

jest.setTimeout(240_000);

/** Rows where journal_account_days differs from the sums of the fund's lines (both printed as text). */
const MISMATCHES = `
  SELECT count(*)::int AS n FROM (
    SELECT account_code, entry_date, count(*)::bigint AS n, sum(debit)::text AS d, sum(credit)::text AS c
      FROM journal_lines WHERE fund_id = $1 GROUP BY account_code, entry_date
  ) l
  FULL JOIN (
    SELECT account_code, entry_date, line_count AS n, debit::text AS d, credit::text AS c
      FROM journal_account_days WHERE fund_id = $1
  ) s USING (account_code, entry_date)
  WHERE l.n IS DISTINCT FROM s.n OR l.d IS DISTINCT FROM s.d OR l.c IS DISTINCT FROM s.c`;

describe('journal_account_days: per-day sums kept exact by the journal_lines triggers (e2e)', () => {
  let app: TestApp;
  let funds: { demoId: string; otherId: string };

  beforeAll(async () => {
    app = await bootApp();
    funds = await seedFundsOnce(app);
  });
  afterAll(() => app.close());

  it('equal the lines of funds written by the importer and the NAV engine (runs, supersedes, reversals)', async () => {
    for (const fundId of [funds.demoId, funds.otherId]) {
      const [{ rows }] = await dbOf(app).query(
        `SELECT count(*)::int AS rows FROM journal_account_days WHERE fund_id = $1`,
        [fundId],
      );
      expect(rows).toBeGreaterThan(100);
      expect((await dbOf(app).query(MISMATCHES, [fundId]))[0].n).toBe(0);
    }
  });

  it('follow a delete of lines (the purge path) and drop emptied days; rolled back, the fixtures stay', async () => {
    const qr = dbOf(app).createQueryRunner();
    await qr.connect();
    try {
      await qr.query('BEGIN');
      await qr.query(`SET LOCAL fundgate.purge = 'on'`);
      const [day] = await qr.query(
        `SELECT account_code, entry_date FROM journal_account_days WHERE fund_id = $1 ORDER BY line_count, entry_date LIMIT 1`,
        [funds.otherId],
      );
      // one line of a busy day (the day stays, smaller) and every line of the least busy day (the day goes)
      await qr.query(
        `DELETE FROM journal_lines WHERE id = (SELECT max(id) FROM journal_lines WHERE fund_id = $1 AND account_code = '1000')`,
        [funds.otherId],
      );
      await qr.query(`DELETE FROM journal_lines WHERE fund_id = $1 AND account_code = $2 AND entry_date = $3`, [
        funds.otherId,
        day.account_code,
        day.entry_date,
      ]);
      expect((await qr.query(MISMATCHES, [funds.otherId]))[0].n).toBe(0);
      const left = await qr.query(
        `SELECT 1 FROM journal_account_days WHERE fund_id = $1 AND account_code = $2 AND entry_date = $3`,
        [funds.otherId, day.account_code, day.entry_date],
      );
      expect(left).toHaveLength(0);
    } finally {
      await qr.query('ROLLBACK');
      await qr.release();
    }
    expect((await dbOf(app).query(MISMATCHES, [funds.otherId]))[0].n).toBe(0);
  });
});
