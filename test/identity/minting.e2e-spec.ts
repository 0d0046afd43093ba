import {
  bootApp,
  call,
  createFund,
  dbOf,
  keysMintedBy,
  mintKey,
  type CallResult,
  type TestApp,
  uniqueName,
} from '../utils/app';
import { KeysService } from '../../src/keys/keys.service';
import { consoleCall, person } from './console';

/** The minting rules (one function for the CLI, the admin API and the console), over HTTP. */
describe('minting rules (e2e)', () => {
  let app: TestApp;
  let demo: { id: string; slug: string };
  let carolFund: { id: string; slug: string };
  let manager: { key: string; id: string; accountId: string };
  let carolKey: { key: string; id: string; accountId: string };
  const mint = (key: string, body: Record<string, unknown>) =>
    call(app, 'POST', '/api/v1/admin/keys', { key, body: { name: 'k', ...body } });

  beforeAll(async () => {
    app = await bootApp();
    demo = await createFund(app);
    carolFund = await createFund(app);
    manager = await mintKey(app, {
      scopes: ['fund:read', 'keys:manage'],
      fund: demo.slug,
      plan: 'developer',
      account: uniqueName('mgr'),
    });
    carolKey = await mintKey(app, {
      scopes: ['fund:read', 'keys:manage'],
      fund: carolFund.slug,
      account: uniqueName('carol'),
    });
  });
  afterAll(() => app.close());

  function expectRefused(res: CallResult, field: string) {
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('insufficient_scope');
    expect(res.json.errors?.[0]?.field).toBe(field);
  }

  it("reproduction 1: a manager of one fund cannot mint into Carol's account, nor list or revoke her fund's keys", async () => {
    const carolAccount = (await dbOf(app).query('SELECT name FROM accounts WHERE id = $1', [carolKey.accountId]))[0]
      .name;
    const before = await keysMintedBy(app, manager.id);
    expectRefused(await mint(manager.key, { scopes: ['keys:manage'], account: carolAccount }), 'account');
    expectRefused(await mint(manager.key, { scopes: ['fund:read'], account: 'someone-made-up' }), 'account');
    expect(await keysMintedBy(app, manager.id)).toBe(before);
    const list = await call(app, 'GET', '/api/v1/admin/keys', { key: manager.key });
    expect(list.json.items.map((k: { id: string }) => k.id)).not.toContain(carolKey.id);
    expect(list.json.items.every((k: { fund: { slug: string } }) => k.fund.slug === demo.slug)).toBe(true);
    expect((await call(app, 'DELETE', `/api/v1/admin/keys/${carolKey.id}`, { key: manager.key })).status).toBe(404);
    const activity = await call(app, 'GET', `/api/v1/admin/activity?keyId=${carolKey.id}`, { key: manager.key });
    expect(activity.status).toBe(404);
    expect((await call(app, 'GET', '/api/v1/me', { key: carolKey.key })).status).toBe(200);
  });

  it('reproduction 3: a key expiring tomorrow cannot mint a never-expiring key, nor one expiring later', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    const short = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: demo.slug, expiresAt: tomorrow });
    const before = await keysMintedBy(app, short.id);
    expectRefused(await mint(short.key, { scopes: ['fund:read'] }), 'expiresAt');
    expectRefused(
      await mint(short.key, { scopes: ['fund:read'], expiresAt: new Date(tomorrow.getTime() + 60_000).toISOString() }),
      'expiresAt',
    );
    expect(await keysMintedBy(app, short.id)).toBe(before);
    const ok = await mint(short.key, {
      scopes: ['fund:read'],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(ok.status).toBe(201);
    expect(await keysMintedBy(app, short.id)).toBe(before + 1); // the count does see this key's mints
  });

  it("scopes stay within the person's role on the fund AND within the minting key", async () => {
    // The manager person is admin on demo (keys:manage), but this key does not hold nav:publish.
    expectRefused(await mint(manager.key, { scopes: ['nav:publish'] }), 'scopes');
    // A key minted with more scopes than the role now allows (role lowered later) mints nothing above the role.
    const analyst = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose', 'keys:manage'],
      fund: demo.slug,
      account: uniqueName('lowered'),
    });
    await dbOf(app).query(
      `UPDATE fund_members SET role = 'analyst' WHERE user_id = (SELECT user_id FROM accounts WHERE id = $1)`,
      [analyst.accountId],
    );
    app.get(KeysService).forget();
    expect((await call(app, 'GET', '/api/v1/me', { key: analyst.key })).json.scopes).toEqual([
      'fund:read',
      'fund:propose',
    ]);
    expect((await mint(analyst.key, { scopes: ['fund:read'] })).status).toBe(403); // keys:manage no longer effective
  });

  it("the fund is the minting key's fund; the plan is no higher than the key's and the person's", async () => {
    expectRefused(await mint(manager.key, { scopes: ['fund:read'], fund: carolFund.slug }), 'fund');
    expectRefused(await mint(manager.key, { scopes: [], fund: null }), 'fund');
    expectRefused(await mint(manager.key, { scopes: ['fund:read'], plan: 'platform' }), 'plan');
    const freePerson = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: demo.slug, plan: 'free' });
    expectRefused(await mint(freePerson.key, { scopes: ['fund:read'], plan: 'developer' }), 'plan');
  });

  it("a minted key goes into the caller's own identity", async () => {
    const res = await mint(manager.key, { scopes: ['fund:read'] });
    expect(res.status).toBe(201);
    expect(res.json.account.id).toBe(manager.accountId);
    expect(res.json.owner.kind).toBe('person');
  });

  it('a console session mints within its role, on the fund it chose, into its own identity', async () => {
    const analyst = await person(app, demo.slug, 'analyst');
    const own = await consoleCall(app, 'POST', '/api/v1/admin/keys', analyst.session, {
      fund: demo.slug,
      body: { name: 'mine', scopes: ['fund:read', 'fund:propose'] },
    });
    expect(own.status).toBe(201);
    expect(own.json.account.id).toBe(analyst.accountId);
    expect(own.json.fund.slug).toBe(demo.slug);
    const beyond = await consoleCall(app, 'POST', '/api/v1/admin/keys', analyst.session, {
      fund: demo.slug,
      body: { name: 'x', scopes: ['proposals:review'] },
    });
    expect(beyond.status).toBe(403);
    const otherFund = await consoleCall(app, 'POST', '/api/v1/admin/keys', analyst.session, {
      fund: carolFund.slug,
      body: { name: 'x', scopes: ['fund:read'] },
    });
    expect(otherFund.status).toBe(403); // not a member of that fund
    // An analyst lists only their own keys on the fund, and cannot revoke the manager's.
    const list = await consoleCall(app, 'GET', '/api/v1/admin/keys', analyst.session, { fund: demo.slug });
    expect(list.json.items.map((k: { id: string }) => k.id)).toEqual([own.json.id]);
    expect(
      (await consoleCall(app, 'DELETE', `/api/v1/admin/keys/${manager.id}`, analyst.session, { fund: demo.slug }))
        .status,
    ).toBe(404);
  });

  it('without a fund a person mints calculator-only keys (no fund scopes) on their plan', async () => {
    const dev = await person(app, null, null, 'developer');
    const calc = await consoleCall(app, 'POST', '/api/v1/admin/keys', dev.session, {
      body: { name: 'calc', scopes: [], plan: 'developer' },
    });
    expect(calc.status).toBe(201);
    expect(calc.json.fund).toBeNull();
    const me = await call(app, 'GET', '/api/v1/me', { key: calc.json.token });
    expect(me.json).toMatchObject({ scopes: [], fund: null, plan: 'developer' });
    expect(
      (
        await consoleCall(app, 'POST', '/api/v1/admin/keys', dev.session, {
          body: { name: 'x', scopes: ['fund:read'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await consoleCall(app, 'POST', '/api/v1/admin/keys', dev.session, {
          body: { name: 'x', scopes: [], plan: 'platform' },
        })
      ).status,
    ).toBe(403);
    const mine = await consoleCall(app, 'GET', '/api/v1/admin/keys', dev.session);
    expect(mine.json.items.map((k: { id: string }) => k.id)).toEqual([calc.json.id]);
  });

  it('a fund admin mints into a service identity of the fund, never with proposals:review', async () => {
    const admin = await person(app, demo.slug, 'admin', 'platform');
    const created = await consoleCall(app, 'POST', '/api/v1/console/service-accounts', admin.session, {
      fund: demo.slug,
      body: { name: 'bot' },
    });
    expect(created.status).toBe(201);
    expect(created.json.name).toBe(`${demo.slug}/bot`);
    const key = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
      fund: demo.slug,
      body: { name: 'bot key', scopes: ['fund:read', 'fund:propose'], account: 'bot' },
    });
    expect(key.status).toBe(201);
    expect(key.json.owner).toEqual({ kind: 'service', displayName: `${demo.slug}/bot` });
    const review = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
      fund: demo.slug,
      body: { name: 'x', scopes: ['proposals:review'], account: 'bot' },
    });
    expect(review.status).toBe(403);
    // A non-admin cannot mint into the service identity.
    const analyst = await person(app, demo.slug, 'analyst');
    const refused = await consoleCall(app, 'POST', '/api/v1/admin/keys', analyst.session, {
      fund: demo.slug,
      body: { name: 'x', scopes: ['fund:read'], account: 'bot' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.errors[0].field).toBe('account');
  });

  it("the shared demo key's identity is neither offered nor minted into", async () => {
    const admin = await person(app, demo.slug, 'admin', 'platform');
    await consoleCall(app, 'POST', '/api/v1/console/service-accounts', admin.session, {
      fund: demo.slug,
      body: { name: 'shared' },
    });
    const shared = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
      fund: demo.slug,
      body: { name: 'shared key', scopes: ['fund:read'], account: 'shared' },
    });
    await dbOf(app).query('UPDATE api_keys SET is_demo = true WHERE id = $1', [shared.json.id]); // as seed:demo makes it
    const listed = await consoleCall(app, 'GET', '/api/v1/console/service-accounts', admin.session, {
      fund: demo.slug,
    });
    expect(listed.json.items.map((a: { name: string }) => a.name)).not.toContain(`${demo.slug}/shared`);
    const into = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
      fund: demo.slug,
      body: { name: 'x', scopes: ['fund:read'], account: 'shared' },
    });
    expect([into.status, into.json.errors[0].field]).toEqual([403, 'account']);
  });

  it('a service key minted before lineage was recorded cannot mint (its children could not be traced to a person)', async () => {
    const admin = await person(app, demo.slug, 'admin', 'platform');
    await consoleCall(app, 'POST', '/api/v1/console/service-accounts', admin.session, {
      fund: demo.slug,
      body: { name: 'old-bot' },
    });
    const old = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
      fund: demo.slug,
      body: { name: 'old bot key', scopes: ['fund:read', 'keys:manage'], account: 'old-bot' },
    });
    await dbOf(app).query('UPDATE api_keys SET created_by_user_id = NULL WHERE id = $1', [old.json.id]); // as the migration leaves it
    await new Promise((r) => setTimeout(r, 2100)); // the key cache's window
    const res = await mint(old.json.token, { scopes: ['fund:read'] });
    expect([res.status, res.json.code]).toEqual([403, 'forbidden']);
    expect(res.json.detail).toContain('before fundgate recorded who mints keys');
    const listed = await consoleCall(app, 'GET', '/api/v1/admin/keys', admin.session, { fund: demo.slug });
    expect(listed.json.items.find((k: { id: string }) => k.id === old.json.id).mintedBy).toBeNull();
  });

  it("no route mints across people or funds: every key row belongs to its minter or the minter's fund service identity", async () => {
    const rows = await dbOf(app).query(
      `SELECT k.id, k.fund_id, k.account_id, parent.account_id AS parent_account, parent.fund_id AS parent_fund, a.kind, a.owner_fund_id
         FROM api_keys k JOIN api_keys parent ON parent.id = k.created_by_key_id JOIN accounts a ON a.id = k.account_id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) {
      expect(r.fund_id).toBe(r.parent_fund);
      if (r.kind === 'person') expect(r.account_id).toBe(r.parent_account);
      else expect(r.owner_fund_id).toBe(r.parent_fund);
    }
    const viaSessions = await dbOf(app).query(
      `SELECT k.fund_id, a.kind, a.owner_fund_id, m.role FROM api_keys k JOIN accounts a ON a.id = k.account_id
         LEFT JOIN fund_members m ON m.fund_id = k.fund_id AND m.user_id = a.user_id
        WHERE k.created_by_key_id IS NULL AND a.kind = 'person' AND k.fund_id IS NOT NULL AND k.revoked_at IS NULL`,
    );
    // A person's live fund key implies membership of that fund (removal revokes the keys in the same
    // transaction; other test files remove members concurrently, so revoked keys are left out).
    for (const r of viaSessions) expect(r.role).not.toBeNull();
  });
});
