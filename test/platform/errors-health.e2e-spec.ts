import { bootApp, call, type CallResult, type TestApp } from '../utils/app';

describe('problem+json errors and health (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ bodyLimitBytes: 4096 });
  });
  afterAll(() => app.close());

  function expectProblem(res: CallResult, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ status, code, type: `https://fundgate.dev/problems/${code}` });
    expect(typeof res.json.title).toBe('string');
    expect(typeof res.json.detail).toBe('string');
    expect(res.json.requestId).toBe(res.headers['x-request-id']);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/); // no stack
  }

  it('unknown route → 404 problem', async () => {
    const res = await call(app, 'GET', '/api/v1/does-not-exist');
    expectProblem(res, 404, 'not_found');
    expect(res.json.instance).toBe('/api/v1/does-not-exist');
  });

  it('malformed JSON → 400 problem', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/admin/keys', {
        body: '{"name": ',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
  });

  it('body over the limit → 413 problem', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/admin/keys', { body: { name: 'x'.repeat(10_000) } }),
      413,
      'payload_too_large',
    );
  });

  it('a body that is not JSON → 415 problem', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/admin/keys', {
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await call(app, 'POST', '/api/v1/admin/keys', { body: 'plain', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('liveness and readiness answer when PostgreSQL and Redis are up', async () => {
    expect((await call(app, 'GET', '/health')).json).toEqual({ status: 'ok' });
    const ready = await call(app, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.json.checks).toEqual({ postgresql: 'up', redis: 'up' });
  });

  it('readiness is a 503 problem when Redis is unreachable', async () => {
    const broken = await bootApp({ redisUrl: 'redis://127.0.0.1:6399/0' });
    try {
      const res = await call(broken, 'GET', '/health/ready');
      expectProblem(res, 503, 'unavailable');
      expect(res.json.detail).toContain('redis');
      expect(res.json.detail).not.toContain('postgresql');
    } finally {
      await broken.close();
    }
  });

  it('serves the OpenAPI document with the bearer scheme and declared scopes', async () => {
    const res = await call(app, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const me = res.json.paths['/api/v1/me'].get;
    expect(me.security).toEqual([{ bearer: [] }, { consoleSession: [] }]); // a key, or a console session (x-session-access)
    expect(me['x-required-scopes']).toEqual([]);
    expect(res.json.paths['/api/v1/admin/keys'].post['x-required-scopes']).toEqual(['keys:manage']);
    expect(me.responses['200'].content['application/json'].schema.$ref).toMatch(/MeDto/);
  });
});
