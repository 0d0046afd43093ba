import { CursorCodec } from '../../src/common/pagination/cursor';
import { DEFAULT_DEMO_API_KEY } from '../../src/config/config';
import { ensureDemoKey } from '../../src/keys/demo-key';
import { ActivityLogWriter } from '../../src/usage/activity-log.writer';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey } from '../utils/app';
import { expectFieldError } from './helpers';

/** Forged and foreign cursors are a 400 naming `cursor`; user agents are capped and sanitised; the demo key can be switched off. */
describe('cursors, activity user agents, demo key switch (e2e)', () => {
  let app: TestApp;
  let codec: CursorCodec;
  let fundA: { id: string; slug: string };
  let adminA: TestKey;
  let adminB: TestKey;

  beforeAll(async () => {
    app = await bootApp();
    codec = app.get(CursorCodec);
    fundA = await createFund(app);
    const fundB = await createFund(app);
    adminA = await mintKey(app, {
      scopes: ['keys:manage', 'fund:read', 'fund:propose', 'proposals:review'],
      fund: fundA.slug,
      plan: 'platform',
    });
    adminB = await mintKey(app, { scopes: ['keys:manage'], fund: fundB.slug, plan: 'platform' });
  });
  afterAll(() => app.close());

  it('activity: a validly signed cursor whose occurredAt is "not-a-date" → 400 naming cursor', async () => {
    const kind = `activity:${fundA.id}:${adminA.accountId}:*`;
    const forged = codec.encode(kind, { occurredAt: 'not-a-date', id: '1' });
    expectFieldError(await call(app, 'GET', `/api/v1/admin/activity?cursor=${forged}`, { key: adminA.key }), 'cursor');
    const injected = codec.encode(kind, { occurredAt: '2026-01-01T00:00:00Z', id: '1 OR 1=1' });
    expectFieldError(
      await call(app, 'GET', `/api/v1/admin/activity?cursor=${injected}`, { key: adminA.key }),
      'cursor',
    );
  });

  it('proposals: createdAt "garbage" → 400 naming cursor', async () => {
    const forged = codec.encode(`proposals:${fundA.id}:*`, { createdAt: 'garbage', id: 'garbage' });
    expectFieldError(await call(app, 'GET', `/api/v1/fund/proposals?cursor=${forged}`, { key: adminA.key }), 'cursor');
  });

  it('activity: a real cursor of one fund is refused in another fund, and under another key filter', async () => {
    for (let i = 0; i < 3; i++) await call(app, 'GET', '/api/v1/me', { key: adminA.key });
    await app.get(ActivityLogWriter).flush();
    const page = await call(app, 'GET', '/api/v1/admin/activity?limit=1', { key: adminA.key });
    expect(page.status).toBe(200);
    expect(page.json.nextCursor).toEqual(expect.any(String));
    expect(
      (await call(app, 'GET', `/api/v1/admin/activity?limit=1&cursor=${page.json.nextCursor}`, { key: adminA.key }))
        .status,
    ).toBe(200);
    expectFieldError(
      await call(app, 'GET', `/api/v1/admin/activity?limit=1&cursor=${page.json.nextCursor}`, { key: adminB.key }),
      'cursor',
    );
    expectFieldError(
      await call(app, 'GET', `/api/v1/admin/activity?limit=1&keyId=${adminA.id}&cursor=${page.json.nextCursor}`, {
        key: adminA.key,
      }),
      'cursor',
    );
  });

  it('activity shows user agents capped at 200 characters, without control or bidi characters', async () => {
    const hostile = `evil\u202Eagent\u0007\u001b[31m${'A'.repeat(5000)}`;
    await call(app, 'GET', '/api/v1/me', { key: adminA.key, headers: { 'user-agent': hostile } });
    await app.get(ActivityLogWriter).flush();
    const page = await call(app, 'GET', `/api/v1/admin/activity?limit=5&keyId=${adminA.id}`, { key: adminA.key });
    const ua: string = page.json.items.find((i: { userAgent: string | null }) =>
      i.userAgent?.startsWith('evil'),
    ).userAgent;
    expect(ua.length).toBeLessThanOrEqual(200);
    expect(ua).toMatch(/^evil\?agent\?\?\[31mA+…$/);
    // Rows written before this change are sanitised on the way out as well.
    await app.get(ActivityLogWriter).flush();
    await dbOf(app).query(`UPDATE activity_log SET user_agent = $1 WHERE key_id = $2`, [
      `old\u202E${'B'.repeat(900)}`,
      adminA.id,
    ]);
    const again = await call(app, 'GET', `/api/v1/admin/activity?limit=50&keyId=${adminA.id}`, { key: adminA.key });
    const old: string = again.json.items.find((i: { userAgent: string | null }) =>
      i.userAgent?.startsWith('old'),
    ).userAgent;
    expect(old).toMatch(/^old\?B+…$/);
    expect(old.length).toBe(200);
  });

  it('DEMO_API_KEY_ENABLED=false: the shared demo key no longer authenticates', async () => {
    await ensureDemoKey(dbOf(app), DEFAULT_DEMO_API_KEY, fundA.id);
    expect((await call(app, 'GET', '/api/v1/me', { key: DEFAULT_DEMO_API_KEY })).status).toBe(200);
    const off = await bootApp({ demoApiKeyEnabled: false });
    try {
      const res = await call(off, 'GET', '/api/v1/me', { key: DEFAULT_DEMO_API_KEY });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('unauthenticated');
    } finally {
      await off.close();
    }
  });
});
