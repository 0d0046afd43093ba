import { parseCorsOrigins } from '../../src/config/config';
import { bootApp, call, randomIp, type TestApp } from '../utils/app';
import { clearOfUtcMidnight } from './wait';

const ELSEWHERE = 'https://elsewhere.example';
const TOOLS_SITE = 'https://tools.example';
const FEE = '/api/v1/calc/fee-calculator';

function preflight(app: TestApp, url: string, origin: string, ip = randomIp()) {
  return call(app, 'OPTIONS' as 'GET', url, {
    ip,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    },
  });
}

describe('CORS for the public surfaces (CORS_ORIGINS)', () => {
  describe('default (CORS_ORIGINS=*)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({}, { RATE_LIMITS: JSON.stringify({ 'calc-daily': { free: 2 } }) });
    });
    afterAll(() => app.close());

    it('answers a calculator preflight from any origin, without credentials', async () => {
      const res = await preflight(app, FEE, ELSEWHERE);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    });

    it('puts Access-Control-Allow-Origin and the exposed rate-limit headers on calculator answers, 429 included; preflights never count', async () => {
      await clearOfUtcMidnight(); // the three calls below share one UTC day's window (calc-daily = 2)
      const ip = randomIp();
      for (let i = 0; i < 5; i++) expect((await preflight(app, FEE, ELSEWHERE, ip)).status).toBe(204);
      const first = await call(app, 'POST', FEE, { ip, body: {}, headers: { origin: ELSEWHERE } });
      expect(first.status).toBe(200);
      expect(first.headers['access-control-allow-origin']).toBe('*');
      expect(String(first.headers['access-control-expose-headers'])).toContain('RateLimit');
      expect(String(first.headers['access-control-expose-headers'])).toContain('Retry-After');
      expect(first.headers['ratelimit']).toContain('r=1');
      expect((await call(app, 'POST', FEE, { ip, body: {}, headers: { origin: ELSEWHERE } })).status).toBe(200);
      const refused = await call(app, 'POST', FEE, { ip, body: {}, headers: { origin: ELSEWHERE } });
      expect(refused.status).toBe(429);
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.headers['retry-after']).toBeDefined();
    });

    it('carries the header on a bad-input problem too, so a page elsewhere can show the field errors', async () => {
      const res = await call(app, 'POST', FEE, {
        ip: randomIp(),
        body: { horizonYears: 'ten' },
        headers: { origin: ELSEWHERE },
      });
      expect(res.status).toBe(400);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('keeps fund-data routes and the MCP servers same-origin', async () => {
      // No preflight route for fund data: OPTIONS on the known path is a 405 (Allow: GET) without CORS headers.
      const fundPreflight = await preflight(app, '/api/v1/fund/positions', ELSEWHERE);
      expect(fundPreflight.status).toBe(405);
      expect(fundPreflight.headers['access-control-allow-origin']).toBeUndefined();
      const fund = await call(app, 'GET', '/api/v1/fund/positions', { headers: { origin: ELSEWHERE } });
      expect(fund.headers['access-control-allow-origin']).toBeUndefined();
      const mcp = await preflight(app, '/api/mcp/public', ELSEWHERE);
      expect(mcp.status).toBe(204);
      expect(mcp.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('leaves same-origin requests (no Origin header) without CORS headers', async () => {
      const res = await call(app, 'POST', FEE, { ip: randomIp(), body: {} });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe(`named origins (CORS_ORIGINS=${TOOLS_SITE})`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({}, { CORS_ORIGINS: TOOLS_SITE });
    });
    afterAll(() => app.close());

    it('echoes a named origin (with Vary: Origin) on the calculators, the public MCP server and the fund routes; others get nothing', async () => {
      for (const url of [FEE, '/api/mcp/public', '/api/v1/fund/positions']) {
        const ok = await preflight(app, url, TOOLS_SITE);
        expect(ok.status).toBe(204);
        expect(ok.headers['access-control-allow-origin']).toBe(TOOLS_SITE);
        expect(String(ok.headers['vary'])).toContain('Origin');
        const other = await preflight(app, url, ELSEWHERE);
        expect(other.status).toBe(204);
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('lets the named origin through the public MCP server Origin check; a foreign one is still a 403', async () => {
      const body = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const headers = { accept: 'application/json, text/event-stream' };
      const ok = await call(app, 'POST', '/api/mcp/public', {
        ip: randomIp(),
        body,
        headers: { ...headers, origin: TOOLS_SITE },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe(TOOLS_SITE);
      const foreign = await call(app, 'POST', '/api/mcp/public', {
        ip: randomIp(),
        body,
        headers: { ...headers, origin: ELSEWHERE },
      });
      expect(foreign.status).toBe(403);
    });
  });

  it('CORS_ORIGINS accepts * and bare origins, and names itself when refusing anything else', () => {
    expect(parseCorsOrigins('*')).toEqual(['*']);
    expect(parseCorsOrigins(' https://a.example , http://localhost:5173 ')).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(() => parseCorsOrigins('https://a.example/')).toThrow(/CORS_ORIGINS/);
    expect(() => parseCorsOrigins('ftp://a.example')).toThrow(/CORS_ORIGINS/);
    expect(() => parseCorsOrigins('not a url')).toThrow(/CORS_ORIGINS/);
  });
});
