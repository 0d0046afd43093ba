import type { IncomingHttpHeaders } from 'node:http';
import {
  type Answer,
  type Id,
  JSONRPC,
  type JsonRpcRequest,
  type JsonRpcResponse,
  Refusal,
  Rejection,
  rpcError,
  SerializedToolResult,
} from './json-rpc';

/**
 * MCP 2026-07-28, the stateless revision, served beside the handshake revisions on the same URLs.
 * A message belongs to it when its `params._meta` names a protocol version of that era (the
 * per-request envelope); a message without one is handshake-era traffic, served exactly as before.
 * The MCP-Protocol-Version header only cross-checks the body (a proxy dropping it never changes the
 * era). What the revision changes for this server: no initialize, ping or batches; `server/discover`;
 * every request names its version and client capabilities in `_meta` and repeats its method (and the
 * tool, prompt or resource it acts on) in the Mcp-Method and Mcp-Name headers; every result carries
 * `resultType`, and list and read results carry cache hints (ttlMs, cacheScope).
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'];
const FIRST_MODERN_VERSION = '2026-07-28';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The revision's own error codes: a header disagreeing with the body, a version it does not serve. */
export const MODERN_ERRORS = { HEADER_MISMATCH: -32020, UNSUPPORTED_PROTOCOL_VERSION: -32022 } as const;

/**
 * Whether a protocol version names a revision of the stateless era: a date (revision identifiers
 * are YYYY-MM-DD) on or after 2026-07-28. Anything else ("latest", "v2") is not of that era, so the
 * handshake era's checks answer it as before.
 */
export function isModernVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_VERSION;
}

export type Era = { era: 'legacy' } | { era: 'modern'; version: string } | { era: 'rejected'; rejection: Rejection };

const LEGACY: Era = { era: 'legacy' };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return typeof v === 'string' ? v.trim() : undefined;
};
const metaOf = (params: unknown): Record<string, unknown> | undefined =>
  isObject(params) && isObject(params._meta) ? params._meta : undefined;
const claims = (message: unknown): boolean => {
  const meta = isObject(message) ? metaOf(message.params) : undefined;
  return meta !== undefined && META.protocolVersion in meta;
};
const idOf = (m: Record<string, unknown>): Id => (typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null);

/** Which era a request's body belongs to, or why it is refused before either era reads it. */
export function classifyEra(headers: IncomingHttpHeaders, body: unknown): Era {
  if (Array.isArray(body)) {
    if (!body.some(claims)) return LEGACY;
    return rejected(null, JSONRPC.INVALID_REQUEST, 'batches are not part of MCP 2026-07-28');
  }
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return LEGACY; // answered by readMessage
  const id = idOf(body);
  if (!claims(body)) return classifyUnclaimed(body, headers, id);
  const meta = metaOf(body.params)!;
  const problem = envelopeProblem(meta, body.id !== undefined);
  if (problem)
    return rejected(id, JSONRPC.INVALID_PARAMS, `invalid _meta envelope: ${problem.key}: ${problem.problem}`, {
      envelope: problem,
    });
  const version = meta[META.protocolVersion] as string;
  const headerVersion = header(headers, 'mcp-protocol-version');
  // the header cross-checks any claim, a handshake-era one included (the body decides the era)
  if (headerVersion !== undefined && headerVersion !== version)
    return mismatch(
      id,
      headerVersion,
      `_meta names protocol version ${version}, MCP-Protocol-Version ${headerVersion}`,
    );
  if (!isModernVersion(version)) return LEGACY;
  return modernOrRefused(body, headers, id, version);
}

/** A message of the stateless era: its Mcp-Method must agree with the body and its version be one we serve. */
function modernOrRefused(body: Record<string, unknown>, headers: IncomingHttpHeaders, id: Id, version: string): Era {
  const methodHeader = header(headers, 'mcp-method');
  if (methodHeader !== undefined && methodHeader !== body.method)
    return mismatch(id, methodHeader, `the body names method ${String(body.method)}, Mcp-Method ${methodHeader}`);
  if (!MODERN_PROTOCOL_VERSIONS.includes(version))
    return rejected(id, MODERN_ERRORS.UNSUPPORTED_PROTOCOL_VERSION, `unsupported protocol version ${version}`, {
      supported: MODERN_PROTOCOL_VERSIONS,
      requested: version,
    });
  return { era: 'modern', version };
}

/**
 * A message without an envelope: handshake-era traffic, unless the header names a stateless-era
 * version — then a request lacks its envelope (refused) and a notification is that era's.
 */
function classifyUnclaimed(body: Record<string, unknown>, headers: IncomingHttpHeaders, id: Id): Era {
  const headerVersion = header(headers, 'mcp-protocol-version');
  if (headerVersion === undefined || !isModernVersion(headerVersion)) return LEGACY;
  if (body.method === 'initialize')
    return mismatch(id, headerVersion, 'initialize (the handshake) was sent with a 2026-07-28 MCP-Protocol-Version');
  if (body.id === undefined) return modernOrRefused(body, headers, id, headerVersion);
  const missing = [`_meta["${META.protocolVersion}"]`];
  const text = `MCP-Protocol-Version ${headerVersion} needs the per-request envelope; missing ${missing.join(', ')}`;
  return rejected(id, JSONRPC.INVALID_PARAMS, text, { envelope: { missing } });
}

