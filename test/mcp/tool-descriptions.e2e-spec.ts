import { consoleCall, person } from '../identity/console';
import { bootApp, call, createFund, mintKey, type TestApp } from '../utils/app';

interface ListedTool {
  name: string;
  title: string;
  description: string;
}
interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  'x-required-scopes'?: string[];
}
type Paths = Record<string, Record<string, Operation>>;

const sentencesOf = (text: string): string[] => text.split(/(?<=[.!?])\s+/);
const repeated = (items: string[]): string[] => items.filter((s, i) => items.indexOf(s) !== i);

/**
 * What a tool's description says once, and that a fund tool's auth sentence is what /api/mcp accepts:
 * an API key or an OAuth access token (test/oauth/mcp-oauth.e2e-spec.ts), never a console session.
 */
describe('MCP tool descriptions', () => {
  const ctx = {} as { app: TestApp; fund: string; key: string; paths: Paths };
  beforeAll(async () => {
    const app = await bootApp();
    const fund = (await createFund(app)).slug;
    const key = (await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund })).key;
    Object.assign(ctx, { app, fund, key, paths: (await call(app, 'GET', '/api/openapi.json')).json.paths });
  });
  afterAll(() => ctx.app.close());

  const toolsOf = async (path: string, headers: Record<string, string> = {}) =>
    (
      await call(ctx.app, 'POST', path, {
        headers: { accept: 'application/json, text/event-stream', ...headers },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      })
    ).json.result.tools as ListedTool[];

  it('fund tools: each sentence once, the summary first, and the auth sentence of the MCP server', async () => {
    const tools = await toolsOf('/api/mcp', { authorization: `Bearer ${ctx.key}` });
    expect(tools.length).toBe(30); // 25 reads, 4 propose tools, withdraw_proposal
    const operations = Object.values(ctx.paths).flatMap((item) => Object.values(item));
    for (const tool of tools) {
      const sentences = sentencesOf(tool.description);
      const op = operations.find((o) => o.summary && tool.description.startsWith(`${o.summary}. `));
      const scopes = op?.['x-required-scopes']?.join(', ');
      expect({
        tool: tool.name,
        fromOperation: op !== undefined,
        repeated: repeated(sentences),
        auth: sentences.filter((s) => /^Needs\b/.test(s)),
        session: /console session/.test(tool.description),
      }).toEqual({
        tool: tool.name,
        fromOperation: true,
        repeated: [],
        auth: [`Needs an API key or OAuth access token holding ${scopes}.`],
        session: false,
      });
    }
  });

  it('calculator tools: the summary once, then the disclaimer once', async () => {
    const tools = await toolsOf('/api/mcp/public');
    expect(tools).toHaveLength(7);
    for (const tool of tools) {
      const sentences = sentencesOf(tool.description);
      expect({
        tool: tool.name,
        first: sentences[0],
        repeated: repeated(sentences),
        disclaimers: tool.description.match(/not accounting or tax advice/g)?.length,
      }).toEqual({ tool: tool.name, first: `${tool.title}.`, repeated: [], disclaimers: 1 });
    }
  });

  it('a console session is refused by /api/mcp and the fund reads, and the REST descriptions say who is accepted', async () => {
    const { app, fund, paths } = ctx;
    const { session } = await person(app, fund, 'admin');
    const listed = await call(app, 'POST', '/api/mcp', {
      headers: { accept: 'application/json', cookie: session.cookie, 'x-fundgate-fund': fund },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(listed.status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/fund/overview', session, { fund })).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/me', session, { fund })).status).toBe(200);

    const wrong: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        const takesSession = (op.security ?? []).some((s) => 'consoleSession' in s);
        // the generated sentence, or an operation's own ("a console session is refused" is no offer)
        const saysSession = /(key or a|, or a|Needs a) console session/.test(op.description ?? '');
        if (takesSession !== saysSession) wrong.push(`${method.toUpperCase()} ${path}: ${op.description}`);
        if (/\.\.(\s|$)/.test(op.description ?? ''))
          wrong.push(`${method.toUpperCase()} ${path}: "..": ${op.description}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(paths['/api/v1/fund/overview'].get.description).toMatch(/Needs an API key holding fund:read\./);
    expect(paths['/api/v1/me'].get.description).toMatch(/Needs an API key or a console session \(any scope\)\./);
    expect(paths['/api/mcp'].post.description).toMatch(
      /^Needs an API key bound to a fund, or an OAuth access token .*; a console session is refused\./,
    );
  });
});
