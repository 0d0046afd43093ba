/**
 * Generates the two official SDKs (TypeScript and Python) from the service's own OpenAPI document,
 * which is built from the same DTOs that validate and redact. The generated files are committed;
 * test/sdk checks that they are up to date, so they cannot drift from the DTOs.
 *
 *   npm run sdk:generate                      # boots the app in-process (needs PostgreSQL + Redis)
 *   npm run sdk:generate -- --spec doc.json   # from a saved OpenAPI document, no app needed
 *   npm run sdk:generate -- --out /tmp/x      # writes <out>/sdk/... instead of the repository
 *
 * Surface: every GET /api/v1/fund/* operation, the POST /api/v1/fund/proposals/* propose
 * endpoints and the maker's POST /api/v1/fund/proposals/{id}/withdraw, GET /api/v1/me and
 * GET /api/v1/usage. Never calculators, never admin routes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { withNullableForms } from './sdk-schema-forms';

export const SDK_VERSION = '0.1.0';

/* ------------------------------------------------------------------------------------------ */
/* OpenAPI model (only what the generator reads)                                               */
/* ------------------------------------------------------------------------------------------ */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: Array<string | number>;
  nullable?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  'x-required-scopes'?: string[];
  'x-rate-limit-policy'?: string;
}

export interface OpenApiDoc {
  openapi?: string;
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface SdkParam {
  name: string; // wire name
  required: boolean;
  schema: Schema;
  description?: string;
}

export interface SdkOperation {
  /** camelCase TypeScript method name; the Python name is its snake_case form. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  summary?: string;
  scopes: string[];
  pathParams: SdkParam[];
  queryParams: SdkParam[];
  bodySchema?: Schema;
  /** Whether the caller must give a body (the document requires one; see emptyBodyDefault). */
  bodyRequired: boolean;
  /**
   * An action on one item (a POST with a path parameter: the withdrawal) whose required body requires
   * no member (its optional note): the method's body is optional and an omitted one is sent as `{}`.
   * A propose body stays required even when its schema names no required member (an LP report's draft
   * id or period: the route requires one of them).
   */
  emptyBodyDefault: boolean;
  responseSchema?: Schema;
  /** Operations that declare the Idempotency-Key header (the propose endpoints) send one, generated when the caller gives none. */
  idempotencyKey: boolean;
  /** Repeating the call cannot do anything twice (reads, and RETRY_SAFE): the SDK retries it as it retries reads. */
  idempotent: boolean;
  /**
   * Cursor-paginated lists (a `cursor` parameter; an `items` or `lines` array; `nextCursor` and
   * `hasMore` on the answer or, where the interface fixes two members, under `page`).
   */
  pagination?: {
    iteratorName: string;
    itemSchema: Schema;
    itemsMember: 'items' | 'lines';
    pagingMember: 'page' | null;
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Selecting and naming the surface                                                            */
/* ------------------------------------------------------------------------------------------ */

/** Names chosen by hand; any operation the table does not know gets a derived name. */
const NAMES: Record<string, string> = {
  'GET /api/v1/me': 'getMe',
  'GET /api/v1/usage': 'getUsage',
  'GET /api/v1/fund/overview': 'getOverview',
  'GET /api/v1/fund/fee-terms': 'getFeeTerms',
  'GET /api/v1/fund/positions': 'getPositions',
  'GET /api/v1/fund/breakdown': 'getBreakdown',
  'GET /api/v1/fund/exposure': 'getExposure',
  'GET /api/v1/fund/exposure/series': 'getExposureSeries',
  'GET /api/v1/fund/risk/var': 'getValueAtRisk',
  'GET /api/v1/fund/risk/stress-presets': 'getStressPresets',
  'GET /api/v1/fund/risk/stress-test': 'getStressTest',
  'GET /api/v1/fund/performance': 'getPerformance',
  'GET /api/v1/fund/pnl/attribution': 'getPnlAttribution',
  'GET /api/v1/fund/pnl/attribution-dates': 'getAttributionDates',
  'GET /api/v1/fund/trial-balance': 'getTrialBalance',
  'GET /api/v1/fund/ledger/journal-entries': 'getJournalEntries',
  'GET /api/v1/fund/ledger/gl-detail': 'getGlDetail',
  'GET /api/v1/fund/ledger/accounts': 'getLedgerAccounts',
  'GET /api/v1/fund/investors': 'getInvestors',
  'GET /api/v1/fund/capital-accounts': 'getCapitalAccounts',
  'GET /api/v1/fund/capital-activity': 'getCapitalActivity',
  'GET /api/v1/fund/expenses': 'getExpenses',
  'GET /api/v1/fund/dealing-calendar': 'getDealingCalendar',
  'GET /api/v1/fund/lp-reports': 'getLpReports',
  'GET /api/v1/fund/trades': 'getTrades',
  'GET /api/v1/fund/nav/history': 'getNavHistory',
  'GET /api/v1/fund/nav/reconciliation': 'getNavReconciliation',
  'GET /api/v1/fund/proposals': 'getProposals',
  'GET /api/v1/fund/proposals/{id}': 'getProposal',
  'POST /api/v1/fund/proposals/journal-entry': 'proposeJournalEntry',
  'POST /api/v1/fund/proposals/expense': 'proposeExpense',
  'POST /api/v1/fund/proposals/capital-activity': 'proposeCapitalActivity',
  'POST /api/v1/fund/proposals/lp-report': 'proposeLpReport',
  'POST /api/v1/fund/proposals/{id}/withdraw': 'withdrawProposal',
};

/**
 * POST operations that are safe to repeat without an Idempotency-Key: the maker withdrawing their
 * withdrawn proposal again is answered the record unchanged (200), so a retry after a lost answer is
 * what the route expects.
 */
const RETRY_SAFE = new Set(['POST /api/v1/fund/proposals/{id}/withdraw']);

export function inSurface(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === 'GET' && (path === '/api/v1/me' || path === '/api/v1/usage')) return true;
  if (m === 'GET' && path.startsWith('/api/v1/fund/')) return true;
  // the propose endpoints, and the maker's action on one of their proposals (POST …/proposals/{id}/withdraw)
  if (m === 'POST' && path.startsWith('/api/v1/fund/proposals/')) return true;
  return false;
}

function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

/**
 * A POST on a collection proposes (`proposals/expense` → proposeExpense); a POST on one item acts on
 * it (`proposals/{id}/withdraw` → withdrawProposal); a GET gets (`…/{id}` → …ById).
 */
function derivedName(method: string, path: string): string {
  const segs = path.replace(/^\/api\/v1\/(fund\/)?/, '').split('/');
  const words = segs.filter((s) => !s.startsWith('{'));
  const byParams = segs.filter((s) => s.startsWith('{')).map((s) => pascal(s.slice(1, -1)));
  const item = segs.findIndex((s) => s.startsWith('{'));
  if (method === 'POST' && item > 0) return words[words.length - 1] + pascal(segs[item - 1].replace(/s$/, ''));
  if (method === 'POST') return 'propose' + pascal(words[words.length - 1]);
  return 'get' + words.map(pascal).join('') + (byParams.length ? 'By' + byParams.join('And') : '');
}

export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

function refName(ref: string): string {
  return ref.replace(/^#\/components\/schemas\//, '');
}

function resolveSchema(doc: OpenApiDoc, s: Schema | undefined): Schema | undefined {
  let cur = s;
  for (let i = 0; cur && i < 10; i++) {
    if (cur.$ref) cur = doc.components?.schemas?.[refName(cur.$ref)];
    else if (cur.allOf && cur.allOf.length === 1 && !cur.properties) cur = cur.allOf[0];
    else return cur;
  }
  return cur;
}

/** Where a listing keeps its items and its paging (`nextCursor` + `hasMore`), if it is one. */
function pagingOf(
  doc: OpenApiDoc,
  responseSchema: Schema | undefined,
): { itemSchema: Schema; itemsMember: 'items' | 'lines'; pagingMember: 'page' | null } | undefined {
  const props = resolveSchema(doc, responseSchema)?.properties;
  const itemsMember = (['items', 'lines'] as const).find((k) => props?.[k]?.type === 'array' && props[k].items);
  if (!props || !itemsMember) return undefined;
  const hasPaging = (p: Record<string, Schema> | undefined) => !!p && 'nextCursor' in p && 'hasMore' in p;
  const pagingMember = hasPaging(props)
    ? null
    : hasPaging(resolveSchema(doc, props.page)?.properties)
      ? 'page'
      : undefined;
  return pagingMember === undefined ? undefined : { itemSchema: props[itemsMember].items!, itemsMember, pagingMember };
}

function jsonSchemaOf(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  if (!content) return undefined;
  return (content['application/json'] ?? Object.values(content)[0])?.schema;
}

export function selectOperations(doc: OpenApiDoc): SdkOperation[] {
  const ops: SdkOperation[] = [];
  const seen = new Map<string, string>();
  for (const path of Object.keys(doc.paths).sort()) {
    for (const method of Object.keys(doc.paths[path]).sort()) {
      if (!inSurface(method, path)) continue;
      const op = doc.paths[path][method];
      const m = method.toUpperCase() as 'GET' | 'POST';
      const key = `${m} ${path}`;
      const name = NAMES[key] ?? derivedName(m, path);
      if (seen.has(name)) throw new Error(`SDK method name ${name} used by both ${seen.get(name)} and ${key}`);
      seen.set(name, key);
      const params = op.parameters ?? [];
      const toParam = (p: Parameter): SdkParam => ({
        name: p.name,
        required: !!p.required || p.in === 'path',
        schema: p.schema ?? { type: 'string' },
        description: p.description,
      });
      const ok = Object.keys(op.responses ?? {})
        .filter((c) => /^2\d\d$/.test(c))
        .sort()[0];
      const responseSchema = ok ? jsonSchemaOf(op.responses![ok].content) : undefined;
      const queryParams = params.filter((p) => p.in === 'query').map(toParam);
      const bodySchema = jsonSchemaOf(op.requestBody?.content);
      const emptyBodyDefault =
        m === 'POST' &&
        params.some((p) => p.in === 'path') &&
        !!op.requestBody?.required &&
        !resolveSchema(doc, bodySchema)?.required?.length;
      const sdkOp: SdkOperation = {
        name,
        method: m,
        path,
        summary: op.summary,
        scopes: op['x-required-scopes'] ?? [],
        pathParams: params.filter((p) => p.in === 'path').map(toParam),
        queryParams,
        bodySchema,
        bodyRequired: !!op.requestBody?.required && !emptyBodyDefault,
        emptyBodyDefault,
        responseSchema,
        idempotencyKey: params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        idempotent: m === 'GET' || RETRY_SAFE.has(key),
      };
      const paging =
        m === 'GET' && queryParams.some((q) => q.name === 'cursor') ? pagingOf(doc, responseSchema) : undefined;
      if (paging) sdkOp.pagination = { iteratorName: name.replace(/^get/, 'list'), ...paging };
      ops.push(sdkOp);
    }
  }
  return ops;
}

/** Component schemas reachable from the surface, in the document's order. */
function reachableSchemas(doc: OpenApiDoc, ops: SdkOperation[]): string[] {
  const all = doc.components?.schemas ?? {};
  const found = new Set<string>();
  const visit = (s: Schema | boolean | undefined): void => {
    if (!s || typeof s === 'boolean') return;
    if (s.$ref) {
      const n = refName(s.$ref);
      if (!found.has(n)) {
        if (!all[n]) throw new Error(`OpenAPI document references a missing schema: ${n}`);
        found.add(n);
        visit(all[n]);
      }
      return;
    }
    visit(s.items);
    visit(s.additionalProperties);
    for (const p of Object.values(s.properties ?? {})) visit(p);
    for (const x of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(x);
  };
  for (const op of ops) {
    visit(op.responseSchema);
    visit(op.bodySchema);
    for (const p of [...op.pathParams, ...op.queryParams]) visit(p.schema);
  }
  return Object.keys(all).filter((n) => found.has(n));
}

/* ------------------------------------------------------------------------------------------ */
/* TypeScript                                                                                  */
/* ------------------------------------------------------------------------------------------ */

function tsDoc(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.replace(/\*\//g, '*\u2215').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

const TS_IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function tsType(s: Schema | undefined): string {
  if (!s) return 'unknown';
  let t: string;
  if (s.$ref) t = refName(s.$ref);
  else if (s.allOf && s.allOf.length === 1) t = tsType(s.allOf[0]);
  else if (s.allOf && s.allOf.length > 1) t = s.allOf.map((x) => tsType(x)).join(' & ');
  else if (s.oneOf || s.anyOf) t = (s.oneOf ?? s.anyOf)!.map((x) => tsType(x)).join(' | ');
  else if (s.enum) t = s.enum.map((v) => JSON.stringify(v)).join(' | ');
  else if (s.format === 'date-time' || s.format === 'date' || s.format === 'decimal' || s.format === 'uuid')
    t = 'string';
  else if (s.type === 'string') t = 'string';
  else if (s.type === 'integer' || s.type === 'number') t = 'number';
  else if (s.type === 'boolean') t = 'boolean';
  else if (s.type === 'array') {
    const inner = tsType(s.items);
    t = /[|&]/.test(inner) ? `Array<${inner}>` : `${inner}[]`;
  } else if (s.properties) {
    const req = new Set(s.required ?? []);
    t = `{ ${Object.entries(s.properties)
      .map(([k, v]) => `${TS_IDENT.test(k) ? k : JSON.stringify(k)}${req.has(k) ? '' : '?'}: ${tsType(v)}`)
      .join('; ')} }`;
  } else if (s.additionalProperties && typeof s.additionalProperties === 'object')
    t = `Record<string, ${tsType(s.additionalProperties)}>`;
  else t = 'Record<string, unknown>';
  if (s.nullable && t !== 'unknown') t = `${t} | null`;
  return t;
}

function tsInterface(name: string, s: Schema): string {
  let out = tsDoc(s.description, '');
  if (!s.properties) return `${out}export type ${name} = ${tsType(s)};\n`;
  const req = new Set(s.required ?? []);
  out += `export interface ${name} {\n`;
  for (const [k, v] of Object.entries(s.properties)) {
    const notes = [
      v.description,
      v.format === 'decimal' && !/decimal/i.test(v.description ?? '') ? 'decimal string' : undefined,
    ]
      .filter(Boolean)
      .join('; ');
    out += tsDoc(notes || undefined, '  ');
    out += `  ${TS_IDENT.test(k) ? k : JSON.stringify(k)}${req.has(k) ? '' : '?'}: ${tsType(v)};\n`;
  }
  return out + '}\n';
}

/** What a POST's doc comment says when repeating it is safe without an Idempotency-Key (RETRY_SAFE). */
function retrySafeNote(op: SdkOperation): string | undefined {
  if (op.method === 'GET' || !op.idempotent) return undefined;
  return 'Safe to repeat (withdrawing your withdrawn proposal again answers it unchanged), so it is retried as reads are; no Idempotency-Key.';
}

function paramsTypeName(op: SdkOperation): string {
  return pascal(op.name) + 'Params';
}

function renderTypeScript(doc: OpenApiDoc, ops: SdkOperation[]): string {
  const schemas = doc.components?.schemas ?? {};
  const names = reachableSchemas(doc, ops);
  const parts: string[] = [];
  parts.push(`// Generated by scripts/generate-sdks.ts from the fundgate OpenAPI document. Do not edit by hand:
// run \`npm run sdk:generate\` in the service repository instead.
/* eslint-disable */

export const SDK_VERSION = ${JSON.stringify(SDK_VERSION)};
export const API_VERSION = ${JSON.stringify(doc.info?.version ?? '')};
`);
  parts.push(TS_RUNTIME);
  parts.push(TS_WEBHOOKS);
  parts.push('/* ---------------------------------------------------------------- schemas */\n');
  for (const n of names) parts.push(tsInterface(n, schemas[n]));
  parts.push('/* ------------------------------------------------------------- parameters */\n');
  for (const op of ops) {
    if (!op.queryParams.length) continue;
    let out = `export interface ${paramsTypeName(op)} {\n`;
    for (const p of op.queryParams) {
      const notes = [
        p.description,
        p.schema.default !== undefined ? `default ${JSON.stringify(p.schema.default)}` : undefined,
      ]
        .filter(Boolean)
        .join('; ');
      out += tsDoc(notes || undefined, '  ');
      out += `  ${TS_IDENT.test(p.name) ? p.name : JSON.stringify(p.name)}${p.required ? '' : '?'}: ${tsType({ ...p.schema, nullable: false })};\n`;
    }
    parts.push(out + '}\n');
  }

  const opsMeta = ops
    .map(
      (o) =>
        `  { name: ${JSON.stringify(o.name)}, method: ${JSON.stringify(o.method)}, path: ${JSON.stringify(o.path)}${o.pagination ? `, iterator: ${JSON.stringify(o.pagination.iteratorName)}` : ''} },`,
    )
    .join('\n');
  parts.push(`/** Every operation this SDK wraps (method name, HTTP method, path template). */
export const OPERATIONS: ReadonlyArray<{ name: string; method: 'GET' | 'POST'; path: string; iterator?: string }> = [
${opsMeta}
];
`);

  let cls = `/** The fundgate client: the read and propose surface of one fund (the one the API key is bound to). */
export class FundgateClient extends FundgateTransport {
`;
  for (const op of ops) {
    const args: string[] = [];
    for (const p of op.pathParams) args.push(`${p.name}: string`);
    const anyRequiredQuery = op.queryParams.some((p) => p.required);
    if (op.queryParams.length) args.push(`params${anyRequiredQuery ? '' : '?'}: ${paramsTypeName(op)}`);
    if (op.bodySchema) args.push(`body${op.bodyRequired ? '' : '?'}: ${tsType(op.bodySchema)}`);
    args.push(`options?: ${op.idempotencyKey ? 'ProposeOptions' : 'RequestOptions'}`);
    const ret = tsType(op.responseSchema);
    const pathExpr = op.pathParams.length
      ? '`' + op.path.replace(/\{([^}]+)\}/g, (_m, n: string) => '${encodeURIComponent(' + n + ')}') + '`'
      : JSON.stringify(op.path);
    const doc = [
      op.summary,
      `\`${op.method} ${op.path}\`${op.scopes.length ? ` (scope ${op.scopes.join(', ')})` : ''}`,
      op.idempotencyKey
        ? 'Sends an Idempotency-Key (a random one when `options.idempotencyKey` is absent), so retries are safe; `lastResponse.replayed` tells whether the answer was a replay.'
        : undefined,
      retrySafeNote(op),
    ]
      .filter(Boolean)
      .join('\n');
    const body = !op.bodySchema ? '' : op.emptyBodyDefault ? ' body: body ?? {},' : ' body,';
    cls += tsDoc(doc, '  ');
    cls += `  ${op.name}(${args.join(', ')}): Promise<${ret}> {\n`;
    cls += `    return this.request<${ret}>(${JSON.stringify(op.method)}, ${pathExpr}, {${op.queryParams.length ? ' query: params,' : ''}${body} idempotent: ${op.idempotent}, idempotencyKey: ${op.idempotencyKey}, options });\n  }\n\n`;
    if (op.pagination) {
      const item = tsType(op.pagination.itemSchema);
      const pArgs = [
        ...op.pathParams.map((p) => `${p.name}: string`),
        `params${anyRequiredQuery ? '' : '?'}: ${paramsTypeName(op)}`,
        'options?: RequestOptions',
      ];
      cls += tsDoc(
        `Every item of \`${op.name}\`, page after page (follows \`nextCursor\` until \`hasMore\` is false).`,
        '  ',
      );
      cls += `  async *${op.pagination.iteratorName}(${pArgs.join(', ')}): AsyncGenerator<${item}, void, undefined> {
    let cursor = params?.cursor;
    for (;;) {
      const page = await this.${op.name}(${[...op.pathParams.map((p) => p.name), '{ ...params, cursor } as ' + paramsTypeName(op), 'options'].join(', ')});
      yield* page.${op.pagination.itemsMember};
      const next = page${op.pagination.pagingMember ? `.${op.pagination.pagingMember}` : ''};
      if (!next.hasMore || !next.nextCursor) return;
      cursor = next.nextCursor;
    }
  }

`;
    }
  }
  cls = cls.replace(/\n\n$/, '\n') + '}\n';
  parts.push(cls);
  return parts.join('\n');
}

const TS_RUNTIME = `/* ---------------------------------------------------------------- runtime */

export interface FundgateClientOptions {
  /**
   * An API key: \`svc_dk_…\`. Surrounding white space (the newline of a key read from a file) is trimmed;
   * a key with any other space, control or non-ASCII character is refused with a TypeError that does not show it.
   */
  apiKey: string;
  /** An absolute http:// or https:// URL without credentials, query or fragment; default http://localhost:3000. */
  baseUrl?: string;
  /** Default: the global fetch (Node >= 18, browsers, Deno, Bun). */
  fetch?: typeof fetch;
  /** Per attempt: each try (connecting, sending, the whole answer) ends at this deadline; default 30 000 ms. 1..2 147 483 647. */
  timeoutMs?: number;
  /** Retries after the first attempt (429, 409 idempotency_in_progress, 5xx and network errors, idempotent calls only); default 2. An integer >= 0. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. Default 60 000 ms; 0..2 147 483 647. */
  maxRetryAfterMs?: number;
  /**
   * Extra headers sent with every request; names are case-insensitive. Authorization, Idempotency-Key,
   * Accept and Content-Type are the SDK's own and are not taken from here (use \`apiKey\` and
   * \`options.idempotencyKey\`); a User-Agent goes before the SDK's own product token.
   */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  /**
   * Aborts the call: the attempt in flight and any wait between retries. The call then rejects with the
   * signal's reason (an \`AbortError\` DOMException unless you gave \`abort()\` one), not a FundgateError,
   * and is not retried.
   */
  signal?: AbortSignal;
  /** This call's per-attempt limit (as the client option). */
  timeoutMs?: number;
}

export interface ProposeOptions extends RequestOptions {
  /**
   * 1..255 visible ASCII characters (anything else is a TypeError before anything is sent); generated when
   * absent or empty so retries are safe. The key sent is on \`lastResponse.idempotencyKey\` and on a thrown
   * FundgateError's \`idempotencyKey\`: pass it again to retry a failed propose without proposing twice.
   */
  idempotencyKey?: string;
}

/**
 * The last HTTP exchange of this client (set before a method returns or throws, also when no answer came:
 * then \`status\` is 0 and \`headers\` empty). A call refused before sending (a TypeError) leaves it unchanged.
 */
export interface ResponseInfo {
  method: string;
  url: string;
  /** 0: no answer (a network error, a timeout or an abort). */
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
  /** \`Idempotent-Replayed: true\`: a propose call answered from the idempotency store. */
  replayed: boolean;
  /** The Idempotency-Key that was sent, if any. */
  idempotencyKey: string | null;
  /** Raw \`RateLimit\` / \`RateLimit-Policy\` headers. */
  rateLimit: string | null;
  rateLimitPolicy: string | null;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

export interface ProblemFieldError {
  field: string;
  message: string;
}

/** An RFC 9457 problem answered by the service (or a transport failure: status 0). */
export class FundgateError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string | null;
  readonly detail: string | null;
  readonly type: string | null;
  readonly instance: string | null;
  readonly errors: ProblemFieldError[];
  readonly requestId: string | null;
  /** Seconds, from \`Retry-After\` (429, 503, 409 idempotency_in_progress); decimals are kept. */
  readonly retryAfter: number | null;
  readonly body: unknown;
  /** The Idempotency-Key the failed propose call sent (null for other calls): pass it again to retry safely. */
  readonly idempotencyKey: string | null;

  constructor(init: { status: number; code: string; title?: string | null; detail?: string | null; type?: string | null; instance?: string | null;
    errors?: ProblemFieldError[]; requestId?: string | null; retryAfter?: number | null; body?: unknown; cause?: unknown; idempotencyKey?: string | null }) {
    super(\`\${init.status ? init.status + ' ' : ''}\${init.code}\${init.detail ? ': ' + init.detail : ''}\`);
    this.name = 'FundgateError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title ?? null;
    this.detail = init.detail ?? null;
    this.type = init.type ?? null;
    this.instance = init.instance ?? null;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body;
    this.idempotencyKey = init.idempotencyKey ?? null;
    if (init.cause !== undefined) (this as { cause?: unknown }).cause = init.cause;
  }

  static fromResponse(status: number, text: string, headers: Record<string, string>, idempotencyKey: string | null = null): FundgateError {
    let body: any = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const p = body && typeof body === 'object' ? body : {};
    const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    return new FundgateError({
      status,
      code: str(p.code) ?? \`http_\${status}\`,
      title: str(p.title),
      detail: str(p.detail) ?? (typeof body === 'string' && body ? body.slice(0, 500) : null),
      type: str(p.type),
      instance: str(p.instance),
      errors: Array.isArray(p.errors) ? p.errors.filter((e: any) => e && typeof e === 'object').map((e: any) => ({ field: String(e.field ?? ''), message: String(e.message ?? '') })) : [],
      requestId: str(p.requestId) ?? headers['x-request-id'] ?? null,
      retryAfter: parseRetryAfter(headers['retry-after']),
      body,
      idempotencyKey,
    });
  }
}

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

function parseRetryAfter(v: string | undefined): number | null {
  if (!v) return null;
  // delta-seconds; decimals too ("1.5"), which Date.parse would read as a date in 2001
  if (/^\\d+(\\.\\d+)?$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function randomKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  let s = '';
  for (let i = 0; i < 32; i++) s += Math.floor(Math.random() * 16).toString(16);
  return \`\${s.slice(0, 8)}-\${s.slice(8, 12)}-4\${s.slice(13, 16)}-\${((parseInt(s[16], 16) & 3) | 8).toString(16)}\${s.slice(17, 20)}-\${s.slice(20)}\`;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/** Waits ms, or rejects as soon as the signal aborts (at once when it already has). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The API key, trimmed; refused (without showing it) when it holds anything but visible ASCII. */
function checkApiKey(value: unknown): string {
  const key = typeof value === 'string' ? value.trim() : '';
  if (!key) throw new TypeError('FundgateClient: apiKey is required');
  const at = key.search(/[^\\x21-\\x7e]/);
  if (at >= 0)
    throw new TypeError(\`FundgateClient: apiKey has a space, control or non-ASCII character at position \${at + 1} (the key is not shown); an API key is visible ASCII only\`);
  return key;
}

function checkBaseUrl(value: unknown): string {
  let url: URL | null = null;
  try {
    url = typeof value === 'string' ? new URL(value.trim()) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new TypeError('FundgateClient: baseUrl must be an absolute http:// or https:// URL, such as https://fund.example.com');
  if (url.username || url.password) throw new TypeError('FundgateClient: baseUrl must not carry a user name or password (the API key is the credential)');
  // a bare "?" or "#" leaves url.search and url.hash empty, yet every path would be appended after it
  if (url.search || url.hash || /[?#]/.test(value as string))
    throw new TypeError('FundgateClient: baseUrl must not have a query or a fragment (not even a bare "?" or "#")');
  return (value as string).trim().replace(/\\/+$/, '');
}

/** A numeric option: a number in [min, max] (an integer where asked); else a TypeError naming it. */
function checkNumber(name: string, value: unknown, min: number, max: number, integer = false): number {
  if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isInteger(value)))
    throw new TypeError(\`FundgateClient: \${name} must be \${integer ? 'an integer' : 'a number'} from \${min} to \${max}, not \${String(value)}\`);
  return value;
}

/** setTimeout's longest delay: a longer one fires at once. */
const MAX_DELAY_MS = 2_147_483_647;

/** The propose call's Idempotency-Key: the caller's (1..255 visible ASCII, as the service requires), or a fresh one when absent or empty. */
function idempotencyKeyOf(given: unknown): string {
  if (given === undefined || given === null || given === '') return randomKey();
  if (typeof given !== 'string') throw new TypeError('FundgateClient: idempotencyKey must be a string');
  if (given.length > 255 || /[^\\x21-\\x7e]/.test(given))
    throw new TypeError(\`FundgateClient: idempotencyKey must be 1..255 visible ASCII characters (no space, control or non-ASCII character); got \${JSON.stringify(given.slice(0, 40))}\${given.length > 40 ? '…' : ''} (\${given.length} characters)\`);
  return given;
}

const HEADER_NAME = /^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$/;
/** Set by the SDK on every request it needs them on: options.headers cannot replace them. */
const SDK_HEADERS = ['accept', 'authorization', 'content-type', 'idempotency-key'];

/** options.headers by lower-case name, without the SDK's own; a User-Agent goes before the SDK's. */
function mergeHeaders(given: Record<string, string> | undefined): { extra: Record<string, string>; userAgent: string } {
  const extra: Record<string, string> = {};
  const sdkAgent = \`fundgate-typescript/\${SDK_VERSION}\`;
  let userAgent = sdkAgent;
  for (const [name, raw] of Object.entries(given ?? {})) {
    const value = String(raw).trim();
    if (!HEADER_NAME.test(name)) throw new TypeError(\`FundgateClient: headers: \${JSON.stringify(name)} is not a header name\`);
    if (/[^\\t\\x20-\\x7e\\x80-\\xff]/.test(value)) throw new TypeError(\`FundgateClient: headers: the value of \${name} has a control or non-Latin-1 character\`);
    const key = name.toLowerCase();
    if (key === 'user-agent') userAgent = value ? \`\${value} \${sdkAgent}\` : sdkAgent;
    else if (!SDK_HEADERS.includes(key)) extra[key] = value;
  }
  return { extra, userAgent };
}

/** A transport failure with the codes and messages of its causes ("fetch failed: connect ECONNREFUSED …"). */
function describeFailure(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 5; depth++) {
    const e = cur as { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown };
    const message = typeof e.message === 'string' ? e.message : typeof cur === 'string' ? cur : '';
    const code = typeof e.code === 'string' ? e.code : '';
    const text = code && !message.includes(code) ? (message ? \`\${message} (\${code})\` : code) : message;
    if (text && !parts.includes(text)) parts.push(text);
    cur = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  }
  return parts.join(': ') || String(err);
}

/** HTTP plumbing shared by every generated method: auth, JSON, errors, timeouts, retries. */
export class FundgateTransport {
  readonly baseUrl: string;
  /** The last HTTP exchange (status, headers, requestId, replayed, idempotencyKey, rate limits); status 0 when no answer came. */
  lastResponse: ResponseInfo | null = null;
  /** Not enumerable: printing or logging the client does not show the key. */
  protected declare readonly apiKey: string;
  protected readonly fetchImpl: typeof fetch;
  protected readonly timeoutMs: number;
  protected readonly maxRetries: number;
  protected readonly maxRetryAfterMs: number;
  protected readonly extraHeaders: Record<string, string>;
  protected readonly userAgent: string;

  constructor(opts: FundgateClientOptions) {
    Object.defineProperty(this, 'apiKey', { value: checkApiKey(opts?.apiKey), enumerable: false });
    this.baseUrl = checkBaseUrl(opts.baseUrl ?? 'http://localhost:3000');
    const f = opts.fetch ?? (globalThis as { fetch?: typeof fetch }).fetch;
    if (!f) throw new TypeError('FundgateClient: no fetch available (Node >= 18 has a global fetch; or pass options.fetch)');
    this.fetchImpl = opts.fetch ? f : f.bind(globalThis);
    this.timeoutMs = checkNumber('timeoutMs', opts.timeoutMs ?? 30_000, 1, MAX_DELAY_MS);
    this.maxRetries = checkNumber('maxRetries', opts.maxRetries ?? 2, 0, 1000, true);
    this.maxRetryAfterMs = checkNumber('maxRetryAfterMs', opts.maxRetryAfterMs ?? 60_000, 0, MAX_DELAY_MS);
    const { extra, userAgent } = mergeHeaders(opts.headers);
    this.extraHeaders = extra;
    this.userAgent = userAgent;
  }

  protected async request<T>(method: 'GET' | 'POST', path: string, req: { query?: object; body?: unknown; idempotent: boolean;
    idempotencyKey: boolean; options?: RequestOptions & { idempotencyKey?: string } }): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries((req.query ?? {}) as QueryValues)) if (v !== undefined && v !== null) qs.set(k, String(v));
    const url = this.baseUrl + path + (qs.toString() ? '?' + qs.toString() : '');
    const headers: Record<string, string> = { ...this.extraHeaders, accept: 'application/json, application/problem+json', authorization: \`Bearer \${this.apiKey}\`, 'user-agent': this.userAgent };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    // an empty key is no key: a fresh one is made (else the call would be retried carrying none); a malformed
    // one is a TypeError now (fetch would refuse the header on every attempt, as a network error)
    const idemKey = req.idempotencyKey ? idempotencyKeyOf(req.options?.idempotencyKey) : null;
    if (idemKey) headers['idempotency-key'] = idemKey;
    // A call may be repeated when repeating it cannot do anything twice: reads, and proposes carrying an Idempotency-Key.
    const retryable = req.idempotent || idemKey !== null;
    const timeoutMs = req.options?.timeoutMs === undefined ? this.timeoutMs : checkNumber('timeoutMs', req.options.timeoutMs, 1, MAX_DELAY_MS);
    const info = (status: number, resHeaders: Record<string, string>, attempts: number): ResponseInfo => ({
      method, url, status, headers: resHeaders,
      requestId: resHeaders['x-request-id'] ?? null,
      replayed: (resHeaders['idempotent-replayed'] ?? '').toLowerCase() === 'true',
      idempotencyKey: idemKey,
      rateLimit: resHeaders['ratelimit'] ?? null,
      rateLimitPolicy: resHeaders['ratelimit-policy'] ?? null,
      attempts,
    });
    const outer = req.options?.signal;

    for (let attempt = 1; ; attempt++) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
      const onAbort = () => controller.abort();
      outer?.addEventListener('abort', onAbort, { once: true });
      let status: number;
      let bytes: Uint8Array;
      let opaqueRedirect = false;
      let resHeaders: Record<string, string> = {};
      try {
        if (outer?.aborted) throw abortReason(outer);
        // redirects are not followed: fetch would carry the call elsewhere (a POST as a GET, without its key)
        const res = await this.fetchImpl(url, { method, headers, body: payload, signal: controller.signal, redirect: 'manual' });
        res.headers.forEach((v, k) => { resHeaders[k.toLowerCase()] = v; });
        status = res.status;
        opaqueRedirect = res.type === 'opaqueredirect'; // browsers hide a manual redirect's status
        bytes = new Uint8Array(await res.arrayBuffer());
      } catch (err) {
        this.lastResponse = info(0, {}, attempt); // no answer: not the previous call's
        if (outer?.aborted) throw err;
        const detail = timedOut ? \`no answer within \${timeoutMs} ms\` : describeFailure(err).split(this.apiKey).join('<apiKey>');
        const e = new FundgateError({ status: 0, code: timedOut ? 'timeout' : 'network_error', detail, cause: err, idempotencyKey: idemKey });
        if (retryable && attempt <= this.maxRetries) {
          await sleep(this.backoffMs(attempt), outer);
          continue;
        }
        throw e;
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
      }
      this.lastResponse = info(status, resHeaders, attempt);
      const requestId = this.lastResponse.requestId;
      if (opaqueRedirect || (status >= 300 && status < 400)) {
        throw new FundgateError({ status, code: 'redirect', requestId, idempotencyKey: idemKey,
          detail: \`answered \${status || 'a redirect'}\${resHeaders['location'] ? ' to ' + resHeaders['location'] : ''}; redirects are not followed (the call and its API key stay with baseUrl): check baseUrl\` });
      }
      if (status >= 200 && status < 300) {
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch (err) {
          throw new FundgateError({ status, code: 'invalid_response', detail: 'the answer is not UTF-8 text', requestId, cause: err, idempotencyKey: idemKey });
        }
        if (!text) return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch (err) {
          throw new FundgateError({ status, code: 'invalid_response', detail: 'the answer is not JSON', body: text, requestId, cause: err, idempotencyKey: idemKey });
        }
      }
      const error = FundgateError.fromResponse(status, new TextDecoder().decode(bytes), resHeaders, idemKey);
      if (retryable && attempt <= this.maxRetries) {
        const delay = this.retryDelayMs(status, error, attempt);
        if (delay !== null) {
          await sleep(delay, outer);
          continue;
        }
      }
      throw error;
    }
  }

  private backoffMs(attempt: number): number {
    const base = Math.min(8_000, 250 * 2 ** (attempt - 1));
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  /** null: do not retry this answer. A Retry-After is waited for (unless longer than maxRetryAfterMs), else backoff. */
  private retryDelayMs(status: number, error: FundgateError, attempt: number): number | null {
    // 429; 409 idempotency_in_progress (the first call with this key is still running: Retry-After says when
    // it should be done); 5xx but 501 (a 503 from Redis away or full calculators says when to come back)
    const waitable = status === 429 || (status === 409 && error.code === 'idempotency_in_progress') || (status >= 500 && status !== 501);
    if (!waitable) return null;
    if (error.retryAfter === null) return this.backoffMs(attempt);
    const ms = error.retryAfter * 1000;
    return ms > this.maxRetryAfterMs ? null : ms;
  }
}
`;

/** verifyWebhook: checks a delivery's Standard Webhooks signature with Web Crypto (no dependency). */
const TS_WEBHOOKS = `/* --------------------------------------------------------------- webhooks */

/** Why verifyWebhook refused a delivery. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_header'
  | 'invalid_secret'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  | 'invalid_body';

/** A delivery that is not provably from fundgate, or not recent: answer it 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}

export interface VerifyWebhookOptions {
  /** How far \`webhook-timestamp\` may be from now, either way, in seconds; default 300 (Standard Webhooks). */
  toleranceSeconds?: number;
  /** The clock \`webhook-timestamp\` is judged by; default the current time. */
  now?: Date;
}

/** Request headers as Node (\`req.headers\`), Express, Fastify or a Fetch \`Request\` (\`request.headers\`) hold them. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

const WEBHOOK_SECRET_PREFIX = 'whsec_';
const WEBHOOK_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One header, by case-insensitive name; repeated signature headers are joined, repeated others must agree. */
function webhookHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name)?.trim() ?? undefined;
  const found: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>))
    if (key.toLowerCase() === name && value !== undefined && value !== null) found.push(...(Array.isArray(value) ? value : [value]).map(String));
  if (!found.length) return undefined;
  if (name === 'webhook-signature') return found.join(' ');
  if (found.some((v) => v !== found[0])) throw new WebhookVerificationError('invalid_header', name + ' is given ' + found.length + ' times with different values');
  return found[0].trim();
}

/** The HMAC key: the base64 after \`whsec_\` (a secret without the prefix is taken as the base64 itself). */
function webhookKey(secret: unknown) {
  const text = typeof secret === 'string' ? secret.trim() : '';
  const b64 = text.startsWith(WEBHOOK_SECRET_PREFIX) ? text.slice(WEBHOOK_SECRET_PREFIX.length) : text;
  if (!b64 || !PADDED_BASE64.test(b64))
    throw new WebhookVerificationError('invalid_secret', 'the secret is not a webhook signing secret ("whsec_" and padded base64, as POST /webhooks and rotate-secret answer it); the value is not shown');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The part of Web Crypto's SubtleCrypto used here (declared here: not every lib has the DOM types). */
interface HmacSubtle {
  importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: boolean, usages: ['sign']): Promise<unknown>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}

/** Web Crypto: the global one (Node >= 19, browsers, Deno, Bun, edge runtimes), else node:crypto's (Node 18). */
async function subtleCrypto(): Promise<HmacSubtle> {
  const global = (globalThis as { crypto?: { subtle?: HmacSubtle } }).crypto;
  if (global?.subtle) return global.subtle;
  const specifier = 'node:crypto'; // a variable: bundlers for browsers leave it alone
  const mod = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as { webcrypto?: { subtle?: HmacSubtle } };
  if (mod.webcrypto?.subtle) return mod.webcrypto.subtle;
  throw new TypeError('verifyWebhook: no Web Crypto (crypto.subtle) in this runtime');
}

/** Compares two strings in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function webhookTimestamp(text: string, options: VerifyWebhookOptions): void {
  if (!/^[0-9]{1,12}$/.test(text)) throw new WebhookVerificationError('invalid_header', 'webhook-timestamp is not Unix seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  if (!(tolerance >= 0)) throw new TypeError('verifyWebhook: toleranceSeconds must be a number >= 0');
  const clock = options.now ?? new Date();
  // an invalid Date (new Date('garbage')) would make every comparison false and accept any timestamp: fail closed
  if (!(clock instanceof Date) || Number.isNaN(clock.getTime())) throw new TypeError('verifyWebhook: now must be a valid Date');
  const now = Math.floor(clock.getTime() / 1000);
  const at = Number(text);
  if (now - at > tolerance)
    throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is ' + (now - at) + ' s old, more than the ' + tolerance + ' s accepted (a replayed delivery, or a wrong clock here)');
  if (at - now > tolerance)
    throw new WebhookVerificationError('timestamp_too_new', 'webhook-timestamp is ' + (at - now) + ' s ahead, more than the ' + tolerance + ' s accepted (a wrong clock here?)');
}

/**
 * Verifies a fundgate webhook delivery (Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`,
 * \`webhook-signature\` with one or more space-separated \`v1,<base64 HMAC-SHA256>\` of
 * "id.timestamp.body") and answers the parsed event. Give it the RAW body, exactly the bytes received,
 * before any JSON parsing: a re-serialized body does not verify. Async because it uses Web Crypto,
 * so it runs wherever the client does (Node >= 18, Deno, Bun, browsers, edge runtimes).
 *
 * Throws WebhookVerificationError (\`code\` says why) for missing headers, a malformed secret, a
 * timestamp more than \`toleranceSeconds\` (300) away from \`now\` either way, or no matching \`v1\` signature.
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array | ArrayBuffer,
  options: VerifyWebhookOptions = {}): Promise<unknown> {
  const key = webhookKey(secret);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array) && !(rawBody instanceof ArrayBuffer))
    throw new TypeError('verifyWebhook: rawBody must be the raw request body (a string, Uint8Array/Buffer or ArrayBuffer), not a parsed object');
  const [id, timestamp, signature] = WEBHOOK_HEADERS.map((name) => webhookHeader(headers ?? {}, name));
  const missing = WEBHOOK_HEADERS.filter((name, i) => ![id, timestamp, signature][i]?.trim());
  if (missing.length) throw new WebhookVerificationError('missing_header', 'missing ' + missing.join(', ') + ' (is this a fundgate webhook delivery?)');
  const ts = timestamp!.trim();
  webhookTimestamp(ts, options);

  const encoder = new TextEncoder();
  const head = encoder.encode(id + '.' + ts + '.');
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const signed = new Uint8Array(head.length + body.length);
  signed.set(head);
  signed.set(body, head.length);
  const subtle = await subtleCrypto();
  const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = btoa(String.fromCharCode(...new Uint8Array(await subtle.sign('HMAC', hmacKey, signed))));
  // space-separated; a Fetch Headers joins repeated headers with ", " (a signature never ends in a comma)
  const matches = signature!
    .split(/\\s+/)
    .map((entry) => entry.replace(/,$/, ''))
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => sameText(entry.slice(3), expected));
  if (!matches.includes(true))
    throw new WebhookVerificationError('no_matching_signature', 'no v1 signature matches this secret and body (a wrong or rotated-out secret, or a body changed since it was signed: verify the raw bytes)');

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the signed body is not UTF-8 JSON');
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event))
    throw new WebhookVerificationError('invalid_body', 'the signed body is not a JSON object');
  return event;
}
`;

/* ------------------------------------------------------------------------------------------ */
/* Python                                                                                      */
/* ------------------------------------------------------------------------------------------ */

const PY_KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

function pyIdent(wire: string): string {
  const s = snake(wire).replace(/[^A-Za-z0-9_]/g, '_');
  return PY_KEYWORDS.has(s) ? s + '_' : s;
}

function pyStr(s: string): string {
  return JSON.stringify(s); // a JSON string literal is a valid Python string literal for BMP text
}

function pyDoc(text: string | undefined, indent: string): string {
  if (!text) return '';
  const t = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  const lines = t.split('\n');
  if (lines.length === 1) return `${indent}"""${lines[0]}"""\n`;
  return `${indent}"""${lines[0]}\n${lines
    .slice(1)
    .map((l) => (l ? indent + l : ''))
    .join('\n')}\n${indent}"""\n`;
}

function pyType(s: Schema | undefined): string {
  if (!s) return 'Any';
  let t: string;
  if (s.$ref) t = `'${refName(s.$ref)}'`;
  else if (s.allOf && s.allOf.length === 1) t = pyType(s.allOf[0]);
  else if (s.allOf || s.oneOf || s.anyOf)
    t = s.allOf ? 'Dict[str, Any]' : `Union[${(s.oneOf ?? s.anyOf)!.map((x) => pyType(x)).join(', ')}]`;
  else if (s.enum) t = `Literal[${s.enum.map((v) => (typeof v === 'string' ? pyStr(v) : String(v))).join(', ')}]`;
  else if (s.format === 'date-time' || s.format === 'date' || s.format === 'decimal' || s.format === 'uuid') t = 'str';
  else if (s.type === 'string') t = 'str';
  else if (s.type === 'integer') t = 'int';
  else if (s.type === 'number') t = 'float';
  else if (s.type === 'boolean') t = 'bool';
  else if (s.type === 'array') t = `List[${pyType(s.items)}]`;
  else if (s.additionalProperties && typeof s.additionalProperties === 'object')
    t = `Dict[str, ${pyType(s.additionalProperties)}]`;
  else t = 'Dict[str, Any]';
  if (s.nullable && t !== 'Any') t = `Optional[${t}]`;
  return t;
}

function renderPythonModels(doc: OpenApiDoc, ops: SdkOperation[]): string {
  const schemas = doc.components?.schemas ?? {};
  const names = reachableSchemas(doc, ops);
  let out = `# Generated by scripts/generate-sdks.ts from the fundgate OpenAPI document. Do not edit by hand:
# run \`npm run sdk:generate\` in the service repository instead.
"""Typed shapes of the fundgate API (TypedDicts). Decimal amounts are strings, never floats."""
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

if sys.version_info >= (3, 11):
    from typing import Literal, NotRequired, TypedDict
elif TYPE_CHECKING:
    # Type checkers (pyright, mypy) ship typing_extensions' stubs: they read NotRequired for Python 3.8-3.10
    # too. Never imported at run time, so the package keeps no dependency.
    from typing_extensions import Literal, NotRequired, TypedDict
else:  # pragma: no cover - Python 3.8-3.10 at run time: NotRequired[X] is X (TypedDicts are not checked at run time)
    from typing import Literal, TypedDict

    class _NotRequiredShim:
        def __getitem__(self, item: Any) -> Any:
            return item

    NotRequired = _NotRequiredShim()  # type: ignore[assignment,misc]

__all__ = [
${names.map((n) => `    ${pyStr(n)},`).join('\n')}
]

`;
  for (const n of names) {
    const s = schemas[n];
    if (!s.properties) {
      out += `${n} = ${pyType(s).replace(/^'(.*)'$/, '$1')}\n\n`;
      continue;
    }
    const req = new Set(s.required ?? []);
    const fields = Object.entries(s.properties).map(([k, v]) => {
      const t = pyType(v);
      return `        ${pyStr(k)}: ${req.has(k) ? t : `NotRequired[${t}]`},`;
    });
    out += `${n} = TypedDict(\n    ${pyStr(n)},\n    {\n${fields.join('\n')}\n    },\n)\n`;
    if (s.description) out += `${n}.__doc__ = ${pyStr(s.description)}\n`;
    out += '\n';
  }
  return out.replace(/\n+$/, '\n');
}

function renderPythonClient(doc: OpenApiDoc, ops: SdkOperation[]): string {
  const models = reachableSchemas(doc, ops);
  let out = `# Generated by scripts/generate-sdks.ts from the fundgate OpenAPI document. Do not edit by hand:
# run \`npm run sdk:generate\` in the service repository instead.
"""The fundgate client: the read and propose surface of one fund. Standard library only."""
from __future__ import annotations

import http.client
import io
import json
import math
import random
import re
import socket
import time
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, Tuple
from urllib.error import HTTPError
from urllib.parse import quote, urlencode, urlsplit
from urllib.request import HTTPHandler, HTTPRedirectHandler, HTTPSHandler, Request, build_opener

from .models import (
${models.map((n) => `    ${n},`).join('\n')}
)

SDK_VERSION = ${pyStr(SDK_VERSION)}
API_VERSION = ${pyStr(doc.info?.version ?? '')}


class _NoRedirect(HTTPRedirectHandler):
    """Redirects are not followed: urllib would send the Authorization header wherever they point."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D102
        return None


class _DeadlineReader(io.RawIOBase):
    """The answer's socket, read against the attempt's deadline: a server sending a byte now and then cannot
    hold a call open past its timeout (a socket timeout alone applies to each read, not to the answer)."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)  # holds the socket open after urllib closes the connection
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> Optional[int]:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("the answer did not complete within the timeout")
        self._sock.settimeout(left)
        return self._raw.readinto(buffer)

    def fileno(self) -> int:
        return self._raw.fileno()

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


class _DeadlineSocket:
    """What http.client.HTTPResponse reads the answer from (it only calls makefile)."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))


class _DeadlineMixin:
    """Connections whose answer (status line, headers, body) must arrive by the attempt's deadline."""

    def do_open(self, http_class: Any, req: Request, **kwargs: Any) -> Any:
        deadline = time.monotonic() + (req.timeout if isinstance(req.timeout, (int, float)) else 30.0)  # type: ignore[attr-defined]

        def connection(host: str, **conn_args: Any) -> http.client.HTTPConnection:
            conn = http_class(host, **conn_args)

            def response(sock: socket.socket, *args: Any, **kw: Any) -> http.client.HTTPResponse:
                return http.client.HTTPResponse(_DeadlineSocket(sock, deadline), *args, **kw)  # type: ignore[arg-type]

            setattr(conn, "response_class", response)
            return conn

        return super().do_open(connection, req, **kwargs)  # type: ignore[misc]


class _DeadlineHTTPHandler(_DeadlineMixin, HTTPHandler):
    pass


class _DeadlineHTTPSHandler(_DeadlineMixin, HTTPSHandler):
    pass


_OPENER = build_opener(_NoRedirect, _DeadlineHTTPHandler, _DeadlineHTTPSHandler)

#: Every operation this SDK wraps: (method name, HTTP method, path template).
OPERATIONS = [
${ops.map((o) => `    (${pyStr(snake(o.name))}, ${pyStr(o.method)}, ${pyStr(o.path)}),`).join('\n')}
]
${PY_RUNTIME}

class FundgateClient(_Transport):
    """The fundgate client for the fund the API key is bound to.

    client = FundgateClient("svc_dk_...", base_url="https://fund.example.com")
    overview = client.get_overview()
    """
`;
  for (const op of ops) {
    const pyName = snake(op.name);
    const args: string[] = ['self'];
    for (const p of op.pathParams) args.push(`${pyIdent(p.name)}: str`);
    if (op.bodySchema)
      args.push(op.bodyRequired ? `body: ${pyType(op.bodySchema)}` : `body: Optional[${pyType(op.bodySchema)}] = None`);
    const kw: string[] = [];
    for (const p of op.queryParams) {
      const t = pyType({ ...p.schema, nullable: false });
      kw.push(p.required ? `${pyIdent(p.name)}: ${t}` : `${pyIdent(p.name)}: Optional[${t}] = None`);
    }
    if (op.idempotencyKey) kw.push('idempotency_key: Optional[str] = None');
    kw.push('timeout: Optional[float] = None');
    const sig = [...args, '*', ...kw].join(', ');
    const ret = pyType(op.responseSchema);
    const pathExpr = op.pathParams.length
      ? 'f' + pyStr(op.path.replace(/\{([^}]+)\}/g, (_m, n: string) => `{quote(str(${pyIdent(n)}), safe='')}`))
      : pyStr(op.path);
    const docText = [
      op.summary,
      `${op.method} ${op.path}${op.scopes.length ? ` (scope ${op.scopes.join(', ')})` : ''}`,
      op.idempotencyKey
        ? 'Sends an Idempotency-Key (a uuid4 when idempotency_key is None), so retries are safe;\nlast_response.replayed tells whether the answer was a replay.'
        : undefined,
      retrySafeNote(op),
    ]
      .filter(Boolean)
      .join('\n\n');
    out += `\n    def ${pyName}(${sig}) -> ${ret}:\n`;
    out += pyDoc(docText, '        ');
    const query = op.queryParams.length
      ? `{${op.queryParams.map((p) => `${pyStr(p.name)}: ${pyIdent(p.name)}`).join(', ')}}`
      : 'None';
    out += `        return self._request(\n            ${pyStr(op.method)},\n            ${pathExpr},\n            query=${query},\n`;
    if (op.bodySchema) out += `            body=${op.emptyBodyDefault ? '{} if body is None else body' : 'body'},\n`;
    out += `            idempotent=${op.idempotent ? 'True' : 'False'},\n`;
    if (op.idempotencyKey) out += `            idempotency_key=idempotency_key or str(uuid.uuid4()),\n`;
    out += `            timeout=timeout,\n        )\n`;
    if (op.pagination) {
      const iterName = 'iter_' + snake(op.name.replace(/^get/, ''));
      const iSig = [
        ...args.filter((a) => !a.startsWith('body')),
        '*',
        ...kw.filter((k) => !k.startsWith('idempotency_key')),
      ].join(', ');
      out += `\n    def ${iterName}(${iSig}) -> Iterator[${pyType(op.pagination.itemSchema)}]:\n`;
      out += pyDoc(`Every item of ${pyName}, page after page (follows nextCursor until hasMore is false).`, '        ');
      const passArgs = [
        ...op.pathParams.map((p) => pyIdent(p.name)),
        ...op.queryParams.filter((p) => p.name !== 'cursor').map((p) => `${pyIdent(p.name)}=${pyIdent(p.name)}`),
        'cursor=cursor',
        'timeout=timeout',
      ];
      const next = op.pagination.pagingMember ? `page[${pyStr(op.pagination.pagingMember)}]` : 'page';
      out += `        while True:\n            page = self.${pyName}(${passArgs.join(', ')})\n            for item in page[${pyStr(op.pagination.itemsMember)}]:\n                yield item\n            if not ${next}["hasMore"] or not ${next}["nextCursor"]:\n                return\n            cursor = ${next}["nextCursor"]\n`;
    }
  }
  return out;
}

const PY_RUNTIME = `

class FundgateError(Exception):
    """An RFC 9457 problem answered by the service (or a transport failure: status 0)."""

    def __init__(
        self,
        status: int,
        code: str,
        title: Optional[str] = None,
        detail: Optional[str] = None,
        errors: Optional[List[Dict[str, str]]] = None,
        request_id: Optional[str] = None,
        type: Optional[str] = None,
        instance: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
    ) -> None:
        super().__init__(f"{str(status) + ' ' if status else ''}{code}{': ' + detail if detail else ''}")
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors: List[Dict[str, str]] = errors or []
        self.request_id = request_id
        self.type = type
        self.instance = instance
        #: Seconds, from Retry-After (429, 503, 409 idempotency_in_progress); "1.5" is 1.5.
        self.retry_after = retry_after
        self.body = body
        #: The Idempotency-Key the failed propose call sent (None for other calls): pass it again to retry safely.
        self.idempotency_key = idempotency_key

    @classmethod
    def from_response(
        cls, status: int, text: str, headers: Mapping[str, str], idempotency_key: Optional[str] = None
    ) -> "FundgateError":
        try:
            body: Any = json.loads(text) if text else None
        except ValueError:
            body = text
        p = body if isinstance(body, dict) else {}

        def s(v: Any) -> Optional[str]:
            return v if isinstance(v, str) else None

        errors = [
            {"field": str(e.get("field", "")), "message": str(e.get("message", ""))}
            for e in (p.get("errors") or [])
            if isinstance(e, dict)
        ]
        detail = s(p.get("detail"))
        if detail is None and isinstance(body, str) and body:
            detail = body[:500]
        return cls(
            status,
            s(p.get("code")) or f"http_{status}",
            title=s(p.get("title")),
            detail=detail,
            errors=errors,
            request_id=s(p.get("requestId")) or headers.get("x-request-id"),
            type=s(p.get("type")),
            instance=s(p.get("instance")),
            retry_after=_parse_retry_after(headers.get("retry-after")),
            body=body,
            idempotency_key=idempotency_key,
        )


class ResponseInfo:
    """The last HTTP exchange of a client (set before a method returns or raises, also when no answer came:
    then status is 0 and headers empty). A call refused before sending (ValueError, TypeError) leaves it unchanged."""

    def __init__(self, method: str, url: str, status: int, headers: Dict[str, str], idempotency_key: Optional[str], attempts: int) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.request_id = headers.get("x-request-id")
        #: Idempotent-Replayed: true -- a propose call answered from the idempotency store.
        self.replayed = headers.get("idempotent-replayed", "").lower() == "true"
        self.idempotency_key = idempotency_key
        self.rate_limit = headers.get("ratelimit")
        self.rate_limit_policy = headers.get("ratelimit-policy")
        self.attempts = attempts

    def __repr__(self) -> str:
        return f"ResponseInfo(status={self.status}, request_id={self.request_id!r}, replayed={self.replayed})"


_DELTA_SECONDS = re.compile(r"[0-9]+(\\.[0-9]+)?")


def _parse_retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    v = value.strip()
    if _DELTA_SECONDS.fullmatch(v):  # delta-seconds; decimals too ("1.5")
        return int(v) if v.isdigit() else float(v)
    try:
        at = parsedate_to_datetime(v)
    except (TypeError, ValueError):
        return None
    return max(0, int(at.timestamp() - time.time() + 0.999))


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$")
_BAD_HEADER_VALUE = re.compile(r"[^\\t\\x20-\\x7e\\x80-\\xff]")
#: Set by the SDK on every request it needs them on: the headers option cannot replace them.
_SDK_HEADERS = frozenset(["accept", "authorization", "content-type", "idempotency-key"])
_USER_AGENT = "fundgate-python/" + SDK_VERSION


class _Secret:
    """Holds the API key; its repr does not show it (vars(client), logs, debuggers)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<hidden>"


def _check_api_key(api_key: Any) -> str:
    """The key, trimmed; refused (without showing it) when it holds anything but visible ASCII."""
    if api_key is None or api_key == "":
        raise ValueError("FundgateClient: api_key is required")
    if not isinstance(api_key, str):
        raise TypeError("FundgateClient: api_key must be a str")
    key = api_key.strip()
    if not key:
        raise ValueError("FundgateClient: api_key is required")
    for i, ch in enumerate(key):
        if not "\\x21" <= ch <= "\\x7e":
            raise ValueError(
                f"FundgateClient: api_key has a space, control or non-ASCII character at position {i + 1} "
                "(the key is not shown); an API key is visible ASCII only"
            )
    return key


def _check_base_url(base_url: Any) -> str:
    parts = urlsplit(base_url.strip()) if isinstance(base_url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            "FundgateClient: base_url must be an absolute http:// or https:// URL, such as https://fund.example.com"
        )
    if parts.username is not None or parts.password is not None:
        raise ValueError("FundgateClient: base_url must not carry a user name or password (the API key is the credential)")
    # a bare "?" or "#" leaves query and fragment empty, yet every path would be appended after it
    if parts.query or parts.fragment or "?" in base_url or "#" in base_url:
        raise ValueError('FundgateClient: base_url must not have a query or a fragment (not even a bare "?" or "#")')
    return base_url.strip().rstrip("/")


def _merge_headers(given: Mapping[str, str]) -> Tuple[Dict[str, str], str]:
    """The headers option by lower-case name, without the SDK's own; a User-Agent goes before the SDK's."""
    extra: Dict[str, str] = {}
    user_agent = _USER_AGENT
    for name, raw in given.items():
        value = str(raw).strip()
        if not isinstance(name, str) or not _HEADER_NAME.match(name):
            raise ValueError(f"FundgateClient: headers: {name!r} is not a header name")
        if _BAD_HEADER_VALUE.search(value):
            raise ValueError(f"FundgateClient: headers: the value of {name} has a control or non-Latin-1 character")
        key = name.lower()
        if key == "user-agent":
            user_agent = value + " " + _USER_AGENT if value else _USER_AGENT
        elif key not in _SDK_HEADERS:
            extra[key] = value
    return extra, user_agent


def _check_number(name: str, value: Any, low: float, high: float, integer: bool = False) -> Any:
    """A numeric argument: TypeError when it is not a number (an int where asked), ValueError outside [low, high] or NaN."""
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        raise TypeError(f"FundgateClient: {name} must be {'an int' if integer else 'a number'}, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"FundgateClient: {name} must be from {low:g} to {high:g}, not {value!r}")
    return value


def _idempotency_key(key: Any) -> str:
    """The caller's Idempotency-Key, checked before anything is sent: 1..255 visible ASCII, as the service requires."""
    if not isinstance(key, str):
        raise TypeError("FundgateClient: idempotency_key must be a str")
    if len(key) > 255 or any(not "\\x21" <= ch <= "\\x7e" for ch in key):
        raise ValueError(
            f"FundgateClient: idempotency_key must be 1..255 visible ASCII characters (no space, control or "
            f"non-ASCII character); got {key[:40]!r}{'...' if len(key) > 40 else ''} ({len(key)} characters)"
        )
    return key


def _describe_failure(err: BaseException) -> str:
    text = str(err)
    name = type(err).__name__
    return text if text.startswith(name) else f"{name}: {text}" if text else name


class _Transport:
    def __init__(
        self,
        api_key: str,
        base_url: str = "http://localhost:3000",
        timeout: float = 30.0,
        max_retries: int = 2,
        max_retry_after: float = 60.0,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        # Surrounding white space (a key read from a file ends in a newline) is trimmed. The key is kept
        # out of vars() and repr(): print(vars(client)) or a debugger shows <hidden>.
        self._api_key = _Secret(_check_api_key(api_key))
        self.base_url = _check_base_url(base_url)
        #: Per attempt, in seconds: connecting, sending and the whole answer must fit in it.
        self.timeout = _check_number("timeout", timeout, 0.001, 1e9)
        self.max_retries = _check_number("max_retries", max_retries, 0, 1000, integer=True)
        self.max_retry_after = _check_number("max_retry_after", max_retry_after, 0, 1e9)
        #: Extra headers sent with every request (names case-insensitive; see _merge_headers).
        self.headers = dict(headers or {})
        _merge_headers(self.headers)  # refuses a bad name or value now, not at the first call
        #: The last HTTP exchange (status, headers, request_id, replayed, idempotency_key, rate limits); status 0
        #: when no answer came.
        self.last_response: Optional[ResponseInfo] = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    def _request(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotent: bool = True,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        pairs = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
        url = self.base_url + path + ("?" + urlencode(pairs) if pairs else "")
        headers, user_agent = _merge_headers(self.headers)
        headers["accept"] = "application/json, application/problem+json"
        headers["authorization"] = "Bearer " + self._api_key.reveal()
        headers["user-agent"] = user_agent
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if idempotency_key is not None:
            headers["idempotency-key"] = _idempotency_key(idempotency_key)
        limit = self.timeout if timeout is None else _check_number("timeout", timeout, 0.001, 1e9)
        # Repeat only what cannot happen twice: reads, and proposes carrying an Idempotency-Key.
        retryable = idempotent or idempotency_key is not None
        attempt = 0
        while True:
            attempt += 1
            req = Request(url, data=data, headers=headers, method=method)
            try:
                status, res_headers, raw = self._exchange(req, limit)
            except (OSError, http.client.HTTPException) as err:
                # OSError: URLError, timeouts, refused or reset connections; HTTPException: a body cut off
                # (IncompleteRead), a malformed status line or headers.
                self.last_response = ResponseInfo(method, url, 0, {}, idempotency_key, attempt)  # no answer
                reason = getattr(err, "reason", err)
                timed_out = isinstance(reason, (socket.timeout, TimeoutError))
                if retryable and attempt <= self.max_retries:
                    time.sleep(self._backoff(attempt))
                    continue
                detail = _describe_failure(reason) if isinstance(reason, BaseException) else str(reason)
                if timed_out:
                    detail = f"no complete answer within {limit:g} s ({detail})"
                detail = detail.replace(self._api_key.reveal(), "<api_key>")
                raise FundgateError(
                    0, "timeout" if timed_out else "network_error", detail=detail, idempotency_key=idempotency_key
                ) from err
            self.last_response = ResponseInfo(method, url, status, res_headers, idempotency_key, attempt)
            request_id = res_headers.get("x-request-id")
            if 300 <= status < 400:
                location = res_headers.get("location")
                raise FundgateError(
                    status,
                    "redirect",
                    detail=f"answered {status}{' to ' + location if location else ''}; redirects are not followed "
                    "(the call and its API key stay with base_url): check base_url",
                    request_id=request_id,
                    idempotency_key=idempotency_key,
                )
            if 200 <= status < 300:
                try:
                    text = raw.decode("utf-8-sig")
                except UnicodeDecodeError as err:
                    raise FundgateError(status, "invalid_response", detail="the answer is not UTF-8 text",
                                        request_id=request_id, idempotency_key=idempotency_key) from err
                if not text:
                    return None
                try:
                    return json.loads(text)
                except ValueError as err:
                    raise FundgateError(status, "invalid_response", detail="the answer is not JSON", body=text,
                                        request_id=request_id, idempotency_key=idempotency_key) from err
            error = FundgateError.from_response(status, raw.decode("utf-8", "replace"), res_headers, idempotency_key)
            if retryable and attempt <= self.max_retries:
                delay = self._retry_delay(status, error, attempt)
                if delay is not None:
                    time.sleep(delay)
                    continue
            raise error

    @staticmethod
    def _exchange(req: Request, timeout: float) -> Tuple[int, Dict[str, str], bytes]:
        """One HTTP exchange: status, headers (lower-case names) and the whole body."""
        try:
            with _OPENER.open(req, timeout=timeout) as res:
                return res.status, {k.lower(): v for k, v in res.headers.items()}, res.read()
        except HTTPError as err:
            res_headers = {k.lower(): v for k, v in (err.headers or {}).items()}
            try:
                return err.code, res_headers, err.read() if err.fp is not None else b""
            finally:
                err.close()

    @staticmethod
    def _backoff(attempt: int) -> float:
        base = min(8.0, 0.25 * 2 ** (attempt - 1))
        return base / 2 + random.random() * base / 2

    def _retry_delay(self, status: int, error: FundgateError, attempt: int) -> Optional[float]:
        """None: do not retry. A Retry-After is slept (unless longer than max_retry_after), else backoff."""
        # 429; 409 idempotency_in_progress (the first call with this key is still running: Retry-After says
        # when it should be done); 5xx but 501 (a 503 from Redis away or full calculators says when to come back)
        waitable = (
            status == 429
            or (status == 409 and error.code == "idempotency_in_progress")
            or (status >= 500 and status != 501)
        )
        if not waitable:
            return None
        if error.retry_after is None:
            return self._backoff(attempt)
        return None if error.retry_after > self.max_retry_after else float(error.retry_after)
`;

function renderPythonInit(): string {
  return `# Generated by scripts/generate-sdks.ts. Do not edit by hand.
"""Official Python SDK for the fundgate API (standard library only)."""
from .client import API_VERSION, OPERATIONS, SDK_VERSION, FundgateClient, FundgateError, ResponseInfo
from .webhooks import WebhookVerificationError, verify_webhook

__version__ = SDK_VERSION
__all__ = [
    "FundgateClient",
    "FundgateError",
    "ResponseInfo",
    "WebhookVerificationError",
    "verify_webhook",
    "OPERATIONS",
    "SDK_VERSION",
    "API_VERSION",
    "__version__",
]
`;
}

/** fundgate/webhooks.py: verify_webhook, the standard library's HMAC (no dependency). */
function renderPythonWebhooks(): string {
  return `# Generated by scripts/generate-sdks.ts. Do not edit by hand.
"""Verifying fundgate's webhook deliveries (Standard Webhooks v1 signatures). Standard library only."""
import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from typing import Any, Dict, Iterable, List, Optional, Protocol, Tuple, Union, cast

__all__ = ["WebhookVerificationError", "verify_webhook"]

_SECRET_PREFIX = "whsec_"
_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")
_TIMESTAMP = re.compile(r"[0-9]{1,12}")


class _HasItems(Protocol):
    def items(self) -> Iterable[Tuple[Any, Any]]: ...


#: Anything with items() -- a dict, any Mapping, Flask's, Django's or Starlette's request.headers,
#: http.server's self.headers -- or (name, value) pairs such as ASGI's scope["headers"].
HeadersLike = Union[_HasItems, Iterable[Tuple[Any, Any]]]


class WebhookVerificationError(Exception):
    """A delivery not provably from fundgate, or not recent: answer it 400 and do not act on it.

    code says why: missing_header, invalid_header, invalid_secret, timestamp_too_old,
    timestamp_too_new, no_matching_signature or invalid_body.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)


def _header_values(headers: HeadersLike) -> Dict[str, List[str]]:
    """Every value of the three headers, by lower-case name (repeated names and list values kept)."""
    items = getattr(headers, "items", None)
    pairs = cast(Iterable[Tuple[Any, Any]], items() if callable(items) else headers)
    found: Dict[str, List[str]] = {}
    for name, value in pairs:
        key = _text(name).lower()
        if key in _HEADERS and value is not None:
            found.setdefault(key, []).extend(_text(v) for v in (value if isinstance(value, (list, tuple)) else [value]))
    return found


def _header(found: Dict[str, List[str]], name: str) -> str:
    values = found[name]
    if name == "webhook-signature":
        return " ".join(values)
    if any(v != values[0] for v in values):
        raise WebhookVerificationError("invalid_header", f"{name} is given {len(values)} times with different values")
    return values[0].strip()


def _key(secret: Any) -> bytes:
    """The HMAC key: the base64 after whsec_ (a secret without the prefix is taken as the base64 itself)."""
    text = secret.strip() if isinstance(secret, str) else ""
    if text.startswith(_SECRET_PREFIX):
        text = text[len(_SECRET_PREFIX):]
    try:
        key = base64.b64decode(text, validate=True) if text else b""
    except (binascii.Error, ValueError):
        key = b""
    if not key:
        raise WebhookVerificationError(
            "invalid_secret",
            'the secret is not a webhook signing secret ("whsec_" and padded base64, as POST /webhooks and '
            "rotate-secret answer it); the value is not shown",
        )
    return key


def _check_timestamp(text: str, tolerance_seconds: float, now: Optional[Union[datetime, float]]) -> None:
    if not _TIMESTAMP.fullmatch(text):
        raise WebhookVerificationError("invalid_header", "webhook-timestamp is not Unix seconds")
    if not tolerance_seconds >= 0:
        raise ValueError("verify_webhook: tolerance_seconds must be a number >= 0")
    if now is None:
        current = int(time.time())
    elif isinstance(now, datetime):
        current = int(now.timestamp())
    else:
        current = int(now)
    at = int(text)
    if current - at > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_too_old",
            f"webhook-timestamp is {current - at} s old, more than the {tolerance_seconds} s accepted "
            "(a replayed delivery, or a wrong clock here)",
        )
    if at - current > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_too_new",
            f"webhook-timestamp is {at - current} s ahead, more than the {tolerance_seconds} s accepted (a wrong clock here?)",
        )


def verify_webhook(
    secret: str,
    headers: HeadersLike,
    raw_body: Union[bytes, bytearray, memoryview, str],
    tolerance_seconds: float = 300,
    now: Optional[Union[datetime, float]] = None,
) -> Dict[str, Any]:
    """Verifies a fundgate webhook delivery and returns the parsed event.

    Standard Webhooks: webhook-id, webhook-timestamp and webhook-signature, one or more space-separated
    "v1,<base64 HMAC-SHA256>" of "id.timestamp.body" keyed with the secret. Give it the RAW body, exactly
    the bytes received (request.get_data(), await request.body()), before any JSON parsing: a
    re-serialized body does not verify. Header names are case-insensitive.

    now: a datetime (a naive one is local time, as datetime.timestamp() reads it) or Unix seconds;
    default the current time. Raises WebhookVerificationError (code says why) for missing headers, a
    malformed secret, a timestamp more than tolerance_seconds away either way, or no matching v1 signature.
    """
    key = _key(secret)
    if isinstance(raw_body, str):
        body = raw_body.encode("utf-8")
    elif isinstance(raw_body, (bytes, bytearray, memoryview)):
        body = bytes(raw_body)
    else:
        raise TypeError("verify_webhook: raw_body must be the raw request body (bytes or str), not a parsed object")
    found = _header_values(headers)
    missing = [name for name in _HEADERS if not "".join(found.get(name, [])).strip()]
    if missing:
        raise WebhookVerificationError(
            "missing_header", f"missing {', '.join(missing)} (is this a fundgate webhook delivery?)"
        )
    msg_id, timestamp, signature = (_header(found, name) for name in _HEADERS)
    _check_timestamp(timestamp, tolerance_seconds, now)

    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    matches = [
        hmac.compare_digest(expected, entry[3:].encode("utf-8", "replace"))
        for entry in (part.rstrip(",") for part in signature.split())
        if entry.startswith("v1,")
    ]
    if not any(matches):
        raise WebhookVerificationError(
            "no_matching_signature",
            "no v1 signature matches this secret and body (a wrong or rotated-out secret, or a body changed "
            "since it was signed: verify the raw bytes)",
        )
    try:
        event = json.loads(body.decode("utf-8"))
    except ValueError as err:  # UnicodeDecodeError is a ValueError
        raise WebhookVerificationError("invalid_body", "the signed body is not UTF-8 JSON") from err
    if not isinstance(event, dict):
        raise WebhookVerificationError("invalid_body", "the signed body is not a JSON object")
    return event
`;
}

/* ------------------------------------------------------------------------------------------ */
/* Entry points                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** The generated files, keyed by path relative to the repository root. */
export function renderSdks(published: OpenApiDoc): Record<string, string> {
  const doc = withNullableForms(published);
  const ops = selectOperations(doc);
  return {
    'sdk/typescript/src/index.ts': renderTypeScript(doc, ops),
    'sdk/python/fundgate/__init__.py': renderPythonInit(),
    'sdk/python/fundgate/client.py': renderPythonClient(doc, ops),
    'sdk/python/fundgate/models.py': renderPythonModels(doc, ops),
    'sdk/python/fundgate/webhooks.py': renderPythonWebhooks(),
  };
}

export function writeSdks(files: Record<string, string>, rootDir: string): string[] {
  const written: string[] = [];
  for (const [rel, content] of Object.entries(files)) {
    const target = join(rootDir, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    written.push(target);
  }
  return written;
}

/** Boots the application in-process (as production builds it) and reads /api/openapi.json. */
export async function fetchOpenApi(): Promise<OpenApiDoc> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createApp } = require('../src/app.factory') as typeof import('../src/app.factory');
  const { loadConfig } = require('../src/config/config') as typeof import('../src/config/config');
  const app = await createApp(loadConfig());
  try {
    await app.init();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
    return JSON.parse(res.body) as OpenApiDoc;
  } finally {
    await app.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const specFile = arg('--spec');
  const out = resolve(arg('--out') ?? join(__dirname, '..'));
  const doc = specFile ? (JSON.parse(readFileSync(specFile, 'utf8')) as OpenApiDoc) : await fetchOpenApi();
  const written = writeSdks(renderSdks(doc), out);
  const ops = selectOperations(doc);
  process.stdout.write(JSON.stringify({ msg: 'sdks generated', operations: ops.length, files: written }) + '\n');
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`sdk generation failed: ${err.stack ?? err.message}\n`);
      process.exit(1);
    },
  );
}
