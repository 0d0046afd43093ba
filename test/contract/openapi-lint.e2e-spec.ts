import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bootApp, type TestApp } from '../utils/app';
import { contractOf, contractProblems } from '../utils/contract';
import type { DocNode } from '../../src/common/openapi/document-node';

/** One finding of `redocly lint --format json` and of `spectral lint -f json`, as far as the messages below read them. */
interface RedoclyProblem {
  severity: string;
  ruleId: string;
  message: string;
  location?: { pointer: string }[];
}
interface SpectralResult {
  code: string;
  message: string;
  path: string[];
}

const run = promisify(execFile);
const bin = (name: string) => join(__dirname, '../../node_modules/.bin', name);

/** The published document passes both third-party linters with no error and no warning. */
describe('OpenAPI document: Redocly (recommended) and Spectral (spectral:oas) at 0 errors, 0 warnings', () => {
  let app: TestApp;
  let dir: string;
  let doc: DocNode;
  beforeAll(async () => {
    app = await bootApp();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/openapi.json' });
    doc = JSON.parse(res.body);
    dir = mkdtempSync(join(tmpdir(), 'fundgate-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), res.body);
    writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });
  afterAll(() => app.close());

  it('Redocly lint --extends recommended: no problems', async () => {
    const out = await run(
      bin('redocly'),
      ['lint', '--extends', 'recommended', '--format', 'json', join(dir, 'openapi.json')],
      { cwd: dir, maxBuffer: 1 << 24 },
    ).catch((e) => e as { stdout: string });
    const report = JSON.parse(out.stdout) as { problems: RedoclyProblem[]; totals: unknown };
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`)).toEqual(
      [],
    );
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('Spectral lint with spectral:oas: no problems', async () => {
    const out = await run(
      bin('spectral'),
      ['lint', '-r', join(dir, '.spectral.yaml'), '-f', 'json', '--fail-severity', 'hint', join(dir, 'openapi.json')],
      { cwd: dir, maxBuffer: 1 << 24 },
    ).catch((e) => e as { stdout: string });
    const json = out.stdout.slice(out.stdout.indexOf('['), out.stdout.lastIndexOf(']') + 1); // a human line follows the JSON
    const results = JSON.parse(json) as SpectralResult[];
    expect(results.map((r) => `${r.code}: ${r.message} @ ${r.path.join('.')}`)).toEqual([]);
  }, 120_000);

  it('is OpenAPI 3.1 with a servers entry, an opaque bearer scheme and a shared ProblemDetails', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toHaveLength(1);
    expect(doc.components.securitySchemes.bearer.bearerFormat).not.toMatch(/JWT/);
    expect(doc.components.securitySchemes.bearer.description).toMatch(/svc_dk_/);
    expect(doc.components.schemas.ProblemDetails.required).toContain('code');
  });

  it('every operation documents its errors as problem+json, 4xx included, and 204 carries no body', () => {
    for (const [path, item] of Object.entries<DocNode>(doc.paths)) {
      for (const [method, op] of Object.entries<DocNode>(item)) {
        const codes = Object.keys(op.responses);
        expect([`${method} ${path}`, codes.some((c) => /^4/.test(c))]).toEqual([`${method} ${path}`, true]);
        for (const c of codes.filter((x) => /^[45]/.test(x))) {
          const content = op.responses[c].content;
          // the MCP servers answer a parse error (400) and a request refused by its rate limit (429) in JSON-RPC
          const isMcpJsonRpc = /^\/api\/mcp/.test(path) && (c === '400' || c === '429');
          if (!isMcpJsonRpc)
            expect(content['application/problem+json'].schema.$ref).toBe('#/components/schemas/ProblemDetails');
        }
        if (op.responses['204']) expect(op.responses['204'].content).toBeUndefined();
      }
    }
  });

  it('the interface points of the issue: nullable decidedBy, CreateKeyDto.fund a string, limit an integer', () => {
    const s = doc.components.schemas;
    expect(s.ProposalDto.properties.decidedBy.anyOf).toEqual([
      { $ref: '#/components/schemas/ActorDto' },
      { type: 'null' },
    ]);
    expect(s.CreateKeyDto.properties.fund.type).toEqual(['string', 'null']);
    for (const item of Object.values<DocNode>(doc.paths)) {
      for (const op of Object.values<DocNode>(item)) {
        for (const p of op.parameters ?? []) if (p.name === 'limit') expect(p.schema.type).toBe('integer');
      }
    }
  });

  it('the response validator refuses an undocumented status, header or body shape', async () => {
    const c = await contractOf(app);
    const okHeaders = { 'content-type': 'application/json', 'x-request-id': 'r' };
    const me = { keyId: null, name: null };
    expect(contractProblems(c, 'GET', '/api/v1/me', { status: 418, headers: okHeaders, body: '{}' })[0]).toMatch(
      /status not documented/,
    );
    expect(
      contractProblems(c, 'GET', '/health', {
        status: 200,
        headers: { ...okHeaders, etag: '"x"' },
        body: '{"status":"ok"}',
      })[0],
    ).toMatch(/header etag not documented/);
    expect(
      contractProblems(c, 'GET', '/health', { status: 200, headers: okHeaders, body: '{"status":"down"}' })[0],
    ).toMatch(/does not match the schema/);
    expect(
      contractProblems(c, 'GET', '/api/v1/me', { status: 200, headers: okHeaders, body: JSON.stringify(me) })[0],
    ).toMatch(/does not match the schema/);
    expect(contractProblems(c, 'GET', '/health', { status: 200, headers: okHeaders, body: '{"status":"ok"}' })).toEqual(
      [],
    );
  });
});
