import { FIELD_ERROR, HEADERS, type HeaderName, PROBLEM_DETAILS, STATUS_TEXT, TAG_TEXT } from './contract-components';
import { domainProblems } from './operation-problems';
import { toSchema31 } from './openapi-31';
import { describeSpecialOperations } from './special-operations';
import type { DocNode } from './document-node';

/**
 * Turns the document @nestjs/swagger builds from the controllers into the published contract:
 * OpenAPI 3.1 schema forms, every status an operation can answer (problem+json with the shared
 * ProblemDetails schema), every header it sets, security per auth mode, tags, servers and
 * descriptions. `test/platform/openapi-contract.e2e-spec.ts` lints the result with Redocly and
 * Spectral, and the e2e harness validates every response against it.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PROBLEM_REF = { $ref: '#/components/schemas/ProblemDetails' };

export interface ContractOptions {
  serverUrl: string;
  /**
   * This deployment's rate limits per policy and plan (RATE_LIMITS), published as the document's
   * `x-rate-limits` so a client (the free web tools) states the caps that apply here, not the defaults.
   */
  rateLimits?: Record<string, Record<string, number>>;
  /** Operations whose 200 carries an ETag (run-derived and static answers). */
  etag?: (method: string, path: string) => boolean;
}

export function finalizeDocument(doc: DocNode, opts: ContractOptions): DocNode {
  doc.openapi = '3.1.0';
  doc.info = {
    ...doc.info,
    description: INFO_DESCRIPTION,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
  };
  // A local default base URL is published as the relative '/', which means "the host serving this document".
  const local = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(opts.serverUrl);
  doc.servers = [{ url: local ? '/' : opts.serverUrl, description: 'This deployment' }];
  if (opts.rateLimits) doc['x-rate-limits'] = opts.rateLimits;
  const schemas = Object.fromEntries(
    Object.entries<DocNode>(doc.components?.schemas ?? {}).map(([k, v]) => [k, toSchema31(v)]),
  );
  doc.components = {
    ...doc.components,
    schemas: { ...schemas, ProblemDetails: PROBLEM_DETAILS, FieldError: FIELD_ERROR },
    headers: Object.fromEntries(Object.entries(HEADERS).map(([k, v]) => [k, v])),
    securitySchemes: SECURITY_SCHEMES,
  };
  describeSpecialOperations(doc);
  const tags = new Set<string>();
  for (const [path, item] of Object.entries<DocNode>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      finalizeOperation(method, path, op, opts);
      for (const t of op.tags ?? []) tags.add(t);
    }
  }
  for (const path of Object.keys(doc.paths)) {
    const mcp = /^\/api\/mcp(\/|$)/.test(path) ? doc.paths[path].post : undefined;
    // The MCP servers answer a malformed request with a JSON-RPC parse error, not a problem.
    if (mcp)
      mcp.responses['400'] = {
        ...mcp.responses['400'],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcResponse' } } },
      };
  }
  const used = JSON.stringify(doc.paths);
  doc.components.headers = Object.fromEntries(
    Object.entries(doc.components.headers).filter(([name]) => used.includes(`#/components/headers/${name}"`)),
  );
  doc.tags = [...tags].sort().map((name) => ({ name, description: TAG_TEXT[name] ?? tagText(name) }));
  return doc;
}

function tagText(name: string): string {
  return name.startsWith('fund data')
    ? `Read-only fund data (${name.slice(11)}): scope fund:read, policy fund-minute.`
    : name;
}

export type AuthMode = 'required' | 'optional' | 'none';

