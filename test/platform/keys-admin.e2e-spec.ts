import { bootApp, call, createFund, mintKey, type ResponseJson, type TestApp } from '../utils/app';
import { isWellFormedKey } from '../../src/keys/key-format';
import { KeyExpiryJob } from '../../src/keys/key-expiry.job';

describe('admin keys and revocation (e2e)', () => {
  let app: TestApp;
  let other: TestApp;
  let fund: { id: string; slug: string };
  let otherFund: { id: string; slug: string };
  let manager: { key: string; id: string };

  beforeAll(async () => {
    app = await bootApp();
    other = await bootApp({}, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    fund = await createFund(app);
    otherFund = await createFund(app);
    manager = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fund.slug, plan: 'developer' });
  });
  afterAll(async () => {
    await app.close();
    await other.close();
  });

  it('mints a key shown once, usable at once, stored only as a hash', async () => {
    const res = await call(app, 'POST', '/api/v1/admin/keys', {
      key: manager.key,
      body: { name: 'agent', scopes: ['fund:read'] },
    });
    expect(res.status).toBe(201);
    expect(isWellFormedKey(res.json.token)).toBe(true);
    expect(res.json.fund.slug).toBe(fund.slug);
    expect(res.json.plan).toBe('free');
    const me = await call(app, 'GET', '/api/v1/me', { key: res.json.token });
    expect(me.status).toBe(200);
    expect(me.json.keyId).toBe(res.json.id);
    const list = await call(app, 'GET', '/api/v1/admin/keys', { key: manager.key });
    expect(list.status).toBe(200);
    expect(list.body).not.toContain(res.json.token);
    expect(list.json.items.map((k: { id: string }) => k.id)).toContain(res.json.id);
  });

  it('never grants a scope, fund or plan the caller does not hold', async () => {
    const scope = await call(app, 'POST', '/api/v1/admin/keys', {
      key: manager.key,
      body: { name: 'x', scopes: ['nav:publish'] },
    });
    expect(scope.status).toBe(403);
    expect(scope.json.code).toBe('insufficient_scope');
    expect(scope.json.detail).toContain('nav:publish');
    const fundRes = await call(app, 'POST', '/api/v1/admin/keys', {
      key: manager.key,
      body: { name: 'x', scopes: ['fund:read'], fund: otherFund.slug },
    });
    expect(fundRes.status).toBe(403);
    const plan = await call(app, 'POST', '/api/v1/admin/keys', {
      key: manager.key,
      body: { name: 'x', scopes: ['fund:read'], plan: 'platform' },
    });
    expect(plan.status).toBe(403);
  });

  it('validates the body, naming every failing field', async () => {
    const res = await call(app, 'POST', '/api/v1/admin/keys', {
      key: manager.key,
      body: { scopes: ['bogus'], plan: 'gold', extra: 1 },
    });
    expect(res.status).toBe(400);
    const fields = res.json.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'scopes', 'plan', 'extra']));
  });

  it('lists newest first in keyset pages: every key once, a total, a cursor bound to the caller', async () => {
    const paged = await createFund(app);
    const admin = await mintKey(app, { scopes: ['keys:manage'], fund: paged.slug, plan: 'developer' });
    for (let i = 0; i < 4; i++) await mintKey(app, { scopes: ['fund:read'], fund: paged.slug, plan: 'developer' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ResponseJson = await call(
        app,
        'GET',
        `/api/v1/admin/keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        {
          key: admin.key,
        },
      );
      expect(page.status).toBe(200);
      expect(page.json.total).toBe(5);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.items.map((k: { id: string }) => k.id));
      expect(page.json.hasMore).toBe(page.json.nextCursor !== null);
      cursor = page.json.nextCursor;
    } while (cursor);
    const whole = await call(app, 'GET', '/api/v1/admin/keys', { key: admin.key });
    expect(seen).toEqual(whole.json.items.map((k: { id: string }) => k.id));
    expect(new Set(seen).size).toBe(5);
    const created = whole.json.items.map((k: { createdAt: string }) => k.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    // a cursor of this fund's listing is refused under another caller's scope
    const first = await call(app, 'GET', '/api/v1/admin/keys?limit=1', { key: admin.key });
    const foreign = await call(app, 'GET', `/api/v1/admin/keys?cursor=${encodeURIComponent(first.json.nextCursor)}`, {
      key: manager.key,
    });
    expect([foreign.status, foreign.json.errors[0].field]).toEqual([400, 'cursor']);
    expect((await call(app, 'GET', '/api/v1/admin/keys?limit=0', { key: admin.key })).status).toBe(400);
  });

  it('hides keys of another fund (404 on revoke)', async () => {
    const foreign = await mintKey(app, { scopes: ['fund:read'], fund: otherFund.slug });
    const res = await call(app, 'DELETE', `/api/v1/admin/keys/${foreign.id}`, { key: manager.key });
    expect(res.status).toBe(404);
    expect((await call(app, 'GET', '/api/v1/me', { key: foreign.key })).status).toBe(200);
  });

  it('honours a revocation on a second instance within 5 seconds', async () => {
    const victim = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    expect((await call(other, 'GET', '/api/v1/me', { key: victim.key })).status).toBe(200); // now cached on `other`
    const revoked = await call(app, 'DELETE', `/api/v1/admin/keys/${victim.id}`, { key: manager.key });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revokedAt).not.toBeNull();
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 6000) {
      status = (await call(other, 'GET', '/api/v1/me', { key: victim.key })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("revoking a key revokes the keys minted with it, and theirs (a leaked key's offspring go with it)", async () => {
    const mint = (key: string, scopes: string[]) =>
      call(app, 'POST', '/api/v1/admin/keys', { key, body: { name: 'child', scopes } });
    const parent = await mint(manager.key, ['fund:read', 'keys:manage']);
    const child = await mint(parent.json.token, ['fund:read', 'keys:manage']);
    const grandchild = await mint(child.json.token, ['fund:read']);
    const sibling = await mint(manager.key, ['fund:read']); // minted by the manager's key, not by `parent`
    expect(grandchild.json.mintedWithKeyId).toBe(child.json.id);
    const revoked = await call(app, 'DELETE', `/api/v1/admin/keys/${parent.json.id}`, { key: manager.key });
    expect(revoked.json).toMatchObject({ id: parent.json.id, derivedRevoked: 2 });
    for (const k of [parent, child, grandchild]) {
      expect((await call(app, 'GET', '/api/v1/me', { key: k.json.token })).status).toBe(401);
    }
    expect((await call(app, 'GET', '/api/v1/me', { key: sibling.json.token })).status).toBe(200);
    expect((await call(app, 'GET', '/api/v1/me', { key: manager.key })).status).toBe(200);
    const again = await call(app, 'DELETE', `/api/v1/admin/keys/${parent.json.id}`, { key: manager.key });
    expect(again.json.derivedRevoked).toBe(0);
  });

  it('a revoked key cannot mint or subscribe, even on an instance that still has it cached', async () => {
    const parent = await mintKey(app, { scopes: ['fund:read', 'keys:manage', 'webhooks:manage'], fund: fund.slug });
    const token = parent.key;
    expect((await call(other, 'GET', '/api/v1/me', { key: token })).status).toBe(200); // cached on `other`
    const revoked = await call(app, 'DELETE', `/api/v1/admin/keys/${parent.id}`, { key: manager.key });
    expect(revoked.status).toBe(200);
    const mint = await call(other, 'POST', '/api/v1/admin/keys', {
      key: token,
      body: { name: 'escape', scopes: ['fund:read'] },
    });
    expect([mint.status, mint.json.code]).toEqual([401, 'unauthenticated']);
    const hook = await call(other, 'POST', '/api/v1/webhooks', {
      key: token,
      body: { url: 'http://127.0.0.1:9/x', eventTypes: ['nav.published'] },
    });
    expect(hook.status).toBe(401);
  });

  it('revoking a key disables the subscriptions it created; one re-enabled afterwards stays on when it is revoked again', async () => {
    const admin = await mintKey(app, { scopes: ['fund:read', 'keys:manage', 'webhooks:manage'], fund: fund.slug });
    const creator = await call(other, 'POST', '/api/v1/admin/keys', {
      key: admin.key,
      body: { name: 'hook maker', scopes: ['fund:read', 'webhooks:manage'] },
    });
    const hook = await call(other, 'POST', '/api/v1/webhooks', {
      key: creator.json.token,
      body: { url: 'http://127.0.0.1:9/x', eventTypes: ['nav.published'] },
    });
    expect(hook.status).toBe(201);
    const revoke = () => call(other, 'DELETE', `/api/v1/admin/keys/${creator.json.id}`, { key: admin.key });
    expect((await revoke()).json).toMatchObject({ derivedRevoked: 0, disabledWebhooks: 1 });
    const state = async () => (await call(other, 'GET', `/api/v1/webhooks/${hook.json.id}`, { key: admin.key })).json;
    expect(await state()).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('was revoked') });
    const enabled = await call(other, 'PATCH', `/api/v1/webhooks/${hook.json.id}`, {
      key: admin.key,
      body: { enabled: true },
    });
    expect(enabled.json.enabled).toBe(true);
    expect((await revoke()).json.disabledWebhooks).toBe(0);
    expect((await state()).enabled).toBe(true);
  });
  it("a key's expiry disables the subscriptions it created, once: one re-enabled afterwards stays on", async () => {
    const admin = await mintKey(app, { scopes: ['fund:read', 'keys:manage', 'webhooks:manage'], fund: fund.slug });
    const mintCreator = (expiresAt?: string) =>
      call(other, 'POST', '/api/v1/admin/keys', {
        key: admin.key,
        body: { name: 'hook maker', scopes: ['fund:read', 'webhooks:manage'], ...(expiresAt ? { expiresAt } : {}) },
      });
    const subscribe = async (token: string) =>
      (
        await call(other, 'POST', '/api/v1/webhooks', {
          key: token,
          body: { url: 'http://127.0.0.1:9/x', eventTypes: ['nav.published'] },
        })
      ).json.id as string;
    const expiring = await mintCreator(new Date(Date.now() + 1500).toISOString());
    const lasting = await mintCreator();
    const [doomed, kept] = [await subscribe(expiring.json.token), await subscribe(lasting.json.token)];
    const state = async (id: string) => (await call(other, 'GET', `/api/v1/webhooks/${id}`, { key: admin.key })).json;
    const sweep = () => other.get(KeyExpiryJob).sweep();
    await sweep(); // not expired yet: nothing happens to it
    expect((await state(doomed)).enabled).toBe(true);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await sweep()).webhooks).toBeGreaterThanOrEqual(1);
    expect(await state(doomed)).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('expired') });
    expect((await state(kept)).enabled).toBe(true);
    await call(other, 'PATCH', `/api/v1/webhooks/${doomed}`, { key: admin.key, body: { enabled: true } });
    await sweep();
    expect((await state(doomed)).enabled).toBe(true);
  });
});
