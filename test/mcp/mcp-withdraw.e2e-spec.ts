import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { type AddressInfo } from 'node:net';
import { seedBooks, stageEntry } from '../proposals/books-fixture';
import { bootApp, call, createFund, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';

const ACCEPT = { accept: 'application/json, text/event-stream' };
const ENTRY = {
  entryDate: '2025-04-15',
  lines: [
    { accountCode: '5500', debit: '12.00' },
    { accountCode: '5600', credit: '12.00' },
  ],
};

interface ToolAnswer {
  isError: boolean;
  text: string;
  record: Record<string, unknown> | undefined;
}

/**
 * withdraw_proposal: an agent takes back its own pending proposal through the fund MCP server, by the
 * REST route's handler (POST /api/v1/fund/proposals/{id}/withdraw), its scope and its rate-limit policy.
 */
describe('fund MCP server: withdraw_proposal (e2e, official SDK client)', () => {
  let app: TestApp;
  let base: string;
  let agent: TestKey;
  let colleague: TestKey;
  let reviewer: TestKey;
  let reader: TestKey;
  let client: Client;

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/mcp`;
    const mint = (scopes: Parameters<typeof mintKey>[1]['scopes']) =>
      mintKey(app, { scopes, fund: fund.slug, plan: 'platform' });
    agent = await mint(['fund:propose']);
    colleague = await mint(['fund:propose']);
    reviewer = await mint(['fund:read', 'fund:propose', 'proposals:review']);
    reader = await mint(['fund:read']);
    client = await connect(agent.key);
  });
  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: 'fundgate-withdraw-test', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(base), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return c;
  }

  const tool = async (name: string, args: Record<string, unknown>, via = client): Promise<ToolAnswer> => {
    const result = await via.callTool({ name, arguments: args }); // the SDK checks structuredContent against outputSchema
    const content = result.content as { text: string }[];
    return {
      isError: result.isError === true,
      text: result.isError === true ? content[0].text : '',
      record: result.structuredContent as Record<string, unknown> | undefined,
    };
  };
  const proposeByAgent = async (): Promise<string> => {
    const staged = await tool('propose_journal_entry', { ...ENTRY, description: uniqueName('mcp-staged') });
    expect(staged).toMatchObject({ isError: false, record: { status: 'pending', kind: 'journal-entry' } });
    return staged.record!.id as string;
  };
  const rest = (id: string, key = reviewer.key) => call(app, 'GET', `/api/v1/fund/proposals/${id}`, { key });

  it('is offered to a fund:propose key, described, and typed: proposalId (a UUID) required, no idempotencyKey', async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual([
      'propose_capital_activity',
      'propose_expense',
      'propose_journal_entry',
      'propose_lp_report',
      'withdraw_proposal',
    ]);
    const withdraw = listed.find((t) => t.name === 'withdraw_proposal')!;
    expect(withdraw.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(withdraw.inputSchema).toMatchObject({
      type: 'object',
      required: ['proposalId'],
      additionalProperties: false,
      properties: { proposalId: { type: 'string', format: 'uuid' }, note: { type: 'string', maxLength: 2000 } },
    });
    expect(Object.keys(withdraw.inputSchema.properties ?? {})).toEqual(['proposalId', 'note']);
    expect(withdraw.description).toMatch(/^Withdraw your own pending proposal: it will not be approved or rejected\. /);
    expect(withdraw.description).toContain("Only the proposal's maker may withdraw it");
    expect(withdraw.description).toContain('Answers the proposal record, now with status withdrawn');
    expect(withdraw.description).toContain('Needs an API key or OAuth access token holding fund:propose.');
  });

  it('the agent proposes through propose_journal_entry, withdraws it, and REST sees it withdrawn; a second call answers it unchanged', async () => {
    const id = await proposeByAgent();
    const first = await tool('withdraw_proposal', { proposalId: id, note: 'proposed by mistake' });
    expect(first).toMatchObject({
      isError: false,
      record: {
        id,
        status: 'withdrawn',
        withdrawalNote: 'proposed by mistake',
        withdrawnBy: { accountId: agent.accountId, keyId: agent.id },
        decidedAt: null,
      },
    });
    const seen = await rest(id);
    expect(seen.json).toEqual(first.record);
    const again = await tool('withdraw_proposal', { proposalId: id });
    expect(again).toEqual({ isError: false, text: '', record: first.record });
  });

  it("someone else's proposal (and one that does not exist) is the not_found tool error; it stays pending", async () => {
    const theirs = await stageEntry(app, colleague.key, uniqueName('colleague'));
    expect(await tool('withdraw_proposal', { proposalId: theirs })).toEqual({
      isError: true,
      text: `not_found: proposal ${theirs} was not found`,
      record: undefined,
    });
    expect((await rest(theirs)).json.status).toBe('pending');
    const none = randomUUID();
    expect((await tool('withdraw_proposal', { proposalId: none })).text).toBe(
      `not_found: proposal ${none} was not found`,
    );
  });

  it('an approved proposal is the invalid_state tool error (the REST 409), naming its status', async () => {
    const id = await proposeByAgent();
    const approved = await call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, {
      key: reviewer.key,
      body: { note: 'ok' },
    });
    expect(approved.status).toBe(200);
    const refused = await tool('withdraw_proposal', { proposalId: id });
    expect(refused).toEqual({
      isError: true,
      text: `invalid_state: proposal ${id} is approved: only a pending proposal can be withdrawn`,
      record: undefined,
    });
    const viaRest = await call(app, 'POST', `/api/v1/fund/proposals/${id}/withdraw`, { key: agent.key });
    expect([viaRest.status, viaRest.json.detail]).toEqual([409, refused.text.replace(/^invalid_state: /, '')]);
    expect((await rest(id)).json.status).toBe('approved');
  });

  it('bad arguments are tool errors naming the field', async () => {
    const id = await proposeByAgent();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'missing_parameter: proposalId: is required'],
      [{ proposalId: 'not-a-uuid' }, 'invalid_parameter: proposalId: must be a UUID'],
      [{ proposalId: 42 }, 'invalid_parameter: proposalId: must be a UUID'],
      [{ proposalId: id, idempotencyKey: 'k-1' }, 'invalid_parameter: idempotencyKey: is not a known field'],
      [
        { proposalId: id, note: 'x'.repeat(2001) },
        'invalid_parameter: note: must be shorter than or equal to 2000 characters',
      ],
    ];
    for (const [args, text] of cases)
      expect({ args, ...(await tool('withdraw_proposal', args)) }).toMatchObject({ args, isError: true, text });
    const unknown = await tool('withdraw_proposal', { proposalId: id, reason: 'x' });
    expect(unknown).toMatchObject({ isError: true, text: expect.stringMatching(/^invalid_parameter: reason: /) });
    expect((await rest(id)).json.status).toBe('pending'); // nothing was withdrawn
  });

  it('counts against propose-minute, the window of the REST route: REST and tool calls draw on one budget', async () => {
    const remaining = (headers: Record<string, unknown>) => Number(/;r=(\d+)/.exec(String(headers['ratelimit']))![1]);
    const into = Date.now() % 60_000;
    if (into > 50_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200)); // one clock-minute window
    const [a, b] = [await proposeByAgent(), await proposeByAgent()];
    const viaRest = await call(app, 'POST', `/api/v1/fund/proposals/${a}/withdraw`, { key: agent.key });
    expect(viaRest.status).toBe(200);
    const viaTool = await call(app, 'POST', '/api/mcp', {
      key: agent.key,
      headers: ACCEPT,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'withdraw_proposal', arguments: { proposalId: b } },
      },
    });
    expect(viaTool.json.result.structuredContent).toMatchObject({ id: b, status: 'withdrawn' });
    expect(viaTool.headers['ratelimit-policy']).toBe(viaRest.headers['ratelimit-policy']);
    expect(String(viaTool.headers['ratelimit-policy'])).toMatch(/^"propose-minute";/);
    expect(remaining(viaTool.headers)).toBe(remaining(viaRest.headers) - 1);
  });

  it('a fund:read key is not offered withdraw_proposal, and calling it is refused as an unknown tool', async () => {
    const id = await proposeByAgent();
    const readOnly = await connect(reader.key);
    try {
      expect((await readOnly.listTools()).tools.map((t) => t.name)).not.toContain('withdraw_proposal');
      await expect(readOnly.callTool({ name: 'withdraw_proposal', arguments: { proposalId: id } })).rejects.toThrow(
        /unknown tool: "?withdraw_proposal/,
      );
    } finally {
      await readOnly.close();
    }
    expect((await rest(id)).json.status).toBe('pending');
  });
});
