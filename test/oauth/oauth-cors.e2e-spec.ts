import { bootApp, call, type TestApp } from '../utils/app';

/** Browser-based MCP clients discover, register and exchange tokens cross-origin (no credentials). */
describe('OAuth endpoints answer CORS for browser clients (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  const origin = { origin: 'https://agent.example' };

  it('answers preflights for discovery, token, revocation and registration', async () => {
    for (const url of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/api/mcp',
      '/oauth/token',
      '/oauth/register',
      '/oauth/revoke',
    ]) {
      const res = await app
        .getHttpAdapter()
        .getInstance()
        .inject({
          method: 'OPTIONS',
          url,
          headers: { ...origin, 'access-control-request-method': url.startsWith('/oauth') ? 'POST' : 'GET' },
        });
      expect([url, res.statusCode]).toEqual([url, 204]);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('puts Access-Control-Allow-Origin on the metadata answers, and not on other routes by default', async () => {
    const meta = await call(app, 'GET', '/.well-known/oauth-authorization-server', { headers: origin });
    expect(meta.status).toBe(200);
    expect(meta.headers['access-control-allow-origin']).toBe('*');
    const me = await call(app, 'GET', '/api/v1/me', { headers: origin });
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
  });
});
