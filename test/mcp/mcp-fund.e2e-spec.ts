import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type AddressInfo } from 'node:net';
import { allEndpoints, DEMO_SLUG, seedFundsOnce } from '../fund-data/fixtures';
import type { RpcAnswer } from './rpc-answer';
import { bootApp, call, mintKey, type TestApp } from '../utils/app';

/** The tool name and arguments that correspond to a REST URL of the read API. */
function toolCallFor(url: string): { name: string; args: Record<string, unknown> } {
  const u = new URL(url, 'http://x');
  const name = 'get_' + u.pathname.slice('/api/v1/'.length).replace(/[/-]/g, '_');
  const args: Record<string, unknown> = {};
  for (const [k, v] of u.searchParams) args[k] = /^\d+$/.test(v) && k !== 'accountCode' ? Number(v) : v;
  return { name, args };
}

describe('fund MCP server (e2e, official SDK client over Streamable HTTP)', () => {
  let app: TestApp;
  let base: string;
  let readKey: string;
  let params: { attributionDate: string; journalFrom: string; journalTo: string };

  beforeAll(async () => {
    app = await bootApp();
    await seedFundsOnce(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    readKey = (await mintKey(app, { scopes: ['fund:read'], fund: DEMO_SLUG, plan: 'platform' })).key;
    const dates = await call(app, 'GET', '/api/v1/fund/pnl/attribution-dates', { key: readKey });
    const latest = dates.json.latest as string;
    params = {
      attributionDate: latest,
      journalFrom: new Date(Date.parse(latest) - 20 * 86_400_000).toISOString().slice(0, 10),
      journalTo: latest,
    };
  });
  afterAll(() => app.close());

  async function connect(key: string) {
    const client = new Client({ name: 'fundgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return client;
  }

  it('refuses a caller without a key with 401 and WWW-Authenticate', async () => {
    const res = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2026-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="http[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp", scope="fund:read"$/,
    );
  });

  it('refuses a key without a fund with 403 naming why (it initialized and listed no tools)', async () => {
    const calcOnly = (await mintKey(app, { scopes: ['fund:read'], fund: null })).key;
    const res = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${calcOnly}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: 'forbidden',
      detail: expect.stringContaining('not bound to a fund'),
    });
  });

  it('lists one typed, read-only tool per read endpoint, and answers every one exactly as REST', async () => {
    const client = await connect(readKey);
    const { tools } = await client.listTools();
    const endpoints = allEndpoints(params);
    const expected = endpoints.map((u) => toolCallFor(u).name).sort();
    expect(tools.map((t) => t.name).sort()).toEqual(expected);
    expect(tools).toHaveLength(25);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description).toMatch(/decimal strings/);
    }
    for (const url of endpoints) {
      const { name, args } = toolCallFor(url);
      const result = await client.callTool({ name, arguments: args }); // the SDK validates structuredContent against outputSchema
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      const rest = await call(app, 'GET', url, { key: readKey });
      expect(rest.status).toBe(200);
      const body = Array.isArray(rest.json) ? { items: rest.json } : rest.json;
      expect({ name, structured: result.structuredContent }).toEqual({ name, structured: body });
    }
    await client.close();
  });

  it('answers the documented raw request sequence over plain HTTP', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${readKey}`,
    };
    const init = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2026-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '8' } },
      }),
    });
    expect(init.status).toBe(200);
    const initBody = (await init.json()) as RpcAnswer;
    expect(initBody.result.protocolVersion).toBe('2026-06-18');
    expect(initBody.result.capabilities.tools).toBeDefined();
    const called = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_fund_overview', arguments: {} },
      }),
    });
    const body = (await called.json()) as RpcAnswer;
    const rest = await call(app, 'GET', '/api/v1/fund/overview', { key: readKey });
    expect(body.result.structuredContent).toEqual(rest.json);
    expect(Object.keys(body.result.structuredContent)).toEqual(['fund', 'shareClasses', 'latestNav']);
  });

  it('offers LP reports and fee terms as resources (read through the REST route, redacted) and prompts that name the tools', async () => {
    const client = await connect(readKey);
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} });
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['fundgate://fund/lp-reports', 'fundgate://fund/fee-terms']));
    const lp = await client.readResource({ uri: 'fundgate://fund/lp-reports' });
    const rest = await call(app, 'GET', '/api/v1/fund/lp-reports', { key: readKey });
    expect(JSON.parse((lp.contents[0] as { text: string }).text)).toEqual(rest.json);
    await expect(client.readResource({ uri: 'fundgate://fund/secrets' })).rejects.toThrow(/resource not found/);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['explain_pnl_attribution', 'summarise_exposure_and_var']));
    const listed = (await client.listTools()).tools;
    const tools = new Set(listed.map((t) => t.name));
    for (const name of prompts) {
      const text = (
        (await client.getPrompt({ name, arguments: { date: params.attributionDate } })).messages[0].content as {
          text: string;
        }
      ).text;
      const cited: string[] = text.match(/\bget_[a-z_]+/g) ?? [];
      expect(cited.length).toBeGreaterThan(0);
      for (const tool of cited) expect(tools).toContain(tool); // every tool a prompt cites exists
      // every answer member a prompt names in parentheses is in what its tools answer
      const schemas = JSON.stringify(listed.filter((t) => cited.includes(t.name)).map((t) => t.outputSchema));
      for (const [, member] of text.matchAll(/\(([a-z]+[A-Z][A-Za-z]*|restatements)\)/g))
        expect([name, schemas.includes(`"${member}"`)]).toEqual([name, true]);
    }
    await client.close();
  });

  it('reports bad arguments as tool errors naming the field', async () => {
    const client = await connect(readKey);
    const missing = await client.callTool({ name: 'get_fund_pnl_attribution', arguments: {} });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0].text).toMatch(/^missing_parameter: date/);
    const bad = await client.callTool({ name: 'get_fund_risk_var', arguments: { confidence: 0.5, bogus: 1 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/confidence/);
    const keyOnRead = await client.callTool({ name: 'get_fund_overview', arguments: { idempotencyKey: 'k-1' } });
    expect((keyOnRead.content as { text: string }[])[0].text).toBe(
      'invalid_parameter: idempotencyKey: is not a known field',
    );
    await client.close();
  });

  it("checks each argument's JSON type against the tool's inputSchema before it becomes query text", async () => {
    const client = await connect(readKey);
    const answer = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError ?? false,
        text: result.isError ? (result.content as { text: string }[])[0].text : '',
      };
    };
    // each was answered as if the value had been sent as text: true as "true", 0.99 as "0.99", "5" as 5
    expect(await answer('get_fund_trades', { symbol: true })).toEqual({
      isError: true,
      text: 'invalid_parameter: symbol: must be a string',
    });
    expect(await answer('get_fund_risk_var', { confidence: 0.99 })).toEqual({
      isError: true,
      text: 'invalid_parameter: confidence: must be a string: one of "0.95", "0.99"',
    });
    expect(await answer('get_fund_investors', { limit: '5' })).toEqual({
      isError: true,
      text: 'invalid_parameter: limit: must be an integer number',
    });
    // every failing argument at once, in the schema's order; an enum is checked on the JSON value
    expect(await answer('get_fund_trades', { limit: 2.5, side: 'hold', symbol: 7, from: 20250101 })).toEqual({
      isError: true,
      text: 'invalid_parameter: from: must be a string; symbol: must be a string; side: must be one of the following values: buy, sell; limit: must be an integer number',
    });
    expect(await answer('get_fund_risk_var', { horizonDays: '10' })).toEqual({
      isError: true,
      text: 'invalid_parameter: horizonDays: must be an integer number: one of 1, 10',
    });
    // well-typed arguments still reach the route's DTO, which checks their values as REST does
    expect(await answer('get_fund_investors', { limit: 5 })).toEqual({ isError: false, text: '' });
    expect(await answer('get_fund_trades', { symbol: 'BTC', side: 'buy', limit: 3 })).toEqual({
      isError: false,
      text: '',
    });
    expect(await answer('get_fund_investors', { limit: 5000 })).toEqual({
      isError: true,
      text: 'invalid_parameter: limit: must not be greater than 1000',
    });
    await client.close();
  });

  it('prompts/get refuses a date that is not a real calendar date, or not a string, naming date', async () => {
    const promptGet = async (args: unknown) =>
      (
        await call(app, 'POST', '/api/mcp', {
          key: readKey,
          headers: { accept: 'application/json, text/event-stream' },
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'prompts/get',
            params: { name: 'explain_pnl_attribution', arguments: args },
          },
        })
      ).json as RpcAnswer & { result: { messages: { content: { text: string } }[] } };
    for (const date of ['2025-02-30', '2025-13-01', '0999-01-01', 20250101, null, ['2025-01-31']]) {
      const answer = await promptGet({ date });
      expect({ date, error: answer.error }).toEqual({
        date,
        error: { code: -32602, message: expect.stringMatching(/^date must be a /) },
      });
    }
    expect((await promptGet('2025-01-31')).error).toEqual({
      code: -32602,
      message: 'params.arguments must be an object',
    });
    const ok = await promptGet({ date: '2024-02-29' });
    expect(ok.result.messages[0].content.text).toContain('for 2024-02-29');
    const latest = await promptGet({});
    expect(latest.result.messages[0].content.text).toContain('get_fund_pnl_attribution_dates');
  });

  it("hides and refuses tools the key's scopes do not allow", async () => {
    const proposeOnly = (await mintKey(app, { scopes: ['fund:propose'], fund: DEMO_SLUG })).key;
    const client = await connect(proposeOnly);
    const { tools } = await client.listTools();
    expect(tools.filter((t) => t.name.startsWith('get_'))).toEqual([]);
    await expect(client.callTool({ name: 'get_fund_overview', arguments: {} })).rejects.toThrow(/unknown tool/);
    await client.close();
    const readOnly = await connect(readKey);
    expect((await readOnly.listTools()).tools.filter((t) => t.name.startsWith('propose_'))).toEqual([]);
    await readOnly.close();
  });

  it('offers the four propose tools to fund:propose keys; a call stages a proposal and an idempotency key replays it', async () => {
    const proposer = (await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: DEMO_SLUG })).key;
    const client = await connect(proposer);
    const { tools } = await client.listTools();
    const propose = tools.filter((t) => t.name.startsWith('propose_'));
    expect(propose.map((t) => t.name).sort()).toEqual([
      'propose_capital_activity',
      'propose_expense',
      'propose_journal_entry',
      'propose_lp_report',
    ]);
    for (const t of propose) {
      expect(t.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect((t.inputSchema.properties as Record<string, unknown>).idempotencyKey).toBeDefined();
      expect(t.description).toMatch(/human manager approves/);
    }
    const args = {
      category: 'legal',
      vendor: 'Counsel LLP',
      amount: '1200.00',
      accrualDate: params.journalTo,
      description: 'MCP-staged legal fee',
      idempotencyKey: `mcp-${Date.now()}`,
    };
    const first = await client.callTool({ name: 'propose_expense', arguments: args });
    expect(first.isError).toBeFalsy();
    const staged = first.structuredContent as { id: string; status: string; kind: string };
    expect(staged).toMatchObject({ status: 'pending', kind: 'expense' });
    const again = await client.callTool({ name: 'propose_expense', arguments: args });
    expect((again.structuredContent as { id: string }).id).toBe(staged.id);
    const rest = await call(app, 'GET', `/api/v1/fund/proposals/${staged.id}`, { key: proposer });
    expect(rest.status).toBe(200);
    const bad = await client.callTool({
      name: 'propose_expense',
      arguments: { ...args, amount: '12.345', idempotencyKey: undefined },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toMatch(/amount/);
    await client.close();
  });

  it("counts tool calls against the key's rate limit", async () => {
    // the SDK's initialize and notifications/initialized count against mcp-minute, not this window
    const limited = await bootApp({}, { RATE_LIMITS: JSON.stringify({ 'fund-minute': { free: 2 } }) });
    await limited.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(limited.getHttpServer().address() as AddressInfo).port}/api/mcp`;
    const key = (await mintKey(limited, { scopes: ['fund:read'], fund: DEMO_SLUG, plan: 'free' })).key;
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    const errors: boolean[] = [];
    for (let i = 0; i < 3; i++)
      errors.push(Boolean((await client.callTool({ name: 'get_fund_fee_terms', arguments: {} })).isError));
    await client.close();
    await limited.close();
    // A clock-minute boundary inside the loop resets the window; otherwise the third call is refused.
    expect(errors[0]).toBe(false);
    if (errors[2]) expect(errors).toEqual([false, false, true]);
  });
});