function finalizeOperation(method: string, path: string, op: DocNode, opts: ContractOptions): void {
  const auth: AuthMode = !op.security
    ? 'none'
    : op.security.some((s: DocNode) => Object.keys(s).length === 0)
      ? 'optional'
      : 'required';
  const session = op['x-session-access'] as SessionAccess | undefined;
  op.security = auth === 'none' && !session ? [] : securityOf(auth, session);
  for (const p of op.parameters ?? []) if (p.schema) p.schema = toSchema31(p.schema);
  for (const c of Object.values<DocNode>(op.requestBody?.content ?? {})) if (c.schema) c.schema = toSchema31(c.schema);
  op.summary ??= humanize(op.operationId);
  op.description ??= describe(op, auth, session, takeDetails(op));
  const rateLimited = Boolean(op['x-rate-limit-policy']);
  const hasBody = ['post', 'put', 'patch'].includes(method);
  const pathParams = (op.parameters ?? []).some((p: DocNode) => p.in === 'path');
  const statuses = new Set<number>([400, 431, 500, 503, ...domainProblems(method, path)]);
  if (auth !== 'none' || session) statuses.add(401);
  if (auth === 'required' || (session && hasBody)) statuses.add(403);
  if (rateLimited) statuses.add(429);
  if (hasBody) [413, 415].forEach((s) => statuses.add(s));
  if (pathParams) [404, 414].forEach((s) => statuses.add(s));
  if (opts.etag?.(method, path)) {
    op.parameters = [
      ...(op.parameters ?? []),
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An ETag of an earlier answer: 304 Not Modified (no body) when the answer is unchanged.',
        schema: { type: 'string' },
      },
    ];
    op.responses['304'] = { description: 'Not Modified: the answer is unchanged since the ETag sent in If-None-Match' };
  }
  for (const [status, response] of Object.entries<DocNode>(op.responses)) {
    const code = Number(status);
    if (code < 400) finalizeSuccess(method, path, code, response, rateLimited, opts);
  }
  const replayable = isProposeRoute(method, path);
  for (const status of [...statuses].sort())
    op.responses[String(status)] = problemResponse(
      status,
      op.responses[String(status)],
      rateLimited,
      replayable,
      sendsLocation(method, path, status),
    );
}

function finalizeSuccess(
  method: string,
  path: string,
  code: number,
  response: DocNode,
  rateLimited: boolean,
  opts: ContractOptions,
): void {
  if (code === 204 || code === 304) delete response.content;
  if (!response.description) response.description = code === 202 ? 'Accepted' : 'OK';
  for (const c of Object.values<DocNode>(response.content ?? {})) if (c.schema) c.schema = toSchema31(c.schema);
  const names: HeaderName[] = ['X-Request-Id'];
  if (rateLimited) names.push('RateLimit', 'RateLimit-Policy');
  if (sendsLocation(method, path, code)) names.push('Location');
  if (isProposeRoute(method, path)) names.push('Idempotent-Replayed');
  if (
    /^POST \/api\/v1\/console\/(sign-in|sign-up|sign-out|invitations\/\{token\}\/accept)/.test(
      `${method.toUpperCase()} ${path}`,
    )
  )
    names.push('Set-Cookie');
  names.push('Cache-Control');
  if ((code === 200 || code === 304) && opts.etag?.(method, path)) names.push('ETag');
  response.headers = { ...(response.headers ?? {}), ...refs(names) };
}

function problemResponse(
  status: number,
  existing: DocNode | undefined,
  rateLimited: boolean,
  replayable: boolean,
  location: boolean,
): DocNode {
  const names: HeaderName[] = ['X-Request-Id', 'Cache-Control'];
  if (rateLimited) names.push('RateLimit', 'RateLimit-Policy');
  if (status === 401) names.push('WWW-Authenticate');
  if ([409, 429, 503].includes(status)) names.push('Retry-After');
  if (location) names.push('Location'); // 409 nav_job_in_progress: the job already running
  if (replayable && status < 500) names.push('Idempotent-Replayed');
  if (status === 405) names.push('Allow');
  const own = existing?.description && !/^(OK|)$/.test(existing.description) ? `${existing.description}. ` : '';
  return {
    description: `${own}${STATUS_TEXT[status] ?? 'Problem'}`.slice(0, 600),
    headers: refs(names),
    content: { 'application/problem+json': { schema: PROBLEM_REF } },
  };
}

/** Propose routes take an Idempotency-Key: a replayed answer (success or refusal) says so. */
function isProposeRoute(method: string, path: string): boolean {
  return /^POST \/api\/v1\/fund\/proposals\/[a-z-]+$/.test(`${method.toUpperCase()} ${path}`);
}

/**
 * The answers that carry a Location header — only these document it: a staged proposal (201, also
 * when replayed: the proposal to follow) and a NAV run request (202: the job to poll; 409
 * nav_job_in_progress: the job already running). No other 201, 202 or 409 sends one.
 */
