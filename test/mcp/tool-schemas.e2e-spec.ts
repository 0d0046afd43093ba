import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { McpCatalog } from '../../src/mcp/mcp.catalog';
import { SCOPES } from '../../src/common/auth/scopes';
import { bootApp, type TestApp } from '../utils/app';

/** Hosts that validate tool schemas compile them as JSON Schema 2020-12: every tool's schemas must compile. */
describe('MCP tool schemas are valid JSON Schema 2020-12', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('compiles every input and output schema of both servers with ajv in 2020 mode (strict)', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    const catalog = app.get(McpCatalog);
    const tools = [...catalog.toolsFor('public', SCOPES), ...catalog.toolsFor('fund', SCOPES)];
    expect(tools.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const tool of tools) {
      for (const [kind, schema] of [
        ['input', tool.inputSchema],
        ['output', tool.outputSchema],
      ] as const) {
        try {
          ajv.compile(schema);
        } catch (err) {
          failures.push(`${tool.name} ${kind}: ${(err as Error).message}`);
        }
        expect(JSON.stringify(schema)).not.toMatch(/"exclusiveM(in|ax)imum":(true|false)|"nullable"/);
      }
      // strictRequired is off above: an input schema's required names must still be among its properties
      const declared = Object.keys(tool.inputSchema.properties ?? {});
      const undeclared = ((tool.inputSchema.required ?? []) as string[]).filter((name) => !declared.includes(name));
      expect({ tool: tool.name, undeclared }).toEqual({ tool: tool.name, undeclared: [] });
    }
    expect(failures).toEqual([]);
  });

  it('a tool argument that fills a path parameter is a required UUID string (withdraw_proposal: proposalId)', () => {
    const tools = [...app.get(McpCatalog).toolsFor('fund', SCOPES)].filter((t) => t.pathArguments.length > 0);
    expect(tools.map((t) => [t.name, t.path, t.pathArguments])).toEqual([
      ['withdraw_proposal', '/api/v1/fund/proposals/{id}/withdraw', ['proposalId']],
    ]);
    for (const t of tools) {
      for (const name of t.pathArguments) {
        expect((t.inputSchema.properties as Record<string, unknown>)[name]).toMatchObject({
          type: 'string',
          format: 'uuid',
        });
        expect(t.inputSchema.required).toContain(name);
      }
    }
  });
});
