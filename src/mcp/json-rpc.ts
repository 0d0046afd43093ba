import type { ProblemError } from '../common/errors/problem';
import { memoPerObject, sharedJson } from '../common/http/shared-json';

/** The JSON-RPC 2.0 envelope of the MCP servers: error codes, answers and how they go out over HTTP. */
export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  /** JSON-RPC's implementation-defined server error: a refusal for now (rate limit), as our 405 uses it too. */
  SERVER_ERROR: -32000,
} as const;

export type Id = string | number | null;
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: Id; result: unknown }
  | { jsonrpc: '2.0'; id: Id; error: { code: number; message: string; data?: unknown } };

export function rpcError(id: Id, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** `structuredContent` (the answer's JSON) and its text rendering (that JSON as a JSON string), per answer object. */
interface ToolResultText {
  structured: string;
  text: string;
}
const resultText = (structured: string): ToolResultText => ({ structured, text: JSON.stringify(structured) });
const plainResult = memoPerObject((body) => resultText(sharedJson(body)));
const itemsResult = memoPerObject((body) => resultText(`{"items":${sharedJson(body)}}`));

/**
 * A successful tool result, already serialized: the answer's JSON is produced once and used both as
 * `structuredContent` and (escaped) as the text rendering. For an answer served from a cache (the
 * same object every time) both are produced once, from the same bytes REST sends (`sharedJson`).
 */
export class SerializedToolResult {
  readonly json: string;

  private constructor(
    private readonly id: string,
    private readonly result: string,
  ) {
    this.json = `{"jsonrpc":"2.0","id":${id},"result":{${result}}}`;
  }

  /** `wrap`: an array answer goes out as `{ items }` (structuredContent must be an object). */
  static of(id: Id, body: unknown, wrap = false): SerializedToolResult {
    const { structured, text } = wrap ? itemsResult(body) : plainResult(body);
    return new SerializedToolResult(
      JSON.stringify(id),
      `"content":[{"type":"text","text":${text}}],"structuredContent":${structured}`,
    );
  }

  /** The same result as MCP 2026-07-28 sends it: `resultType` first. */
  withResultType(): SerializedToolResult {
    return new SerializedToolResult(this.id, `"resultType":"complete",${this.result}`);
  }
}

/**
 * An answer that refuses a message for now: a JSON-RPC error (its rate limit is spent; status 429) or
 * a tool result with isError (its tool's rate limit, busy calculators; status 200). The HTTP answer
 * takes the headers (RateLimit, Retry-After) only when every answer of the request is a refusal, and
 * the 429 only when every one is a 429; in a batch with other answers it is one answer among them.
 * `silent`: the refused message was a notification (or a client's response), which a batch never answers.
 */
export class Refusal {
  constructor(
    readonly answer: JsonRpcResponse,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly silent = false,
  ) {}

  /** A rate-limit problem as a JSON-RPC error whose data carries the problem and retryAfter. */
  static of(id: Id, problem: ProblemError, silent = false): Refusal {
    const data = problemData(problem, problem.detail);
    return new Refusal(
      rpcError(id, JSONRPC.SERVER_ERROR, `${problem.code}: ${problem.detail}`, data),
      problem.status,
      problem.headers ?? {},
      silent,
    );
  }
}

/** A message refused before dispatch, with the HTTP status the transport gives it (MCP 2026-07-28: 400). */
export class Rejection {
  constructor(
    readonly answer: JsonRpcResponse,
    readonly status = 400,
  ) {}

  static of(id: Id, code: number, message: string, data?: unknown): Rejection {
    return new Rejection(rpcError(id, code, message, data));
  }
}

/**
 * A refused call of a well-formed request (resources/read) as a JSON-RPC error whose data carries the
 * problem: -32602 for a 4xx (bad params, not found, forbidden), -32603 for a 5xx (an internal error's
 * detail is only the request id to quote), a rate limit as a Refusal (-32000). -32600 (Invalid Request)
 * is kept for messages that are not well-formed.
 */
export function problemAnswer(id: Id, problem: ProblemError, requestId: string): Answer {
  if (problem.code === 'rate_limited') return Refusal.of(id, problem);
  const detail = problem.code === 'internal' ? `quote request id ${requestId}` : problem.detail;
  const code = problem.status >= 500 ? JSONRPC.INTERNAL : JSONRPC.INVALID_PARAMS;
  return rpcError(id, code, `${problem.code}: ${detail}`, problemData(problem, detail));
}

/** A problem as JSON-RPC error data: code, status, detail, and its field errors and retryAfter where it has them. */
export function problemData(problem: ProblemError, detail: string): Record<string, unknown> {
  const retry = Object.entries(problem.headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  return {
    code: problem.code,
    status: problem.status,
    detail,
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
    ...(retry === undefined ? {} : { retryAfter: Number(retry) }),
  };
}

export type Answer = JsonRpcResponse | SerializedToolResult | Refusal | Rejection;

const serialize = (a: Answer): string =>
  a instanceof SerializedToolResult
    ? a.json
    : JSON.stringify(a instanceof Refusal || a instanceof Rejection ? a.answer : a);

/** How a request's answer (one message's, or a batch's) goes out: status, extra headers and body. */
export function httpAnswer(answer: Answer | Answer[]): {
  status: number;
  /** Only when every answer is a refusal: its RateLimit and Retry-After. */
  headers: Record<string, string> | null;
  json: string;
} {
  // one answer that refuses nothing (every plain tool call): no array, no filter
  if (!Array.isArray(answer) && !(answer instanceof Refusal))
    return { status: answer instanceof Rejection ? answer.status : 200, headers: null, json: serialize(answer) };
  const all = Array.isArray(answer) ? answer : [answer];
  const json = Array.isArray(answer) ? `[${answer.map(serialize).join(',')}]` : serialize(answer);
  const refusals = all.filter((a): a is Refusal => a instanceof Refusal);
  if (refusals.length === 0 || refusals.length < all.length) return { status: 200, headers: null, json };
  const status = refusals.every((r) => r.status === 429) ? 429 : 200;
  return { status, headers: Object.assign({}, ...refusals.map((r) => r.headers)) as Record<string, string>, json };
}

export interface JsonRpcRequest {
  id: Id;
  method: string;
  params: Record<string, unknown>;
}

/**
 * One JSON-RPC message read: a request to dispatch, or the answer it gets without dispatch — an
 * error for a malformed one, null for a notification or a client's response (never answered).
 */
export function readMessage(message: unknown): { request: JsonRpcRequest } | { answer: JsonRpcResponse | null } {
  if (typeof message !== 'object' || message === null)
    return { answer: rpcError(null, JSONRPC.INVALID_REQUEST, 'the body must be a JSON-RPC 2.0 object') };
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const idValid = m.id === undefined || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id));
  const id = (idValid && m.id !== undefined ? m.id : null) as Id;
  // a client's response (to a server request; this server sends none) is acknowledged, never answered
  if (m.jsonrpc === '2.0' && m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m))
    return { answer: null };
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !idValid) {
    const expected = 'expected {"jsonrpc":"2.0","method":string,"id"?:string|number}';
    return { answer: rpcError(id, JSONRPC.INVALID_REQUEST, expected) };
  }
  // notifications (notifications/initialized, cancelled, ...) are never answered, not even with an error
  if (m.id === undefined) return { answer: null };
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null))
    return { answer: rpcError(id, JSONRPC.INVALID_PARAMS, 'params must be an object') };
  return { request: { id, method: m.method, params: (m.params ?? {}) as Record<string, unknown> } };
}
