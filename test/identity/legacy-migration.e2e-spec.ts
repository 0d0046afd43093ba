import { bootApp, call, createFund, dbOf, type TestApp, uniqueName } from '../utils/app';
import { LEGACY_SQL } from '../../migrations/1763800600000-People';
import { displayParts, generateKey, hashKey } from '../../src/keys/key-format';

/**
 * The People migration carries today's accounts and keys over without invalidating any key. Proven by
 * writing pre-migration rows (accounts without people; the identity CHECK lifted meanwhile), running
 * the migration's own legacy SQL on them, and then using every key through the app.
 */
describe('legacy accounts and keys migration (e2e)', () => {
  let app: TestApp;
  let fund: { id: string; slug: string };

  beforeAll(async () => {
    app = await bootApp();
    fund = await createFund(app);
  });
  afterAll(() => app.close());

  async function legacyKey(accountId: string, scopes: string[], plan: string, fundId: string | null, isDemo = false) {
    const key = generateKey();
    const { displayPrefix, lastFour } = displayParts(key);
    await dbOf(app).query(
      `INSERT INTO api_keys (account_id, fund_id, name, key_hash, display_prefix, last_four, scopes, plan, is_demo)
       VALUES ($1, $2, 'legacy', $3, $4, $5, $6, $7, $8)`,
      [accountId, fundId, hashKey(key), displayPrefix, lastFour, scopes, plan, isDemo],
    );
    return key;
  }

  it('gives each legacy account a person (or a service identity for the demo key) and a covering role; every key still works', async () => {
    const db = dbOf(app);
    const suffix = uniqueName('x');
    await db.query('ALTER TABLE accounts DROP CONSTRAINT accounts_identity_kind');
    let keys: Record<string, string>;
    const names = { alice: `Alice Smith ${suffix}`, bob: `bob.${suffix}@Example.com`, demo: `demo-${suffix}` };
    try {
      const ids: Record<string, string> = {};
      for (const [k, name] of Object.entries(names)) {
        ids[k] = (await db.query(`INSERT INTO accounts (name) VALUES ($1) RETURNING id`, [name]))[0].id;
      }
      keys = {
        aliceRead: await legacyKey(ids.alice, ['fund:read'], 'developer', fund.id),
        aliceManage: await legacyKey(ids.alice, ['fund:read', 'keys:manage'], 'platform', fund.id),
        aliceCalc: await legacyKey(ids.alice, [], 'developer', null),
        bobReview: await legacyKey(ids.bob, ['proposals:review'], 'free', fund.id),
        demo: await legacyKey(ids.demo, ['fund:read'], 'free', fund.id, true),
      };
      for (const sql of LEGACY_SQL) await db.query(sql);
      for (const sql of LEGACY_SQL) await db.query(sql); // idempotent
    } finally {
      await db.query(`ALTER TABLE accounts ADD CONSTRAINT accounts_identity_kind CHECK (
        (kind = 'person' AND user_id IS NOT NULL AND owner_fund_id IS NULL) OR (kind = 'service' AND user_id IS NULL))`);
    }
    const people = await db.query(
      `SELECT a.name, a.kind, a.owner_fund_id, u.email, u.plan, u.password_hash, m.role
         FROM accounts a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN fund_members m ON m.user_id = u.id AND m.fund_id = $1
        WHERE a.name = ANY($2) ORDER BY a.name`,
      [fund.id, Object.values(names)],
    );
    const byName = Object.fromEntries(people.map((p: { name: string }) => [p.name, p]));
    expect(byName[names.alice]).toMatchObject({
      kind: 'person',
      email: `alice-smith-${suffix}@legacy.invalid`,
      plan: 'platform',
      password_hash: null,
      role: 'admin',
    });
    expect(byName[names.bob]).toMatchObject({
      kind: 'person',
      email: names.bob.toLowerCase(),
      plan: 'free',
      role: 'manager',
    });
    expect(byName[names.demo]).toMatchObject({ kind: 'service', owner_fund_id: fund.id, email: null });
    for (const [label, key] of Object.entries(keys!)) {
      const me = await call(app, 'GET', '/api/v1/me', { key });
      expect({ label, status: me.status }).toEqual({ label, status: 200 });
    }
    expect((await call(app, 'GET', '/api/v1/me', { key: keys!.aliceManage })).json.scopes).toEqual([
      'fund:read',
      'keys:manage',
    ]);
    expect((await call(app, 'GET', '/api/v1/me', { key: keys!.bobReview })).json.scopes).toEqual(['proposals:review']);
    expect((await call(app, 'GET', '/api/v1/me', { key: keys!.demo })).json.scopes).toEqual(['fund:read']);
  });
});
