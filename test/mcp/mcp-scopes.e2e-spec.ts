import { ProblemError } from '../../src/common/errors/problem';
import { OverviewService } from '../../src/fund-data/overview/overview.service';
import { bootApp, call, createFund, mintKey, type TestApp } from '../utils/app';

const ACCEPT = { accept: 'application/json, text/event-stream' };
const rpc = (method: string, params?: object) => ({ jsonrpc: '2.0', id: 7, method, params });
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

/**
 * The fund server offers resources and prompts as it offers tools: only to callers whose scopes reach
 * them (the resources are read through fund:read tools, the prompts cite them); and a refused call of
 * a well-formed request is -32602 / -32603 with the problem in `data`, never -32600 (malformed request).
 */
describe('fund MCP server: resources and prompts by scope, JSON-RPC error codes (e2e)', () => {
  let app: TestApp;
  let proposer: string;
  let reader: string;

  beforeAll(async () => {
    app = await bootApp();
    const fund = (await createFund(app)).slug;
    proposer = (await mintKey(app, { scopes: ['fund:propose'], fund })).key;
    reader = (await mintKey(app, { scopes: ['fund:read'], fund })).key;
  });
  afterAll(() => app.close());

  const ask = async (key: string, method: string, params?: object) =>
    (await call(app, 'POST', '/api/mcp', { key, body: rpc(method, params), headers: ACCEPT })).json;

  it('a fund:propose-only key is offered no resources nor prompts (capabilities, lists), and reading one is "not found"', async () => {
    expect((await ask(proposer, 'initialize', INIT)).result.capabilities).toEqual({ tools: { listChanged: false } });
    expect((await ask(proposer, 'resources/list')).result).toEqual({ resources: [] });
    expect((await ask(proposer, 'prompts/list')).result).toEqual({ prompts: [] });
    expect((await ask(proposer, 'resources/read', { uri: 'fundgate://fund/overview' })).error).toEqual({
      code: -32002,
      message: 'resource not found: fundgate://fund/overview',
    });
    expect((await ask(proposer, 'prompts/get', { name: 'summarise_exposure_and_var' })).error).toEqual({
      code: -32602,
      message: 'unknown prompt: summarise_exposure_and_var',
    });
    // a fund:read key is offered all of them
    const capabilities = (await ask(reader, 'initialize', INIT)).result.capabilities;
    expect(Object.keys(capabilities).sort()).toEqual(['prompts', 'resources', 'tools']);
    expect((await ask(reader, 'resources/list')).result.resources).toHaveLength(3);
    expect((await ask(reader, 'prompts/list')).result.prompts).toHaveLength(3);
  });

  it('a resource read refused by its route is -32602 (4xx) or -32603 (5xx) with the problem in data, not -32600', async () => {
    const overview = app.get(OverviewService);
    const spy = jest.spyOn(overview, 'feeTerms');
    try {
      spy.mockRejectedValueOnce(new ProblemError('not_found', 'no fee terms for this fund'));
      expect((await ask(reader, 'resources/read', { uri: 'fundgate://fund/fee-terms' })).error).toEqual({
        code: -32602,
        message: 'not_found: no fee terms for this fund',
        data: { code: 'not_found', status: 404, detail: 'no fee terms for this fund' },
      });
      spy.mockRejectedValueOnce(new Error('connection reset'));
      const internal = (await ask(reader, 'resources/read', { uri: 'fundgate://fund/fee-terms' })).error;
      expect(internal).toEqual({
        code: -32603,
        message: expect.stringMatching(/^internal: quote request id \S+$/),
        data: { code: 'internal', status: 500, detail: expect.stringMatching(/^quote request id /) },
      });
      expect(JSON.stringify(internal)).not.toContain('connection reset');
    } finally {
      spy.mockRestore();
    }
  });
});
