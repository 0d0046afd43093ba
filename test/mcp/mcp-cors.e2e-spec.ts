import { bootApp, call, createFund, mintKey, randomIp, type TestApp } from '../utils/app';

const AGENT = 'https://agent.example';
const ELSEWHERE = 'https://elsewhere.example';
const ACCEPT = { accept: 'application/json, text/event-stream' };
const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

/**
 * MCP_ALLOWED_ORIGINS opens both MCP servers to browser clients: the fund server as the public one
 * (its Origin check already let those origins through, but CORS treated it as a fund route, so a
 * browser could not reach it unless CORS_ORIGINS named the origin too).
 */
describe('CORS of the MCP servers (MCP_ALLOWED_ORIGINS, CORS_ORIGINS at its default *)', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await bootApp({}, { MCP_ALLOWED_ORIGINS: AGENT });
    key = (await mintKey(app, { scopes: ['fund:read'], fund: (await createFund(app)).slug })).key;
  });
  afterAll(() => app.close());

  const preflight = (url: string, origin: string) =>
    call(app, 'OPTIONS' as 'GET', url, {
      ip: randomIp(),
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });

  it('answers the POST preflight of the fund server for an allowed origin (Authorization, Content-Type, MCP-Protocol-Version, and the Mcp-Method and Mcp-Name of 2026-07-28), without credentials', async () => {
    for (const url of ['/api/mcp', '/api/mcp/public']) {
      const res = await preflight(url, AGENT);
      expect([url, res.status]).toEqual([url, 204]);
      expect(res.headers['access-control-allow-origin']).toBe(AGENT);
      expect(String(res.headers['vary'])).toContain('Origin');
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'])
        expect(allowed).toContain(h);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      // any other origin gets no CORS headers (and the server's Origin check refuses it)
      const other = await preflight(url, ELSEWHERE);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it("lets the browser read the fund server's 401 WWW-Authenticate (resource_metadata) and a keyed answer", async () => {
    const unauthenticated = await call(app, 'POST', '/api/mcp', { body: PING, headers: { ...ACCEPT, origin: AGENT } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['www-authenticate']).toMatch(/resource_metadata=/);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe(AGENT);
    const exposed = String(unauthenticated.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['WWW-Authenticate', 'Retry-After', 'RateLimit']));
    const keyed = await call(app, 'POST', '/api/mcp', { key, body: PING, headers: { ...ACCEPT, origin: AGENT } });
    expect([keyed.status, keyed.json.result]).toEqual([200, {}]);
    expect(keyed.headers['access-control-allow-origin']).toBe(AGENT);
    expect(keyed.headers['access-control-allow-credentials']).toBeUndefined();
    const foreign = await call(app, 'POST', '/api/mcp', { key, body: PING, headers: { ...ACCEPT, origin: ELSEWHERE } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