interface EnvelopeProblem {
  key: string;
  problem: string;
}

/**
 * What is wrong with a `_meta` envelope, or null. A request needs the protocol version (a string)
 * and the client capabilities (an object), and client info, when given, names the client; a
 * notification carries only the version claim.
 */
function envelopeProblem(meta: Record<string, unknown>, isRequest: boolean): EnvelopeProblem | null {
  if (typeof meta[META.protocolVersion] !== 'string')
    return { key: META.protocolVersion, problem: 'expected a protocol version string' };
  if (!isRequest) return null;
  if (!(META.clientCapabilities in meta)) return { key: META.clientCapabilities, problem: 'missing' };
  if (!isObject(meta[META.clientCapabilities])) return { key: META.clientCapabilities, problem: 'expected an object' };
  const info = meta[META.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'))
    return { key: META.clientInfo, problem: 'expected an object with string name and version' };
  return null;
}

const rejected = (id: Id, code: number, message: string, data?: unknown): Era => ({
  era: 'rejected',
  rejection: Rejection.of(id, code, message, data),
});

function mismatch(id: Id, headerValue: string, detail: string): Era {
  return rejected(id, MODERN_ERRORS.HEADER_MISMATCH, `the request headers and body disagree: ${detail}`, {
    mismatch: { header: headerValue, body: detail },
  });
}

/** Where Mcp-Name comes from, per method (the methods that act on a named tool, prompt or resource). */
const NAME_SOURCE = new Map<string, 'name' | 'uri'>([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/**
 * The standard headers a stateless-era request must carry: MCP-Protocol-Version, Mcp-Method and,
 * for tools/call, prompts/get and resources/read, Mcp-Name equal to the name or URI in the body
 * (non-ASCII values travel as `=?base64?…?=`). Null when they are all there and agree.
 */
export function standardHeadersProblem(headers: IncomingHttpHeaders, request: JsonRpcRequest): Rejection | null {
  const { id, method, params } = request;
  const refuse = (value: string, detail: string) =>
    Rejection.of(id, MODERN_ERRORS.HEADER_MISMATCH, `the request headers and body disagree: ${detail}`, {
      mismatch: { header: value, body: detail },
    });
  if (header(headers, 'mcp-protocol-version') === undefined)
    return refuse('(missing)', 'the MCP-Protocol-Version header is required');
  if (header(headers, 'mcp-method') === undefined)
    return refuse('(missing)', `the Mcp-Method header (${method}) is required`);
  const field = NAME_SOURCE.get(method);
  const bodyValue = field && typeof params[field] === 'string' ? params[field] : undefined;
  const name = header(headers, 'mcp-name');
  const decoded = name === undefined ? undefined : decodeHeaderValue(name);
  if (decoded === null) return refuse(name!, 'Mcp-Name carries an invalid =?base64?…?= value');
  if (bodyValue === undefined) return null;
  if (decoded === undefined) return refuse('(missing)', `the Mcp-Name header (params.${field}) is required`);
  return decoded === bodyValue ? null : refuse(name!, `params.${field} is "${bodyValue}", Mcp-Name "${decoded}"`);
}

/** A header value as sent, or decoded from its `=?base64?…?=` form (UTF-8); null when that form is broken. */
export function decodeHeaderValue(value: string): string | null {
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(m[1])) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(m[1], 'base64'));
  } catch {
    return null;
  }
}

/** The methods whose results carry cache hints (the revision's cacheable results). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * A handshake-era answer in the stateless revision's form: `resultType: "complete"` on a result,
 * the cache hint on a cacheable one, a resources/read miss as -32602 with the URI (the revision's
 * code; the handshake era's -32002 otherwise), and an unknown method as HTTP 404.
 */
export function modernAnswer(answer: Answer, request: JsonRpcRequest, hint: CacheHint): Answer {
  if (answer instanceof SerializedToolResult) return answer.withResultType();
  if (answer instanceof Rejection) return answer;
  if (answer instanceof Refusal)
    return new Refusal(modernResponse(answer.answer, request, hint), answer.status, answer.headers, answer.silent);
  // a method the revision does not have is answered at its dispatch gate: 404, as its HTTP binding has it
  if ('error' in answer && answer.error.code === JSONRPC.METHOD_NOT_FOUND) return new Rejection(answer, 404);
  return modernResponse(answer, request, hint);
}

function modernResponse(response: JsonRpcResponse, request: JsonRpcRequest, hint: CacheHint): JsonRpcResponse {
  if ('error' in response) {
    if (response.error.code !== RESOURCE_NOT_FOUND) return response;
    return rpcError(response.id, JSONRPC.INVALID_PARAMS, response.error.message, { uri: request.params.uri });
  }
  const cache = CACHEABLE.has(request.method) ? hint : {};
  return { ...response, result: { resultType: 'complete', ...cache, ...(response.result as object) } };
}

const RESOURCE_NOT_FOUND = -32002;
