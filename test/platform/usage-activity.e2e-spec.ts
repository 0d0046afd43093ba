import { bootApp, call, type CallResult, createFund, dbOf, mintKey, randomIp, type TestApp } from '../utils/app';
import { ActivityLogWriter } from '../../src/usage/activity-log.writer';

describe('usage, activity log and rate limits (e2e)', () => {
  let app: TestApp;
  let second: TestApp;
  let fund: { id: string; slug: string };

  beforeAll(async () => {
    const env = { RATE_LIMITS: JSON.stringify({ 'fund-minute': { free: 5, developer: 1000 } }) };
    app = await bootApp({}, env);
    second = await bootApp({}, env);
    fund = await createFund(app);
  });
  afterAll(async () => {
    await app.close();
    await second.close();
  });

  it('GET /usage counts the requests just made, per day and per route, with errors', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'developer' });
    for (let i = 0; i < 3; i++) expect((await call(app, 'GET', '/api/v1/me', { key: k.key })).status).toBe(200);
    expect((await call(app, 'GET', '/api/v1/admin/keys', { key: k.key })).status).toBe(403);
    const res = await call(app, 'GET', '/api/v1/usage', { key: k.key });
    expect(res.status).toBe(200);
    expect(res.json.keyId).toBe(k.id);
    expect(res.json.totalRequests).toBe(4);
    expect(res.json.totalErrors).toBe(1);
    const me = res.json.routes.find((r: { route: string }) => r.route === '/api/v1/me');
    expect(me).toEqual({ method: 'GET', route: '/api/v1/me', requests: 3, errors: 0 });
    const fm = res.json.rateLimits.find((w: { policy: string }) => w.policy === 'fund-minute');
    expect(fm.limit).toBe(1000);
    expect(fm.used).toBe(4); // 3 × /me and this /usage call; a 403 is refused before it is counted
    expect(res.json.calculatorDaily.policy).toBe('calc-daily');
    expect(res.json.calculatorDaily.limit).toBe(10000);
  });

  it('GET /usage validates its dates', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    const bad = await call(app, 'GET', '/api/v1/usage?from=2026-02-30', { key: k.key });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe('from');
    const reversed = await call(app, 'GET', '/api/v1/usage?from=2026-03-02&to=2026-03-01', { key: k.key });
    expect(reversed.status).toBe(400);
    const unknown = await call(app, 'GET', '/api/v1/usage?foo=1', { key: k.key });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toEqual({ field: 'foo', message: 'is not a known field' });
  });

  it('writes every value through COPY exactly: tabs, newlines, backslashes, a literal \\N, NUL and non-ASCII text', async () => {
    const requestId = `copy-${Date.now()}`;
    const userAgent = 'a\tb\nc\rd\\e \\N f\u0000g — ünï 💼';
    app.get(ActivityLogWriter).record({
      occurredAt: new Date('2026-11-24T12:34:56.789Z'),
      requestId,
      keyId: null,
      accountId: null,
      userId: null,
      fundId: fund.id,
      method: 'GET',
      route: '\\N',
      tool: null,
      status: 429,
      durationMs: 1.23456,
      clientIp: '::1',
      userAgent,
    });
    await app.get(ActivityLogWriter).flush();
    const [row] = await dbOf(app).query(
      `SELECT occurred_at, key_id, fund_id, route, tool, status, duration_ms::text, client_ip, user_agent
         FROM activity_log WHERE request_id = $1`,
      [requestId],
    );
    expect(row).toEqual({
      occurred_at: new Date('2026-11-24T12:34:56.789Z'),
      key_id: null,
      fund_id: fund.id,
      route: '\\N',
      tool: null,
      status: 429,
      duration_ms: '1.235',
      client_ip: '::1',
      user_agent: userAgent.replace('\u0000', ''),
    });
  });

  it('records success, 401, 404 and 429 in the activity log', async () => {
    const k = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fund.slug });
    await call(app, 'GET', '/api/v1/me', { key: k.key });
    const ok = await call(app, 'GET', '/api/v1/me', { key: k.key, headers: { 'user-agent': 'x'.repeat(300) } });
    const unauth = await call(app, 'GET', '/api/v1/me');
    const missing = await call(app, 'GET', '/api/v1/nothing-here');
    await app.get(ActivityLogWriter).flush();
    const rows = await dbOf(app).query(
      'SELECT request_id, key_id, fund_id, method, route, status, user_agent FROM activity_log WHERE request_id = ANY($1)',
      [[ok.headers['x-request-id'], unauth.headers['x-request-id'], missing.headers['x-request-id']]],
    );
    const byId = Object.fromEntries(rows.map((r: { request_id: string }) => [r.request_id, r]));
    expect(byId[ok.headers['x-request-id'] as string]).toMatchObject({
      key_id: k.id,
      fund_id: fund.id,
      route: '/api/v1/me',
      status: 200,
    });
    expect(byId[ok.headers['x-request-id'] as string].user_agent).toHaveLength(200);
    expect(byId[unauth.headers['x-request-id'] as string]).toMatchObject({ key_id: null, status: 401 });
    expect(byId[missing.headers['x-request-id'] as string]).toMatchObject({ status: 404 });
    const page = await call(app, 'GET', `/api/v1/admin/activity?keyId=${k.id}&limit=1`, { key: k.key });
    expect(page.status).toBe(200);
    expect(page.json.items).toHaveLength(1);
    expect(page.json.hasMore).toBe(true);
    const next = await call(app, 'GET', `/api/v1/admin/activity?keyId=${k.id}&limit=1&cursor=${page.json.nextCursor}`, {
      key: k.key,
    });
    expect(next.json.items[0].id).not.toBe(page.json.items[0].id);
    const tampered = await call(app, 'GET', `/api/v1/admin/activity?cursor=${page.json.nextCursor}x`, { key: k.key });
    expect(tampered.status).toBe(400);
    expect(tampered.json.errors[0].field).toBe('cursor');
  });

  it('pages requests recorded in the same millisecond by id, numerically, across a digit boundary', async () => {
    const k = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fund.slug, plan: 'developer' });
    // ids far beyond the sequence: 9 999 999 998 … 10 000 000 001, all at one instant
    const ids = ['9999999998', '9999999999', '10000000000', '10000000001'];
    await dbOf(app).query(
      `INSERT INTO activity_log (id, occurred_at, request_id, key_id, account_id, fund_id, method, route, status, duration_ms)
       SELECT i, '2026-01-15T10:00:00.123Z', 'same-ms-' || i, $1, $2, $3, 'GET', '/api/v1/me', 200, 1
         FROM unnest($4::bigint[]) AS i`,
      [k.id, k.accountId, fund.id, ids],
    );
    try {
      const seen: string[] = [];
      let cursor = '';
      for (let i = 0; i < 5; i++) {
        const page = await call(
          app,
          'GET',
          `/api/v1/admin/activity?keyId=${k.id}&from=2026-01-15&to=2026-01-15&limit=1${cursor}`,
          { key: k.key },
        );
        expect(page.status).toBe(200);
        seen.push(...page.json.items.map((it: { id: string }) => it.id));
        if (!page.json.hasMore) break;
        cursor = `&cursor=${page.json.nextCursor}`;
      }
      expect(seen).toEqual([...ids].reverse()); // newest first: the larger id first, every row once
    } finally {
      await dbOf(app).query(`DELETE FROM activity_log WHERE id = ANY($1::bigint[])`, [ids]);
    }
  });

  it('pages rows whose timestamps differ below the millisecond: the cursor keeps microseconds', async () => {
    const k = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fund.slug, plan: 'developer' });
    // the older row has the larger id: a cursor cut to .123 would put it after the page's last row
    const rows: [string, string][] = [
      ['20000000002', '2026-01-16T10:00:00.123400Z'],
      ['20000000001', '2026-01-16T10:00:00.123900Z'],
    ];
    await dbOf(app).query(
      `INSERT INTO activity_log (id, occurred_at, request_id, key_id, account_id, fund_id, method, route, status, duration_ms)
       SELECT r.id, r.at, 'us-' || r.id, $1, $2, $3, 'GET', '/api/v1/me', 200, 1
         FROM unnest($4::bigint[], $5::timestamptz[]) AS r(id, at)`,
      [k.id, k.accountId, fund.id, rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
    try {
      const url = `/api/v1/admin/activity?keyId=${k.id}&from=2026-01-16&to=2026-01-16&limit=1`;
      const first = await call(app, 'GET', url, { key: k.key });
      const second = await call(app, 'GET', `${url}&cursor=${first.json.nextCursor}`, { key: k.key });
      expect([...first.json.items, ...second.json.items].map((i: { id: string }) => i.id)).toEqual([
        '20000000001',
        '20000000002',
      ]);
    } finally {
      await dbOf(app).query(`DELETE FROM activity_log WHERE id = ANY($1::bigint[])`, [rows.map((r) => r[0])]);
    }
  });

  it('filters the activity log by route (or MCP tool) and status, and binds the cursor to the filters', async () => {
    const k = await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fund.slug, plan: 'developer' });
    await call(app, 'GET', '/api/v1/me', { key: k.key });
    await call(app, 'GET', '/api/v1/me', { key: k.key });
    await call(app, 'GET', '/api/v1/fund/pnl/attribution', { key: k.key }); // 400: date is required
    const q = (extra: string) => call(app, 'GET', `/api/v1/admin/activity?keyId=${k.id}&${extra}`, { key: k.key });
    const me = await q('route=/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.json.items.map((i: { route: string }) => i.route)).toEqual(['/api/v1/me', '/api/v1/me']);
    const bad = await q('status=400');
    expect(bad.json.items.map((i: { route: string; status: number }) => [i.route, i.status])).toEqual([
      ['/api/v1/fund/pnl/attribution', 400],
    ]);
    expect((await q('route=/api/v1/me&status=400')).json.items).toEqual([]);
    const first = await q('route=/api/v1/me&limit=1');
    expect(first.json.hasMore).toBe(true);
    const foreign = await q(`status=200&limit=1&cursor=${first.json.nextCursor}`);
    expect(foreign.status).toBe(400);
    const invalid = await q('status=abc');
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors[0].field).toBe('status');
  });

  it('answers 429 with RateLimit headers once the plan limit is spent, counted across instances', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'free' });
    const answers: CallResult[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(await call(i % 2 === 0 ? app : second, 'GET', '/api/v1/me', { key: k.key }));
    const statuses = answers.map((a) => a.status);
    const last = answers[answers.length - 1];
    // The window is a clock minute: a boundary inside the loop would reset it, so allow that one case.
    if (statuses.filter((s) => s === 429).length === 0) return expect(statuses.every((s) => s === 200)).toBe(true);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(last.status).toBe(429);
    expect(last.json.code).toBe('rate_limited');
    expect(last.headers['ratelimit-policy']).toBe('"fund-minute";q=5;w=60');
    expect(last.headers['ratelimit']).toMatch(/^"fund-minute";r=0;t=\d+$/);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    const logged = await call(app, 'GET', '/api/v1/usage', { key: k.key });
    expect(logged.status).toBe(429);
  });

  it('limits the shared demo-style key per client IP', async () => {
    const k = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    await dbOf(app).query('UPDATE api_keys SET is_demo = true WHERE id = $1', [k.id]);
    const ipA = randomIp();
    const ipB = randomIp();
    const a = [];
    for (let i = 0; i < 6; i++) a.push((await call(app, 'GET', '/api/v1/me', { key: k.key, ip: ipA })).status);
    const b = await call(app, 'GET', '/api/v1/me', { key: k.key, ip: ipB });
    if (a.includes(429)) expect(b.status).toBe(200);
    expect(b.headers['ratelimit']).toMatch(/r=4;/);
  });
});
