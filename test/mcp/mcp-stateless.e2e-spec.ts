import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type AddressInfo } from 'node:net';
import { DEMO_SLUG, seedFundsOnce } from '../fund-data/fixtures';
import { bootApp, call, mintKey, randomIp, type TestApp } from '../utils/app';

/**
 * MCP 2026-07-28 (the stateless revision) beside the handshake revisions, driven by the official v2
 * client (@modelcontextprotocol/client) pinned to that revision and in its dual-era 'auto' mode, and
 * on the wire for the revision's refusals.
 */
const MODERN = '2026-07-28';

/** A JSON-RPC answer as these tests read it (members by method). */
interface WireAnswer {
  result: Record<string, unknown> & { tools: unknown[]; isError?: boolean };
  error: { code: number; message: string; data?: unknown };
}
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1' },
};

describe('MCP 2026-07-28, the stateless revision (e2e)', () => {
  let app: TestApp;
  let base: string;
  let readKey: string;

  beforeAll(async () => {
    app = await bootApp();
    await seedFundsOnce(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    readKey = (await mintKey(app, { scopes: ['fund:read'], fund: DEMO_SLUG, plan: 'platform' })).key;
  });
  afterAll(() => app.close());

  async function connect(path: string, headers: Record<string, string>, mode: 'pin' | 'auto') {
    const client = new Client(
      { name: 'fundgate-v2-test', version: '1.0.0' },
      { versionNegotiation: mode === 'pin' ? { mode: { pin: MODERN } } : { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`), { requestInit: { headers } }));
    return client;
  }

  const wireHeaders = (method: string): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${readKey}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  });

  /** One raw POST to the fund server with the standard headers of the revision, unless overridden. */
  async function post(body: unknown, headers: Record<string, string | undefined> = {}) {
    const method = (body as { method?: string }).method ?? '';
    const all: Record<string, string | undefined> = { ...wireHeaders(method), ...headers };
    const sent = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const res = await fetch(`${base}/api/mcp`, { method: 'POST', headers: sent, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as WireAnswer };
  }
  const request = (method: string, params: Record<string, unknown> = {}, meta: object = ENVELOPE) => ({
    jsonrpc: '2.0',
    id: 7,
    method,
    params: { ...params, _meta: meta },
  });

  it('a v2 client pinned to 2026-07-28 discovers the fund server, lists and calls tools, reads resources', async () => {
    const client = await connect('/api/mcp', { authorization: `Bearer ${readKey}` }, 'pin');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_fund_overview');
    const result = await client.callTool({ name: 'get_fund_overview', arguments: {} });
    const rest = await call(app, 'GET', '/api/v1/fund/overview', { key: readKey });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.json);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0].uri });
    expect(read.contents[0].uri).toBe(resources[0].uri);
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    await client.close();
  });

  it("a v2 client in 'auto' mode negotiates 2026-07-28 with both servers; the public one answers as REST", async () => {
    const fund = await connect('/api/mcp', { authorization: `Bearer ${readKey}` }, 'auto');
    expect(fund.getNegotiatedProtocolVersion()).toBe(MODERN);
    await fund.close();
    const pub = await connect('/api/mcp/public', { 'x-forwarded-for': randomIp() }, 'auto');
    expect(pub.getNegotiatedProtocolVersion()).toBe(MODERN);
    const args = { startingNavUsd: 100, annualGrossReturnPct: 12, horizonYears: 1 };
    const result = await pub.callTool({ name: 'fee_calculator', arguments: args });
    const rest = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: args, ip: randomIp() });
    expect(result.structuredContent).toEqual(rest.json);
    await pub.close();
  });

  it('results carry resultType, lists and discover their cache hints, discover the server identity', async () => {
    const discover = await post(request('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.json.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining([MODERN, '2025-11-25']),
      ttlMs: 300000,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fundgate-fund' } },
    });
    const list = await post(request('tools/list'));
    expect(list.json.result).toMatchObject({ resultType: 'complete', ttlMs: 300000, cacheScope: 'private' });
    const called = await post(request('tools/call', { name: 'get_fund_overview', arguments: {} }), {
      'mcp-name': 'get_fund_overview',
    });
    expect(Object.keys(called.json.result)[0]).toBe('resultType');
    expect(called.json.result.resultType).toBe('complete');
    const refused = await post(request('tools/call', { name: 'get_fund_nav_history', arguments: { limit: 0 } }), {
      'mcp-name': 'get_fund_nav_history',
    });
    expect(refused.json.result).toMatchObject({ resultType: 'complete', isError: true });
  });

  it('a resource that does not exist is -32602 carrying its URI (the revision drops -32002)', async () => {
    const uri = 'fundgate://fund/nothing-here';
    const res = await post(request('resources/read', { uri }), { 'mcp-name': uri });
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: -32602, data: { uri } });
  });

  it('has no initialize or ping in that revision (404, -32601), and no server/discover in the handshake revisions', async () => {
    for (const method of ['initialize', 'ping', 'completion/complete']) {
      const res = await post(request(method, method === 'initialize' ? { protocolVersion: MODERN } : {}));
      expect([method, res.status, res.json.error.code]).toEqual([method, 404, -32601]);
    }
    const legacy = await post(
      { jsonrpc: '2.0', id: 1, method: 'server/discover' },
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined },
    );
    expect(legacy.json.error).toMatchObject({ code: -32601 });
  });

  it('refuses with 400 and -32020 a request whose headers are missing or disagree with its body', async () => {
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ 'mcp-method': undefined }, /Mcp-Method/],
      [{ 'mcp-method': 'tools/list' }, /Mcp-Method tools\/list/],
      [{ 'mcp-protocol-version': undefined }, /MCP-Protocol-Version header is required/],
      [{ 'mcp-protocol-version': '2026-07-29' }, /MCP-Protocol-Version 2026-07-29/],
      [{ 'mcp-name': undefined }, /Mcp-Name header/],
      [{ 'mcp-name': 'get_fund_positions' }, /Mcp-Name "get_fund_positions"/],
      [{ 'mcp-name': '=?base64?not base64?=' }, /invalid =\?base64/],
    ];
    for (const [headers, message] of cases) {
      const res = await post(request('tools/call', { name: 'get_fund_overview', arguments: {} }), {
        'mcp-name': 'get_fund_overview',
        ...headers,
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(-32020);
      expect(res.json.error.message).toMatch(message);
    }
    const encoded = `=?base64?${Buffer.from('get_fund_overview').toString('base64')}?=`;
    const ok = await post(request('tools/call', { name: 'get_fund_overview', arguments: {} }), { 'mcp-name': encoded });
    expect(ok.status).toBe(200);
    expect(ok.json.result.isError).toBeFalsy();
  });

  it('refuses a bad envelope, an unknown revision of the era, and batches, each with a 400 naming why', async () => {
    const noCaps = await post(request('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': MODERN }));
    expect(noCaps.status).toBe(400);
    expect(noCaps.json.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('clientCapabilities'),
      data: { envelope: { key: 'io.modelcontextprotocol/clientCapabilities', problem: 'missing' } },
    });
    const future = await post(
      request('tools/list', {}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }),
      {
        'mcp-protocol-version': '2027-01-01',
      },
    );
    expect(future.status).toBe(400);
    expect(future.json.error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '2027-01-01' } });
    const noEnvelope = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(noEnvelope.status).toBe(400);
    expect(noEnvelope.json.error).toMatchObject({ code: -32602, data: { envelope: { missing: expect.any(Array) } } });
    const batch = await post([request('tools/list'), request('tools/list')], { 'mcp-method': 'tools/list' });
    expect(batch.status).toBe(400);
    expect(batch.json.error).toMatchObject({ code: -32600 });
  });

  it('still speaks the handshake revisions on the same URL (an envelope naming 2025-11-25 is that era)', async () => {
    const res = await post(
      request('tools/list', {}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined },
    );
    expect(res.status).toBe(200);
    expect(res.json.result.resultType).toBeUndefined();
    expect(res.json.result.tools.length).toBeGreaterThan(0);
  });
  it('cross-checks the header against a handshake-era claim too, and a broken Mcp-Name even where no name is needed', async () => {
    const legacyClaim = { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
    const listed = await post(request('tools/list', {}, legacyClaim));
    expect([listed.status, listed.json.error.code]).toEqual([400, -32020]);
    const init = await post(request('initialize', { protocolVersion: '2025-11-25' }, legacyClaim));
    expect([init.status, init.json.error.code]).toEqual([400, -32020]);
    const broken = await post(request('tools/list'), { 'mcp-name': '=?base64?***?=' });
    expect([broken.status, broken.json.error.code]).toEqual([400, -32020]);
  });

  it('takes a notification of the revision by its header or its version claim alone, its Mcp-Method checked', async () => {
    const note = (params: object) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
    const byHeader = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { ...wireHeaders('notifications/cancelled'), 'mcp-method': 'tools/list' },
      body: JSON.stringify(note({ requestId: 1 })),
    });
    expect(byHeader.status).toBe(400);
    expect(((await byHeader.json()) as WireAnswer).error.code).toBe(-32020);
    for (const params of [
      { requestId: 1 },
      { requestId: 1, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
    ]) {
      const res = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: wireHeaders('notifications/cancelled'),
        body: JSON.stringify(note(params)),
      });
      expect(res.status).toBe(202);
    }
  });

  it('answers a version header that is not a revision date as the handshake era did (400 naming it)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': 'latest' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('unsupported MCP-Protocol-Version latest');
  });

  it("counts the revision's messages and refusals on mcp-minute, never on the key's REST window", async () => {
    const remaining = async () => {
      const res = await call(app, 'GET', '/api/v1/me', { key: readKey });
      return Number(/r=(\d+)/.exec(String(res.headers['ratelimit']))?.[1]);
    };
    const before = await remaining();
    await post(request('server/discover'));
    await post(request('tools/list'));
    await post(request('tools/list'), { 'mcp-method': undefined }); // refused (400), still counted once
    expect(await remaining()).toBe(before - 1); // only the second /me itself
  });
});
