import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { type AddressInfo } from 'node:net';
import { bootApp, call, dbOf, mintKey, randomIp, type TestApp } from '../utils/app';
import type { RpcAnswer } from './rpc-answer';
import { ActivityLogWriter } from '../../src/usage/activity-log.writer';

const CALCULATORS = [
  'back_office_savings',
  'exposure_analysis',
  'fee_calculator',
  'fund_health_check',
  'lp_report_grader',
  'nav_validator',
  'operating_cost_calculator',
];

describe('public MCP server (e2e, official SDK client over Streamable HTTP)', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await bootApp(
      {},
      { RATE_LIMITS: JSON.stringify({ 'calc-daily': { free: 4, developer: 1000 } }), TRUSTED_PROXIES: '127.0.0.1' },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  async function connect(headers: Record<string, string> = {}) {
    const client = new Client({ name: 'fundgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/public`), { requestInit: { headers } }),
    );
    return client;
  }

  it('connects, lists the seven calculators with schemas and annotations, and answers as REST does', async () => {
    const ip = randomIp();
    const client = await connect({ 'x-forwarded-for': ip });
    expect(client.getServerVersion()?.name).toBe('fundgate-public');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(CALCULATORS);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(t.description!.length).toBeGreaterThan(40);
    }
    const args = {
      startingNavUsd: 100,
      annualGrossReturnPct: 12,
      mgmtFeePct: 2,
      perfFeePct: 20,
      hurdlePct: 4,
      hasHwm: true,
      crystallization: 'annual',
      horizonYears: 3,
    };
    const result = await client.callTool({ name: 'fee_calculator', arguments: args });
    expect(result.isError).toBeFalsy();
    const rest = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: args, ip: randomIp() });
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(rest.json);
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(rest.json);
    await client.close();
  });

  it('reports invalid arguments as a tool error naming the field', async () => {
    const client = await connect({ 'x-forwarded-for': randomIp() });
    const result = await client.callTool({
      name: 'fee_calculator',
      arguments: { horizonYears: 'ten', crystallization: 'weekly' },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    expect(text).toContain('horizonYears');
    expect(text).toContain('crystallization');
    await client.close();
  });

  it('applies the calculator daily cap per caller, raised by a valid key; an invalid key is a 401', async () => {
    const ip = randomIp();
    const client = await connect({ 'x-forwarded-for': ip });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 5; i++)
      outcomes.push(Boolean((await client.callTool({ name: 'operating_cost_calculator', arguments: {} })).isError));
    expect(outcomes).toEqual([false, false, false, false, true]);
    const limited = await client.callTool({ name: 'operating_cost_calculator', arguments: {} });
    expect((limited.content as { text: string }[])[0].text).toMatch(/^rate_limited/);
    await client.close();
    const k = await mintKey(app, { scopes: [], plan: 'developer' });
    const keyed = await connect({ 'x-forwarded-for': ip, authorization: `Bearer ${k.key}` });
    expect((await keyed.callTool({ name: 'operating_cost_calculator', arguments: {} })).isError).toBeFalsy();
    await keyed.close();
    const bad = await fetch(`${base}/api/mcp/public`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer svc_dk_nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(bad.status).toBe(401);
  });

  it('records the tool name in the activity log', async () => {
    const k = await mintKey(app, { scopes: [], plan: 'developer' });
    const client = await connect({ authorization: `Bearer ${k.key}` });
    await client.callTool({ name: 'back_office_savings', arguments: {} });
    await client.close();
    await app.get(ActivityLogWriter).flush();
    const rows = await dbOf(app).query(
      'SELECT route, tool, status FROM activity_log WHERE key_id = $1 AND tool IS NOT NULL',
      [k.id],
    );
    // the tool runs its route in-process: one request, one row, under the MCP route with the tool's name
    expect(rows).toEqual([{ route: '/api/mcp/public', tool: 'back_office_savings', status: 200 }]);
  });

  describe('protocol over plain HTTP', () => {
    const post = (
      body: string,
      headers: Record<string, string> = {},
      path = '/api/mcp/public',
    ): Promise<{ status: number; json<T = RpcAnswer>(): Promise<T>; text(): Promise<string> }> =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': randomIp(),
          ...headers,
        },
        body,
      }).then((r) => ({ status: r.status, json: <T = RpcAnswer>() => r.json() as Promise<T>, text: () => r.text() }));

    const initialize = (v: string, headers: Record<string, string> = {}) =>
      post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
        }),
        headers,
      );

    it('echoes a supported protocol version, else answers 2025-11-25 (never 2026-07-28, whose clients use server/discover)', async () => {
      const answered = async (v: string) => (await (await initialize(v)).json()).result.protocolVersion;
      for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) expect(await answered(v)).toBe(v);
      // the interface spec's documented example: fundgate's alias of 2025-11-25, echoed
      expect(await answered('2026-06-18')).toBe('2026-06-18');
      // the stateless revision, an SDK-1.x version we do not speak, and unknown ones: the latest we do speak,
      // a version SDK-1.x clients accept (they refused 2026-07-28: "Server's protocol version is not supported")
      for (const v of ['2026-07-28', '2024-10-07', '2099-01-01', '1999-01-01']) {
        const version = await answered(v);
        expect([v, version]).toEqual([v, '2025-11-25']);
        expect(SDK_SUPPORTED_PROTOCOL_VERSIONS).toContain(version);
      }
    });

    it('refuses a handshake-era MCP-Protocol-Version it does not speak with HTTP 400 and a plain JSON-RPC error', async () => {
      const refused = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {
        'mcp-protocol-version': '2024-10-07',
      });
      expect(refused.status).toBe(400);
      const body = await refused.json();
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toBe(
        'Invalid Request: unsupported MCP-Protocol-Version 2024-10-07; supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
      );
      // initialize never negotiates the stateless revision (it has no initialize): a version it speaks
      const init = await initialize('2026-07-28');
      expect((await init.json()).result.protocolVersion).toBe('2025-11-25');
      // the alias is accepted in the header (a client that initialized with it sends it on)
      const alias = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), {
        'mcp-protocol-version': '2026-06-18',
      });
      expect([alias.status, (await alias.json()).result]).toEqual([200, {}]);
    });

    it('answers notifications with 202 and no body, ping with {}', async () => {
      const n = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      expect(n.status).toBe(202);
      expect(await n.text()).toBe('');
      // never answered, even when malformed; a client's response (to no request of ours) is acknowledged
      for (const m of [
        { jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' },
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
      ]) {
        const acknowledged = await post(JSON.stringify(m));
        expect([acknowledged.status, await acknowledged.text()]).toEqual([202, '']);
      }
      expect(await (await post(JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }))).json()).toEqual({
        jsonrpc: '2.0',
        id: 'p',
        result: {},
      });
    });

    it('uses the JSON-RPC error codes for malformed, batch, invalid and unknown requests', async () => {
      const parse = await post('{"jsonrpc": "2.0", ');
      expect(parse.status).toBe(400);
      expect((await parse.json()).error.code).toBe(-32700);
      expect(
        (
          await (
            await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), {
              'mcp-protocol-version': '2025-06-18',
            })
          ).json()
        ).error.code,
      ).toBe(-32600);
      expect((await (await post(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ping' }))).json()).error.code).toBe(
        -32600,
      );
      expect(
        (await (await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list' }))).json()).error.code,
      ).toBe(-32601);
      const unknownTool = await (
        await post(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'get_fund_overview', arguments: {} },
          }),
        )
      ).json();
      expect(unknownTool.error.code).toBe(-32602);
    });

    it('answers an empty body (or none) with a JSON-RPC parse error (-32700), not an Invalid Request', async () => {
      const none = await fetch(`${base}/api/mcp/public`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'x-forwarded-for': randomIp() },
      });
      expect([none.status, ((await none.json()) as RpcAnswer).error.code]).toEqual([400, -32700]);
      const empty = await post('');
      expect(empty.status).toBe(400);
      expect((await empty.json()).error).toEqual({
        code: -32700,
        message: 'Parse error: the body is empty; send one JSON-RPC message (or a batch)',
      });
      // {} and null are JSON, just not JSON-RPC messages
      expect((await (await post('{}')).json()).error.code).toBe(-32600);
      expect((await (await post('null')).json()).error.code).toBe(-32600);
    });

    it('answers JSON-RPC batches where the version has them (2025-03-26, or no version header), never with initialize', async () => {
      const batch = JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'back_office_savings', arguments: {} } },
        { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} },
      ]);
      const res = await post(batch, { 'mcp-protocol-version': '2025-03-26' });
      const answers = await res.json<RpcAnswer[]>();
      expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
      expect(answers[0].result).toEqual({});
      expect(answers[1].result.structuredContent).toBeDefined();
      expect(answers[2].error.code).toBe(-32600);
      expect(
        Array.isArray(await (await post(JSON.stringify([{ jsonrpc: '2.0', id: 'a', method: 'ping' }]))).json()),
      ).toBe(true);
      const onlyNotifications = await post(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]), {
        'mcp-protocol-version': '2025-03-26',
      });
      expect(onlyNotifications.status).toBe(202);
      expect((await (await post(JSON.stringify([]), { 'mcp-protocol-version': '2025-03-26' })).json()).error.code).toBe(
        -32600,
      );
    });

    it('writes an activity row per tool call of a batch, with the tool and its own status (probes included)', async () => {
      const k = await mintKey(app, { scopes: [], plan: 'developer' });
      const batch = JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'back_office_savings', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fee_calculator', arguments: { x: 1 } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      ]);
      const res = await post(batch, { 'mcp-protocol-version': '2025-03-26', authorization: `Bearer ${k.key}` });
      expect(res.status).toBe(200); // the HTTP answer is 200 whatever the tools did
      await app.get(ActivityLogWriter).flush();
      const rows = await dbOf(app).query('SELECT tool, status FROM activity_log WHERE key_id = $1 ORDER BY id', [k.id]);
      expect(rows).toEqual([
        { tool: 'back_office_savings', status: 200 },
        { tool: 'fee_calculator', status: 400 },
        { tool: 'no_such_tool', status: 404 },
      ]);
    });

    it('an unknown tool is named in the error cut to 200 characters (it echoed any length)', async () => {
      const name = 'x'.repeat(5000);
      const res = await post(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
        {},
      );
      const body = await res.json();
      expect(body.error.message).toBe(`unknown tool: ${'x'.repeat(200)}`);
    });

    it('serves the same public server at /api/mcp/public/mcp', async () => {
      const tools = await (
        await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {}, '/api/mcp/public/mcp')
      ).json();
      expect(tools.result.tools.map((t) => t.name)).toContain('back_office_savings');
      expect((await fetch(`${base}/api/mcp/public/mcp`)).status).toBe(405);
    });

    it('refuses GET with 405 and a foreign Origin with 403', async () => {
      const get = await fetch(`${base}/api/mcp/public`, { headers: { accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      const foreign = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {
        origin: 'https://evil.example',
      });
      expect(foreign.status).toBe(403);
    });
  });
});
