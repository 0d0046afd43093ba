import { bootApp, call, type TestApp } from '../utils/app';

const BASE = 'https://fundgate.example';
const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * RFC 9728 §3.3: the `resource` of a protected resource metadata document must be the identifier its
 * well-known URL was formed from (a client must discard one that is not). The fund MCP server's 401
 * names <base>/.well-known/oauth-protected-resource/api/mcp; the root document would describe the
 * origin, which is no protected resource here, so it is a 404 naming the right one.
 */
describe('OAuth protected resource metadata (RFC 9728 §3.3)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ publicBaseUrl: BASE });
  });
  afterAll(() => app.close());

  it('every document served advertises the resource its URL was formed from; the root is a 404', async () => {
    const mcp = await call(app, 'GET', `${WELL_KNOWN}/api/mcp`);
    expect(mcp.status).toBe(200);
    expect(mcp.json).toMatchObject({ resource: `${BASE}/api/mcp`, authorization_servers: [BASE] });
    const root = await call(app, 'GET', WELL_KNOWN);
    expect(root.status).toBe(404);
    expect(root.json.error_description).toContain(`${BASE}${WELL_KNOWN}/api/mcp`);
    const unauthenticated = await call(app, 'POST', '/api/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(unauthenticated.headers['www-authenticate']).toContain(`resource_metadata="${BASE}${WELL_KNOWN}/api/mcp"`);
  });
});
