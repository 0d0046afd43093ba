import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CalculatorPool, calculatorsBusy } from '../calculators/calculator-pool';
import { assertScopes } from '../common/auth/auth.guard';
import type { MaybePromise } from '../common/async/maybe-promise';
import { ProblemError } from '../common/errors/problem';
import { uuidParam } from '../common/validation/uuid-param';
import { createValidationPipe } from '../common/errors/validation';
import type { CallContext } from '../common/http/call-context';
import { DeferredJsonBody } from '../common/http/json-body';
import { NoQueryParamsPipe } from '../common/validation/parameterless';
import { enforceRateLimit } from '../usage/rate-limit/rate-limit.guard';
import { RateLimitService } from '../usage/rate-limit/rate-limit.service';
import type { McpTool, ToolBinding, ToolRoute } from './mcp.catalog';

/** Tool results carry no HTTP headers (an Idempotent-Replayed header has nowhere to go). */
const NO_HEADERS = (): void => undefined;

/**
 * The one way a tool runs: its route handler, in-process, after what the HTTP pipeline applies to that
 * route — the scope check, the route's rate-limit policy, the global validation pipe on the query or
 * body DTO (or `@NoQuery`) — and the handler redacts its own answer (installRouteRedaction), so a tool
 * answers exactly what REST answers. Arguments are bound by the route's shape (McpCatalog checks it at
 * boot): `(input)` for keyless calculators, `(principal, input)` for reads, `(principal, input, call)`
 * for propose routes, where `call` carries the tool's idempotencyKey argument.
 */
@Injectable()
export class ToolInvoker {
  private readonly validation = createValidationPipe();
  private readonly noQuery = new NoQueryParamsPipe();

  constructor(
    private readonly limits: RateLimitService,
    private readonly pool: CalculatorPool,
  ) {}

  /**
   * The count of an MCP message that calls no tool whose route counts it (see McpService.handleOne):
   * the caller's `mcp-minute` window — its key's, or its address's without one — a bucket of its own,
   * so a client's handshake and lists never spend the key's REST reads (`fund-minute`). Synchronous
   * when the count is decided in-process.
   */
  countMessage(req: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
    return enforceRateLimit(this.limits, 'mcp-minute', req, reply);
  }

  async invoke(
    tool: McpTool,
    req: FastifyRequest,
    reply: FastifyReply,
    args: Record<string, unknown>,
  ): Promise<unknown> {
    const { route } = tool;
    assertScopes(req, tool.scopes);
    const { idempotencyKey, ...rest } = args;
    const large = isLarge(tool, req, rest);
    // as REST sheds a large calculator body before reading it: before the count, the parse, the validation
    if (large && this.pool.saturated()) throw calculatorsBusy();
    if (route.policy) await enforceRateLimit(this.limits, route.policy, req, reply);
    if (idempotencyKey !== undefined && (!tool.acceptsIdempotencyKey || typeof idempotencyKey !== 'string')) {
      throw invalid('idempotencyKey', tool.acceptsIdempotencyKey ? 'must be a string' : 'is not a known field');
    }
    // the path's ids first, as Nest runs a route's parameter pipes in order (the id's, then the body's)
    const { ids, body } = await pathIdsOf(tool, rest);
    // a large calculator body is validated on the worker thread, as REST defers it (the handler's pool.run)
    const input = large ? new DeferredJsonBody(JSON.stringify(body)) : await this.inputOf(tool, body);
    const call: CallContext = { idempotencyKey, idempotencyField: 'idempotencyKey', header: NO_HEADERS };
    return route.handler.apply(route.instance, argumentsOf(route.binding, req, input, call, ids));
  }

  /** The validated query DTO (GET) or body DTO (POST), exactly as the global pipe builds it for REST. */
  private async inputOf(tool: McpTool, args: Record<string, unknown>): Promise<unknown> {
    const type = inputTypeOf(tool.route);
    if (tool.method === 'POST')
      return this.validation.transform(args, { type: 'body', metatype: type, data: undefined });
    const wrong = tool.checkArguments?.(args);
    if (wrong?.length) throw new ProblemError('invalid_parameter', wrong.map(fieldText).join('; '), wrong);
    const query = queryFromArguments(args);
    if (type === Object) return this.noQuery.transform(query);
    return this.validation.transform(query, { type: 'query', metatype: type, data: undefined });
  }
}

function argumentsOf(
  binding: ToolBinding,
  req: FastifyRequest,
  input: unknown,
  call: CallContext,
  ids: string[],
): unknown[] {
  switch (binding) {
    case 'input':
      return [input];
    case 'principal-input':
      return [req.principal, input];
    case 'principal-input-call':
      return [req.principal, input, call];
    case 'principal-path-input':
      return [req.principal, ...ids, input];
  }
}

export function inputTypeOf(route: ToolRoute): ToolRoute['paramTypes'][number] {
  if (route.binding === 'principal-path-input') return route.paramTypes[route.paramTypes.length - 1];
  return route.paramTypes[route.binding === 'input' ? 0 : 1];
}

/**
 * The tool's path arguments (McpTool.pathArguments), each checked as its REST route checks the path's
 * id (`uuidParam`), naming the argument; and the other arguments, the body.
 */
async function pathIdsOf(
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<{ ids: string[]; body: Record<string, unknown> }> {
  if (tool.pathArguments.length === 0) return { ids: [], body: args };
  const body = { ...args };
  const ids: string[] = [];
  for (const name of tool.pathArguments) {
    const value = body[name];
    delete body[name];
    if (value === undefined || value === null)
      throw new ProblemError('missing_parameter', `${name}: is required`, [{ field: name, message: 'is required' }]);
    ids.push(await uuidParam(name).transform(value as string, { type: 'param', data: name }));
  }
  return { ids, body };
}

/**
 * Tool arguments as the query string a REST client would send (values as strings), once their JSON
 * types have passed the tool's check (`McpTool.checkArguments`): the text no longer says whether 5 was "5".
 */
function queryFromArguments(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw invalid(k, 'must be a string, number or boolean');
    query[k] = String(v);
  }
  return query;
}

/**
 * Whether a calculator tool's arguments are as large as a body its REST route defers to the worker
 * pool (McpTool.deferArgumentsAt): never for a smaller request (Content-Length, free to read), else
 * their JSON length, estimated by a walk that stops at the threshold (a large text is one step).
 */
function isLarge(tool: McpTool, req: FastifyRequest, args: Record<string, unknown>): boolean {
  const at = tool.deferArgumentsAt;
  if (at === undefined || Number(req.headers['content-length'] ?? Infinity) < at) return false;
  let chars = 0;
  const pending: unknown[] = [args];
  while (pending.length > 0 && chars < at) {
    const value = pending.pop();
    if (typeof value === 'string') chars += value.length + 2;
    else if (typeof value !== 'object' || value === null) chars += String(value).length;
    else {
      const items = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
      if (!Array.isArray(value)) for (const key of Object.keys(value)) chars += key.length + 3;
      chars += items.length + 1; // each item is at least a character: at most `at` are ever pushed
      if (chars < at) for (const item of items) pending.push(item);
    }
  }
  return chars >= at;
}

const fieldText = (e: { field: string; message: string }): string => `${e.field}: ${e.message}`;

function invalid(field: string, message: string): ProblemError {
  return new ProblemError('invalid_parameter', `${field}: ${message}`, [{ field, message }]);
}
