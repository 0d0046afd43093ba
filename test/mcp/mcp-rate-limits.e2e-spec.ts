import { bootApp, call, createFund, mintKey, randomIp, type CallResult, type TestApp } from '../utils/app';

const ACCEPT = { accept: 'application/json, text/event-stream' };
const rpc = (id: number | string, method: string, params?: object) => ({ jsonrpc: '2.0', id, method, params });
const calc = (id: number) => rpc(id, 'tools/call', { name: 'back_office_savings', arguments: {} });

/** Windows are clock minutes: a test that needs one window starts well inside a minute. */
async function insideOneMinute(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
}

/**
 * Every MCP request that makes no counted tool call (initialize, ping, lists, prompts, unknown tools,
 * each such message of a batch) counts once against the caller's fund-minute window; a tools/call
 * counts only against its tool's policy (calc-daily, fund-minute), never twice.
 */
describe('MCP rate limits (e2e)', () => {
  let app: TestApp;
  let fund: string;

  beforeAll(async () => {
    app = await bootApp(
      {},
      {
        RATE_LIMITS: JSON.stringify({
          'mcp-minute': { free: 3, developer: 3, platform: 3 },
          'fund-minute': { free: 3, developer: 3, platform: 3 },
          'calc-daily': { free: 2, developer: 2, platform: 2 },
        }),
      },
    );
    fund = (await createFund(app)).slug;
  });
  afterAll(() => app.close());

  const post = (path: string, body: unknown, opts: { ip?: string; key?: string } = {}) =>
    call(app, 'POST', path, { body, headers: ACCEPT, ...opts });

  function expectRefusal(res: CallResult, id: number | string | null, policy = 'mcp-minute'): void {
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32000,
        message: expect.stringMatching(
          new RegExp(`^rate_limited: rate limit "${policy}" of 3 requests per 60 s exceeded`),
        ),
        data: { code: 'rate_limited', status: 429, detail: expect.any(String), retryAfter: expect.any(Number) },
      },
    });
  }

  it('counts initialize, ping, tools/list and unknown tools of an anonymous caller per address; the 4th is a 429 with Retry-After and a JSON-RPC error', async () => {
    await insideOneMinute();
    const ip = randomIp();
    const init = rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x' } });
    for (const body of [init, rpc(2, 'ping'), rpc(3, 'tools/call', { name: 'no_such_tool', arguments: {} })])
      expect((await post('/api/mcp/public', body, { ip })).status).toBe(200);
    const refused = await post('/api/mcp/public', rpc(4, 'tools/list'), { ip });
    expect(refused.status).toBe(429);
    expectRefusal(refused, 4);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['ratelimit-policy']).toBe('"mcp-minute";q=3;w=60');
    expect(refused.headers['ratelimit']).toMatch(/^"mcp-minute";r=0;t=\d+$/);
    // a notification is refused too (it is never answered otherwise)
    const note = await post('/api/mcp/public', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ip });
    expect(note.status).toBe(429);
    expectRefusal(note, null);
    // another address has its own window
    expect((await post('/api/mcp/public', rpc(5, 'tools/list'), { ip: randomIp() })).status).toBe(200);
  });

  it('a tools/call counts only against its tool policy (calc-daily), and the other messages never against calc-daily', async () => {
    await insideOneMinute();
    const ip = randomIp();
    for (const id of [1, 2, 3]) expect((await post('/api/mcp/public', rpc(id, 'tools/list'), { ip })).status).toBe(200);
    // mcp-minute is spent, calc-daily untouched: both calculator calls are answered
    for (const id of [4, 5]) {
      const res = await post('/api/mcp/public', calc(id), { ip });
      expect([res.status, res.json.result.isError ?? false]).toEqual([200, false]);
      expect(res.headers['ratelimit-policy']).toBe('"calc-daily";q=2;w=86400');
    }
    const capped = await post('/api/mcp/public', calc(6), { ip });
    expect(capped.json.result.content[0].text).toMatch(/^rate_limited: rate limit "calc-daily"/);
    // and calculator calls did not count against mcp-minute: a fresh address after two calls still lists three times
    const other = randomIp();
    for (const id of [7, 8]) await post('/api/mcp/public', calc(id), { ip: other });
    for (const id of [9, 10, 11])
      expect((await post('/api/mcp/public', rpc(id, 'tools/list'), { ip: other })).status).toBe(200);
  });

  it('counts each uncounted message of a batch: refused ones are JSON-RPC errors in a 200; a batch all refused is a 429', async () => {
    await insideOneMinute();
    const ip = randomIp();
    const batch = [1, 2, 3, 4, 5].map((id) => rpc(id, 'tools/list'));
    const res = await post('/api/mcp/public', [...batch, calc(6)], { ip });
    expect(res.status).toBe(200);
    expect(res.headers['retry-after']).toBeUndefined();
    const answers = res.json as { id: number; result?: { tools?: unknown[] } }[];
    expect(answers.slice(0, 3).map((a) => a.result?.tools?.length)).toEqual([7, 7, 7]);
    for (const [i, id] of [4, 5].entries()) expectRefusal({ ...res, json: answers[3 + i] }, id);
    expect(answers[5]).toMatchObject({ id: 6, result: { structuredContent: expect.any(Object) } });
    const spent = await post('/api/mcp/public', [rpc(7, 'ping'), rpc(8, 'tools/list')], { ip });
    expect(spent.status).toBe(429);
    expect(spent.headers['retry-after']).toMatch(/^\d+$/);
    expect((spent.json as { id: number }[]).map((a) => a.id)).toEqual([7, 8]);
  });

  it("a batch's 200 carries no tool's Retry-After unless every answer is a refusal", async () => {
    await insideOneMinute();
    const ip = randomIp();
    // calc-daily is 2: the third call is refused (isError), the ping answered
    const mixed = await post('/api/mcp/public', [calc(1), calc(2), calc(3), rpc(4, 'ping')], { ip });
    expect(mixed.status).toBe(200);
    const texts = (mixed.json as { result: { isError?: boolean; content?: { text: string }[] } }[]).map((a) =>
      a.result.isError ? a.result.content![0].text.split(':')[0] : 'ok',
    );
    expect(texts).toEqual(['ok', 'ok', 'rate_limited', 'ok']);
    expect(mixed.headers['retry-after']).toBeUndefined();
    const refused = await post('/api/mcp/public', [calc(5), calc(6)], { ip });
    expect(refused.status).toBe(200); // tool errors are results; the HTTP answer says when to retry
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const single = await post('/api/mcp/public', calc(7), { ip });
    expect([single.status, single.headers['retry-after']]).toEqual([200, expect.stringMatching(/^\d+$/)]);
  });

  it("counts a key's uncounted messages on the fund server against its own mcp-minute, and each read tool call once against fund-minute", async () => {
    await insideOneMinute();
    const { key } = await mintKey(app, { scopes: ['fund:read'], fund, plan: 'free' });
    const fundPost = (body: unknown) => post('/api/mcp', body, { key });
    for (const body of [rpc(1, 'tools/list'), rpc(2, 'resources/list'), rpc(3, 'prompts/list')])
      expect((await fundPost(body)).status).toBe(200);
    const refused = await fundPost(rpc(4, 'prompts/get', { name: 'summarise_exposure_and_var' }));
    expect(refused.status).toBe(429);
    expectRefusal(refused, 4);
    // a tool call is counted once by its route (fund-minute too): a second count would refuse the second call
    const reader = await mintKey(app, { scopes: ['fund:read'], fund, plan: 'free' });
    const texts: string[] = [];
    for (const id of [5, 6, 7, 8]) {
      const res = await post('/api/mcp', rpc(id, 'tools/call', { name: 'get_fund_fee_terms', arguments: {} }), {
        key: reader.key,
      });
      texts.push(res.json.result.isError ? res.json.result.content[0].text.split(':')[0] : 'ok');
    }
    expect(texts.slice(0, 3)).not.toContain('rate_limited');
    expect(texts[3]).toBe('rate_limited');
    // the handshake and lists spend mcp-minute only: the first key's REST reads are untouched
    expect((await call(app, 'GET', '/api/v1/fund/fee-terms', { key })).status).toBe(200);
  });

  it('a resources/read refused by its rate limit is the same JSON-RPC refusal (data.code, retryAfter), not -32600', async () => {
    await insideOneMinute();
    const { key } = await mintKey(app, { scopes: ['fund:read'], fund, plan: 'free' });
    const read = (id: number) =>
      post('/api/mcp', rpc(id, 'resources/read', { uri: 'fundgate://fund/fee-terms' }), { key });
    for (const id of [1, 2, 3]) expect((await read(id)).json.result.contents).toHaveLength(1);
    const refused = await read(4);
    expect(refused.status).toBe(429);
    expectRefusal(refused, 4, 'fund-minute'); // a resource read counts against its route's policy
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  });
});
