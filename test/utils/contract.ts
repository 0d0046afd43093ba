import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OutgoingHttpHeaders } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DocNode } from '../../src/common/openapi/document-node';

/**
 * The e2e suite's response validator: every answer `call()` receives is checked against the
 * service's own OpenAPI document (status documented for the operation, governed headers declared,
 * body valid against the response schema with ajv in JSON Schema 2020-12 mode). Paths the document
 * does not describe (web pages, unknown routes) and undocumented methods are not checked here.
 */
interface Operation {
  op: DocNode;
  template: string;
}
interface Contract {
  match(method: string, path: string): Operation | undefined;
  validator(key: string, schema: DocNode): ValidateFunction;
}

/** Response headers the contract governs: present on an answer means declared for that status. */
const GOVERNED = [
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'www-authenticate',
  'idempotent-replayed',
  'location',
  'etag',
  'cache-control',
  'allow',
  'set-cookie',
  'x-request-id',
];

const contracts = new WeakMap<object, Contract>();

function build(doc: DocNode): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of ['decimal', 'password', 'int32', 'int64', 'double', 'float']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: 'https://fundgate.test/openapi.json', components: doc.components });
  const routes: Array<{ re: RegExp; template: string; item: DocNode }> = Object.entries<DocNode>(doc.paths).map(
    ([template, item]) => ({
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`),
      template,
      item,
    }),
  );
  const cache = new Map<string, ValidateFunction>();
  return {
    match(method, path) {
      const hit = routes.find((r) => r.re.test(path));
      const op = hit?.item[method.toLowerCase()];
      return hit && op ? { op, template: hit.template } : undefined;
    },
    validator(key, schema) {
      let v = cache.get(key);
      if (!v) {
        v = ajv.compile(
          JSON.parse(
            JSON.stringify(schema).replace(/"#\/components\//g, '"https://fundgate.test/openapi.json#/components/'),
          ),
        );
        cache.set(key, v);
      }
      return v;
    },
  };
}

export async function contractOf(app: NestFastifyApplication): Promise<Contract> {
  let c = contracts.get(app);
  if (!c) {
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/openapi.json' });
    c = build(JSON.parse(res.body) as DocNode);
    contracts.set(app, c);
  }
  return c;
}

export interface Received {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

/** The problems of one answer against the document (empty: it conforms). */
export function contractProblems(contract: Contract, method: string, url: string, res: Received): string[] {
  const path = url.split('?')[0];
  const found = contract.match(method, path);
  if (!found) return [];
  const where = `${method} ${found.template} → ${res.status}`;
  const response = found.op.responses[String(res.status)] ?? found.op.responses.default;
  if (!response) return [`${where}: status not documented (documented: ${Object.keys(found.op.responses).join(', ')})`];
  const problems: string[] = [];
  const declared = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
  for (const h of GOVERNED)
    if (res.headers[h] !== undefined && !declared.has(h)) problems.push(`${where}: header ${h} not documented`);
  const mediaType = [res.headers['content-type'] ?? ''].flat().join(', ').split(';')[0].trim();
  if (!response.content) {
    if (res.body.length > 0) problems.push(`${where}: a body is sent but none is documented`);
    return problems;
  }
  const media = response.content[mediaType];
  if (!media)
    return [
      ...problems,
      `${where}: content type "${mediaType}" not documented (${Object.keys(response.content).join(', ')})`,
    ];
  if (!media.schema || !/json/.test(mediaType)) return problems;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [...problems, `${where}: body is not JSON`];
  }
  const validate = contract.validator(`${where} ${mediaType}`, media.schema);
  if (!validate(body))
    problems.push(`${where}: body does not match the schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  return problems;
}
