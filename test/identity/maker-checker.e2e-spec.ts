import { bootApp, call, createFund, dbOf, keysMintedBy, mintKey, type TestApp, uniqueName } from '../utils/app';
import { seedBooks } from '../proposals/books-fixture';
import { hotp, base32Decode } from '../../src/identity/totp';
import { KeysService } from '../../src/keys/keys.service';
import { consoleCall, PASSWORD, person, type Session } from './console';

/** Maker-checker between people, over HTTP (keys and console sessions). */
describe('maker-checker between people (e2e)', () => {
  let app: TestApp;
  let fund: { fundId: string; slug: string };
  const expense = () => ({
    category: 'audit',
    vendor: 'Audit & Co',
    amount: '42.00',
    accrualDate: '2025-03-31',
    description: `audit ${uniqueName('e')}`,
  });
  const propose = (key: string) => call(app, 'POST', '/api/v1/fund/proposals/expense', { key, body: expense() });
  const approveWith = (key: string, id: string) =>
    call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, { key, body: { note: 'ok' } });

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    const created = await createFund(app);
    await seedBooks(app, created.id);
    fund = { fundId: created.id, slug: created.slug };
  });
  afterAll(() => app.close());

  it('reproduction 2: a propose+review+keys:manage key cannot mint a reviewer into a made-up account, nor approve its own proposal', async () => {
    const agent = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose', 'proposals:review', 'keys:manage'],
      fund: fund.slug,
      plan: 'platform',
    });
    const p = await propose(agent.key);
    expect(p.status).toBe(201);
    const before = await keysMintedBy(app, agent.id);
    const fake = await call(app, 'POST', '/api/v1/admin/keys', {
      key: agent.key,
      body: { name: 'reviewer', scopes: ['proposals:review'], account: 'made-up-reviewer' },
    });
    expect(fake.status).toBe(403);
    expect(fake.json.code).toBe('insufficient_scope');
    expect(await keysMintedBy(app, agent.id)).toBe(before);
    // A second key of its own identity is the same person: refused.
    const own = await call(app, 'POST', '/api/v1/admin/keys', {
      key: agent.key,
      body: { name: 'reviewer', scopes: ['proposals:review'] },
    });
    expect(own.status).toBe(201);
    expect(await keysMintedBy(app, agent.id)).toBe(before + 1); // the count does see this key's mints
    const self = await approveWith(own.json.token, p.json.id);
    expect(self.status).toBe(403);
    expect(self.json.code).toBe('maker_checker_violation');
    expect(self.json.detail).toMatch(/another person/);
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${p.json.id}`, { key: agent.key })).json.status).toBe(
      'pending',
    );
  });

  it('the approver must hold manager or admin on the fund NOW (a downgraded reviewer key is refused)', async () => {
    const agent = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, plan: 'platform' });
    const reviewer = await mintKey(app, { scopes: ['proposals:review'], fund: fund.slug, plan: 'platform' });
    const p = await propose(agent.key);
    expect((await call(app, 'GET', '/api/v1/me', { key: reviewer.key })).json.scopes).toEqual(['proposals:review']); // cached with the old role
    await dbOf(app).query(
      `UPDATE fund_members SET role = 'analyst' WHERE user_id = (SELECT user_id FROM accounts WHERE id = $1)`,
      [reviewer.accountId],
    );
    // Even while this instance still caches the key's old scopes, the approval re-reads the role in its transaction.
    const res = await approveWith(reviewer.key, p.json.id);
    expect([res.status, res.json.code]).toEqual([403, 'maker_checker_violation']);
    expect(res.json.detail).toMatch(/manager or admin.*analyst/);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await approveWith(reviewer.key, p.json.id)).json.code).toBe('insufficient_scope'); // and then the key lost the scope
    await dbOf(app).query(
      `UPDATE fund_members SET role = 'manager' WHERE user_id = (SELECT user_id FROM accounts WHERE id = $1)`,
      [reviewer.accountId],
    );
    app.get(KeysService).forget();
    const ok = await approveWith(reviewer.key, p.json.id);
    expect(ok.status).toBe(200);
    expect(ok.json.decidedBy).toMatchObject({
      accountId: reviewer.accountId,
      keyId: reviewer.id,
      userId: expect.any(String),
    });
  });

  it('a service identity can propose but never decide; the admin who minted its key cannot approve what it staged', async () => {
    const admin = await person(app, fund.slug, 'admin', 'platform');
    await consoleCall(app, 'POST', '/api/v1/console/service-accounts', admin.session, {
      fund: fund.slug,
      body: { name: 'agent' },
    });
    const mint = (caller: Session | string, body: Record<string, unknown>) =>
      typeof caller === 'string'
        ? call(app, 'POST', '/api/v1/admin/keys', { key: caller, body })
        : consoleCall(app, 'POST', '/api/v1/admin/keys', caller, { fund: fund.slug, body });
    const bot = await mint(admin.session, {
      name: 'bot',
      scopes: ['fund:propose'],
      account: 'agent',
      plan: 'platform',
    });
    expect(bot.status).toBe(201);
    expect(bot.json.mintedBy).toEqual({ userId: admin.userId, displayName: expect.any(String) });
    // one step removed: a service key with keys:manage mints the proposing key into its own identity
    const minter = await mint(admin.session, {
      name: 'minter',
      scopes: ['fund:propose', 'keys:manage'],
      account: 'agent',
      plan: 'platform',
    });
    const grandchild = await mint(minter.json.token, { name: 'child', scopes: ['fund:propose'], plan: 'platform' });
    expect(grandchild.status).toBe(201);
    expect(grandchild.json).toMatchObject({ mintedBy: { userId: admin.userId }, mintedWithKeyId: minter.json.id });
    const other = await person(app, fund.slug, 'manager', 'platform');
    for (const token of [bot.json.token, grandchild.json.token]) {
      const p = await propose(token);
      expect(p.status).toBe(201);
      const self = await consoleCall(app, 'POST', `/api/v1/admin/proposals/${p.json.id}/approve`, admin.session, {
        fund: fund.slug,
        body: { note: 'my own bot' },
      });
      expect([self.status, self.json.code]).toEqual([403, 'maker_checker_violation']);
      expect(self.json.detail).toContain('staged with a key you minted');
      const approved = await consoleCall(app, 'POST', `/api/v1/admin/proposals/${p.json.id}/approve`, other.session, {
        fund: fund.slug,
        body: { note: 'checked' },
      });
      expect(approved.status).toBe(200);
      expect(approved.json.decidedBy).toMatchObject({ keyId: null, userId: other.userId });
    }
  });

  it('a manager approves in the console a proposal staged by another person; the stager cannot', async () => {
    const analyst = await person(app, fund.slug, 'analyst', 'platform');
    const key = await consoleCall(app, 'POST', '/api/v1/admin/keys', analyst.session, {
      fund: fund.slug,
      body: { name: 'agent', scopes: ['fund:propose'], plan: 'platform' },
    });
    const p = await propose(key.json.token);
    // The analyst (even if later promoted) cannot approve their own proposal.
    await dbOf(app).query(`UPDATE fund_members SET role = 'manager' WHERE user_id = $1`, [analyst.userId]);
    const self = await consoleCall(app, 'POST', `/api/v1/admin/proposals/${p.json.id}/approve`, analyst.session, {
      fund: fund.slug,
      body: {},
    });
    expect(self.status).toBe(403);
    expect(self.json.code).toBe('maker_checker_violation');
    const manager = await person(app, fund.slug, 'manager', 'platform');
    const queue = await consoleCall(app, 'GET', '/api/v1/admin/proposals?status=pending', manager.session, {
      fund: fund.slug,
    });
    expect(queue.json.items.map((i: { id: string }) => i.id)).toContain(p.json.id);
    const ok = await consoleCall(app, 'POST', `/api/v1/admin/proposals/${p.json.id}/approve`, manager.session, {
      fund: fund.slug,
      body: { note: 'fine' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.decidedBy.userId).toBe(manager.userId);
    // A session cannot propose (propose routes take keys only).
    const viaSession = await consoleCall(app, 'POST', '/api/v1/fund/proposals/expense', manager.session, {
      fund: fund.slug,
      body: expense(),
    });
    expect(viaSession.status).toBe(401);
  });

  describe('funds that require a TOTP check to approve', () => {
    let manager: Awaited<ReturnType<typeof person>>;
    let secret: string;
    const code = (offsetSteps = 0) => hotp(base32Decode(secret), Math.floor(Date.now() / 30_000) + offsetSteps);

    beforeAll(async () => {
      await dbOf(app).query('UPDATE funds SET approval_requires_totp = true WHERE id = $1', [fund.fundId]);
      manager = await person(app, fund.slug, 'manager', 'platform');
      const enrol = await consoleCall(app, 'POST', '/api/v1/console/account/totp/enroll', manager.session, {
        body: { password: PASSWORD },
      });
      secret = enrol.json.secret;
      expect(
        (
          await consoleCall(app, 'POST', '/api/v1/console/account/totp/confirm', manager.session, {
            body: { code: code() },
          })
        ).status,
      ).toBe(200);
      await dbOf(app).query('UPDATE console_sessions SET totp_verified_at = NULL WHERE user_id = $1', [manager.userId]);
    });
    afterAll(() => dbOf(app).query('UPDATE funds SET approval_requires_totp = false WHERE id = $1', [fund.fundId]));

    const approveIn = (s: Session, id: string) =>
      consoleCall(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, s, { fund: fund.slug, body: {} });

    it('a key cannot approve; a session must step up first; the check expires after 10 minutes', async () => {
      const agent = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, plan: 'platform' });
      const reviewerKey = await mintKey(app, { scopes: ['proposals:review'], fund: fund.slug, plan: 'platform' });
      const p = await propose(agent.key);
      const byKey = await approveWith(reviewerKey.key, p.json.id);
      expect([byKey.status, byKey.json.code]).toEqual([403, 'maker_checker_violation']);
      expect(byKey.json.detail).toMatch(/TOTP/);
      const noStepUp = await approveIn(manager.session, p.json.id);
      expect([noStepUp.status, noStepUp.json.code]).toEqual([403, 'maker_checker_violation']);
      expect(
        (
          await consoleCall(app, 'POST', '/api/v1/console/account/totp/verify', manager.session, {
            body: { code: code(1) },
          })
        ).status,
      ).toBe(200);
      await dbOf(app).query(
        `UPDATE console_sessions SET totp_verified_at = now() - interval '11 minutes' WHERE user_id = $1`,
        [manager.userId],
      );
      expect((await approveIn(manager.session, p.json.id)).status).toBe(403);
      await dbOf(app).query(
        `UPDATE console_sessions SET totp_verified_at = now() - interval '9 minutes' WHERE user_id = $1`,
        [manager.userId],
      );
      const ok = await approveIn(manager.session, p.json.id);
      expect(ok.status).toBe(200);
    });
  });
});
