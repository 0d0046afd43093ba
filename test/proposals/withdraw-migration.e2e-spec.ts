import { ProposalWithdrawal1763802000000 } from '../../migrations/1763802000000-ProposalWithdrawal';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey } from '../utils/app';
import { isolatedDatabase } from '../webhooks/isolated-db';
import { seedBooks, stageEntry } from './books-fixture';

/**
 * The migration that adds `withdrawn` (on a database of its own: its down drops columns every other
 * proposals spec reads). down refuses while withdrawn proposals exist, and otherwise restores the
 * previous constraints; up again brings withdrawal back.
 */
describe('migration ProposalWithdrawal (e2e)', () => {
  let app: TestApp;
  let maker: TestKey;
  let reviewer: TestKey;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' }, { DATABASE_URL: await isolatedDatabase('withdraw_mig') });
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    maker = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, plan: 'platform' });
    reviewer = await mintKey(app, { scopes: ['fund:read', 'proposals:review'], fund: fund.slug, plan: 'platform' });
  });
  afterAll(() => app.close());

  const stage = () => stageEntry(app, maker.key, 'migration');
  const statuses = async () =>
    dbOf(app).query<{ id: string; status: string }[]>(`SELECT id, status FROM proposals ORDER BY id`);
  const columns = async () =>
    (
      await dbOf(app).query<{ column_name: string }[]>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'proposals' AND column_name LIKE 'withdr%' ORDER BY 1`,
      )
    ).map((c) => c.column_name);

  it('down refuses while a proposal is withdrawn; without one it restores the old schema; up brings withdrawal back', async () => {
    const [pending, approved, rejected, withdrawn] = [await stage(), await stage(), await stage(), await stage()];
    const decide = (id: string, d: string, body: unknown) =>
      call(app, 'POST', `/api/v1/admin/proposals/${id}/${d}`, { key: reviewer.key, body });
    expect((await decide(approved, 'approve', {})).status).toBe(200);
    expect((await decide(rejected, 'reject', { reason: 'no' })).status).toBe(200);
    expect((await call(app, 'POST', `/api/v1/fund/proposals/${withdrawn}/withdraw`, { key: maker.key })).status).toBe(
      200,
    );
    const before = await statuses();
    const allColumns = [
      'withdrawal_note',
      'withdrawn_at',
      'withdrawn_by_account_id',
      'withdrawn_by_key_id',
      'withdrawn_by_user_id',
    ];
    expect(await columns()).toEqual(allColumns);

    const migration = new ProposalWithdrawal1763802000000();
    const runner = dbOf(app).createQueryRunner();
    try {
      await expect(migration.down(runner)).rejects.toThrow(
        /1 withdrawn proposal\(s\) have no status before this migration/,
      );
      expect(await columns()).toEqual(allColumns); // nothing changed
      expect(await statuses()).toEqual(before);

      await dbOf(app).query(`DELETE FROM proposals WHERE id = $1`, [withdrawn]);
      await migration.down(runner);
      expect(await columns()).toEqual([]);
      expect(await statuses()).toEqual(before.filter((r) => r.id !== withdrawn)); // pending, approved, rejected kept
      // the old rules are back: no 'withdrawn', and a pending row has no decision time
      await expect(
        dbOf(app).query(`UPDATE proposals SET status = 'withdrawn', decided_at = now() WHERE id = $1`, [pending]),
      ).rejects.toThrow(/proposals_status_check/);
      await expect(dbOf(app).query(`UPDATE proposals SET decided_at = now() WHERE id = $1`, [pending])).rejects.toThrow(
        /proposals_check/,
      );

      await migration.up(runner);
      expect(await columns()).toEqual(allColumns);
      await expect(
        dbOf(app).query(`UPDATE proposals SET status = 'withdrawn' WHERE id = $1`, [pending]),
      ).rejects.toThrow(/proposals_withdrawn_check/); // withdrawn needs who and when
      await expect(
        dbOf(app).query(`UPDATE proposals SET status = 'rejected' WHERE id = $1`, [pending]),
      ).rejects.toThrow(/proposals_decided_check/); // a decision needs its time
    } finally {
      await runner.release();
    }
    const res = await call(app, 'POST', `/api/v1/fund/proposals/${pending}/withdraw`, { key: maker.key });
    expect([res.status, res.json.status]).toEqual([200, 'withdrawn']);
  });
});
