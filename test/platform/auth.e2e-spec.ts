import { bootApp, call, createFund, dbOf, mintKey, type CallResult, type TestApp } from '../utils/app';
import { KeysRepository } from '../../src/keys/keys.repository';
import { keyFromBody } from '../../src/keys/key-format';

describe('authentication and scopes (e2e)', () => {
  let app: TestApp;
  let fund: { id: string; slug: string };

  beforeAll(async () => {
    app = await bootApp();
    fund = await createFund(app);
  });
  afterAll(() => app.close());

  function expectUnauthenticated(res: CallResult) {
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.json.code).toBe('unauthenticated');
    expect(res.json.requestId).toBe(res.headers['x-request-id']);
  }

  it('refuses a request without a key', async () => {
    const res = await call(app, 'GET', '/api/v1/me');
    expectUnauthenticated(res);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a header that is not "Bearer <key>"', async () => {
    expectUnauthenticated(await call(app, 'GET', '/api/v1/me', { headers: { authorization: 'Basic abc' } }));
  });

  it('refuses a key with a bad checksum without touching the database', async () => {
    const repo = app.get(KeysRepository);
    const spy = jest.spyOn(repo, 'keyByHash');
    const good = keyFromBody('A'.repeat(32));
    const bad = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    const res = await call(app, 'GET', '/api/v1/me', { key: bad });
    expectUnauthenticated(res);
    expect(res.json.detail).toMatch(/malformed/);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('refuses a well-formed key that does not exist', async () => {
    const res = await call(app, 'GET', '/api/v1/me', { key: keyFromBody('Z'.repeat(32)) });
    expectUnauthenticated(res);
    expect(res.json.detail).toMatch(/not valid/);
  });

  it('refuses a revoked key', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    await dbOf(app).query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [k.id]);
    const res = await call(app, 'GET', '/api/v1/me', { key: k.key });
    expectUnauthenticated(res);
    expect(res.json.detail).toMatch(/revoked/);
  });

  it('refuses an expired key', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    await dbOf(app).query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [k.id]);
    const res = await call(app, 'GET', '/api/v1/me', { key: k.key });
    expectUnauthenticated(res);
    expect(res.json.detail).toMatch(/expired/);
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    const res = await call(app, 'GET', '/api/v1/admin/keys', { key: k.key });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('insufficient_scope');
    expect(res.json.detail).toContain('keys:manage');
  });

  it('GET /me describes the calling key and never shows the secret or its hash', async () => {
    const k = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose'],
      fund: fund.slug,
      plan: 'developer',
      account: 'me-test-account',
    });
    const res = await call(app, 'GET', '/api/v1/me', { key: k.key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      via: 'key',
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: 'analyst',
      keyId: k.id,
      name: 'test key',
      displayPrefix: k.key.slice(0, 11),
      scopes: ['fund:read', 'fund:propose'],
      fund: { id: fund.id, slug: fund.slug, name: `Fund ${fund.slug}` },
      plan: 'developer',
      account: { id: k.accountId, name: 'me-test-account' },
      createdAt: expect.stringMatching(/Z$/),
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(res.body).not.toContain(k.key);
  });

  it('echoes a sane incoming X-Request-Id and replaces an insane one', async () => {
    const ok = await call(app, 'GET', '/api/v1/me', { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers['x-request-id']).toBe('trace-123');
    expect(ok.json.requestId).toBe('trace-123');
    const bad = await call(app, 'GET', '/api/v1/me', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(bad.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes lastUsedAt at most once a minute', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    await call(app, 'GET', '/api/v1/me', { key: k.key });
    await new Promise((r) => setTimeout(r, 100));
    const [first] = await dbOf(app).query('SELECT last_used_at FROM api_keys WHERE id = $1', [k.id]);
    expect(first.last_used_at).not.toBeNull();
    await call(app, 'GET', '/api/v1/me', { key: k.key });
    await new Promise((r) => setTimeout(r, 100));
    const [second] = await dbOf(app).query('SELECT last_used_at FROM api_keys WHERE id = $1', [k.id]);
    expect(second.last_used_at.getTime()).toBe(first.last_used_at.getTime());
  });
});
