import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertScopes } from '../common/auth/auth.guard';
import { createValidationPipe } from '../common/errors/validation';
import { redact } from '../common/redaction/redact';
import { NoQueryParamsPipe } from '../fund-data/common/no-query';
import { enforceRateLimit } from '../usage/rate-limit/rate-limit.guard';
import { RateLimitService } from '../usage/rate-limit/rate-limit.service';
import type { McpTool } from './mcp.catalog';

/**
 * Runs a read tool's route handler in-process, applying what the HTTP pipeline applies to a fund-data
 * read route (`@FundRead`: scope check, rate limit, the global validation pipe or `@NoQuery`, redaction
 * to the declared schema). A read route is `(principal, query)`: the registry's binding (McpCatalog)
 * gives the handler, its query DTO (design:paramtypes; `Object` means no query parameters), policy and
 * output DTO; routes of any other shape are not bound here and run through HTTP.
 */
@Injectable()
export class ToolInvoker {
  private readonly validation = createValidationPipe();
  private readonly noQuery = new NoQueryParamsPipe();

  constructor(private readonly limits: RateLimitService) {}

  static canRunInProcess(tool: McpTool): boolean {
    const { route } = tool;
    return (
      tool.method === 'GET' &&
      route.auth === 'required' &&
      route.output !== undefined &&
      route.handler.length === 2 &&
      route.paramTypes.length === 2
    );
  }

  /** The redacted answer the route gives for `query` as its query string. */
  async read(tool: McpTool, req: FastifyRequest, reply: FastifyReply, query: Record<string, string>): Promise<unknown> {
    const { route } = tool;
    if (!ToolInvoker.canRunInProcess(tool) || !route.output) throw new Error(`${tool.name} cannot run in-process`);
    assertScopes(req, tool.scopes);
    if (route.policy) await enforceRateLimit(this.limits, route.policy, req, reply);
    const queryType = route.paramTypes[1];
    const params =
      queryType === Object
        ? this.noQuery.transform({ ...query })
        : await this.validation.transform({ ...query }, { type: 'query', metatype: queryType, data: undefined });
    const result = await route.handler.call(route.instance, req.principal, params);
    return redact(result, route.output.dto, route.output.isArray);
  }
}