function sendsLocation(method: string, path: string, status: number): boolean {
  if (status === 201) return isProposeRoute(method, path);
  if (status === 202 || status === 409) return `${method.toUpperCase()} ${path}` === 'POST /api/v1/admin/nav-runs';
  return false;
}

function refs(names: HeaderName[]): DocNode {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function securityOf(auth: AuthMode, session: { only?: boolean } | undefined): DocNode[] {
  if (session?.only) return [{ consoleSession: [] }];
  const out: DocNode[] = [{ bearer: [] }];
  if (session) out.push({ consoleSession: [] });
  if (auth === 'optional') out.push({});
  return out;
}

function describe(op: DocNode, auth: AuthMode, session: SessionAccess | undefined, details: string): string {
  const limit = op['x-rate-limit-policy']
    ? ` Rate limit policy \`${op['x-rate-limit-policy']}\` (RateLimit headers on every answer).`
    : '';
  const more = details ? ` ${details.replace(/\.?$/, '.')}` : '';
  return `${String(op.summary).replace(/\.$/, '')}.${more} ${authSentence(auth, op['x-required-scopes'] ?? [], session)}${limit}`;
}

/**
 * What a route says beyond its summary (`@ApiExtension(DETAILS, text)`): placed between the summary and
 * the sentence on who may call it, so a route with more to say keeps that sentence. Taken off the operation.
 */
export const DETAILS = 'x-details';

function takeDetails(op: DocNode): string {
  const details = typeof op[DETAILS] === 'string' ? op[DETAILS].trim() : '';
  delete op[DETAILS];
  return details;
}

/** How a route's `@SessionAccess` options appear in the document (`x-session-access`). */
interface SessionAccess {
  only?: boolean;
  selfService?: boolean;
}

/**
 * The description's sentence on who may call an operation, true to what AuthGuard accepts: a console
 * session only where the route takes one (`x-session-access`; the fund reads, propose routes and
 * MCP answer 401 to a session cookie). `bearer` names what the Authorization header may carry (the
 * fund MCP tools also take an OAuth access token).
 */
export function authSentence(
  auth: AuthMode,
  scopes: readonly string[],
  session: SessionAccess | undefined,
  bearer = 'an API key',
): string {
  if (auth === 'none') return 'No authentication.';
  if (auth === 'optional') return 'A key is optional; a valid one raises the limit.';
  if (session?.only) return 'Needs a console session (an API key is refused).';
  const who = session && !session.selfService ? `${bearer} or a console session` : bearer;
  const holding = scopes.length ? ` holding ${scopes.join(', ')}` : ' (any scope)';
  return `Needs ${who}${holding}${session?.selfService ? ', or a console session' : ''}.`;
}

function humanize(operationId: string | undefined): string {
  const method = (operationId ?? 'operation').split('_').pop() ?? 'operation';
  return method
    .replace(/([A-Z])/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .trim();
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_dk_ opaque key',
    description:
      'An opaque API key from the console or the keys CLI, sent as `Authorization: Bearer svc_dk_…`: `svc_dk_` followed by 38 base62 characters (0-9, A-Z, a-z) — 32 random ones and a 6-character checksum (the CRC-32 of those 32, in base62, zero-padded); 45 characters in all, nothing else in it. A key of another shape or with a wrong checksum is refused (401) without a lookup. Not a JWT: it carries no claims (no id, fund or scopes); the server looks up its SHA-256.',
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'fg_session',
    description:
      'The console session cookie (`__Host-fg_session` over HTTPS). Non-GET requests also need `X-CSRF-Token` and a same-origin `Origin`; the fund comes from `X-Fundgate-Fund`.',
  },
};

const INFO_DESCRIPTION = [
  'Shadow-NAV fund data, maker-checker proposals, calculators, MCP servers and webhooks.',
  '',
  '* **Errors** are RFC 9457 `application/problem+json` (`ProblemDetails`); every `code`, its status and what to do: `docs/errors.md`.',
  '* **Webhooks**: events, payloads, headers, signature verification, retries and 410: `docs/webhooks.md`.',
  '* **Paging**: listings return `nextCursor` and `hasMore`; pass `cursor` to continue (see each listing).',
  '* **Rate limits**: IETF `RateLimit` / `RateLimit-Policy` headers on every limited answer, `Retry-After` on 429.',
].join('\n');
