import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertScopes } from '../common/auth/auth.guard';
import type { MaybePromise } from '../common/async/maybe-promise';
import { ProblemError } from '../common/errors/problem';
import { createValidationPipe } from '../common/errors/validation';
import type { CallContext } from '../common/http/call-context';
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

  constructor(private readonly limits: RateLimitService) {}

  /**
   * The count of an MCP message that calls no tool whose route counts it (see McpService.handleOne):
   * the caller's `fund-minute` window — its key's, or its address's without one, as on the other
   * keyless routes (OAuth discovery). Synchronous when the count is decided in-process.
   */
  countMessage(req: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
    return enforceRateLimit(this.limits, 'fund-minute', req, reply);
  }

  async invoke(
    tool: McpTool,
    req: FastifyRequest,
    reply: FastifyReply,
    args: Record<string, unknown>,
  ): Promise<unknown> {
    const { route } = tool;
    assertScopes(req, tool.scopes);
    if (route.policy) await enforceRateLimit(this.limits, route.policy, req, reply);
    const { idempotencyKey, ...rest } = args;
    if (idempotencyKey !== undefined && (!tool.acceptsIdempotencyKey || typeof idempotencyKey !== 'string')) {
      throw invalid('idempotencyKey', tool.acceptsIdempotencyKey ? 'must be a string' : 'is not a known field');
    }
    const input = await this.inputOf(tool, rest);
    const call: CallContext = { idempotencyKey, idempotencyField: 'idempotencyKey', header: NO_HEADERS };
    return route.handler.apply(route.instance, argumentsOf(route.binding, req, input, call));
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

function argumentsOf(binding: ToolBinding, req: FastifyRequest, input: unknown, call: CallContext): unknown[] {
  switch (binding) {
    case 'input':
      return [input];
    case 'principal-input':
      return [req.principal, input];
    case 'principal-input-call':
      return [req.principal, input, call];
  }
}

export function inputTypeOf(route: ToolRoute): ToolRoute['paramTypes'][number] {
  return route.paramTypes[route.binding === 'input' ? 0 : 1];
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

const fieldText = (e: { field: string; message: string }): string => `${e.field}: ${e.message}`;

function invalid(field: string, message: string): ProblemError {
  return new ProblemError('invalid_parameter', `${field}: ${message}`, [{ field, message }]);
}
