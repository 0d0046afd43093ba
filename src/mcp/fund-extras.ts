import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../common/auth/scopes';
import { toProblemError } from '../common/errors/problem.filter';
import { quotedInput } from '../common/validation/safe-text';
import { type Answer, type Id, JSONRPC, problemAnswer, rpcError } from './json-rpc';
import { McpCatalog, type McpTool } from './mcp.catalog';
import {
  FUND_RESOURCES,
  type FundResource,
  PROMPT_SCOPES,
  promptGetResult,
  promptsListResult,
  resourcesListResult,
} from './mcp-resources';
import { ToolInvoker } from './tool-invoker';

/** MCP's own code for a resource that does not exist (or that the caller may not read). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * resources/* and prompts/* of the fund server, for the caller's scopes, as tools are: a resource is
 * offered when the caller may call the read tool it is read through, the prompts (which cite read
 * tools) to holders of PROMPT_SCOPES. What is not offered is not advertised (no capability in
 * initialize, not listed) and is answered as unknown, never as a scope refusal.
 */
@Injectable()
export class FundExtras {
  constructor(
    private readonly catalog: McpCatalog,
    private readonly invoker: ToolInvoker,
  ) {}

  /** The fund server's capabilities for these scopes. */
  capabilities(scopes: readonly Scope[]): Record<string, object> {
    return {
      tools: { listChanged: false },
      ...(this.resources(scopes).length > 0 ? { resources: { listChanged: false, subscribe: false } } : {}),
      ...(offersPrompts(scopes) ? { prompts: { listChanged: false } } : {}),
    };
  }

  /** The read tool a resource is read through, when the caller may read it (resources/read counts by its policy). */
  readableThrough(uri: unknown, scopes: readonly Scope[]): { resource: FundResource; tool: McpTool } | undefined {
    const resource = FUND_RESOURCES.find((r) => r.uri === uri);
    const tool = resource && this.catalog.find('fund', resource.tool, scopes);
    return resource && tool ? { resource, tool } : undefined;
  }

  async answer(
    id: Id,
    method: string,
    params: Record<string, unknown>,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Answer> {
    const scopes = req.principal?.scopes ?? [];
    switch (method) {
      case 'resources/list':
        return { jsonrpc: '2.0', id, result: resourcesListResult(this.resources(scopes)) };
      case 'resources/templates/list':
        return { jsonrpc: '2.0', id, result: { resourceTemplates: [] } };
      case 'resources/read':
        return this.read(id, params.uri, req, reply);
      case 'prompts/list':
        return { jsonrpc: '2.0', id, result: offersPrompts(scopes) ? promptsListResult() : { prompts: [] } };
      case 'prompts/get': {
        const answer = offersPrompts(scopes)
          ? promptGetResult(params)
          : { refused: `unknown prompt: ${quotedInput(params.name)}` };
        return 'result' in answer
          ? { jsonrpc: '2.0', id, result: answer.result }
          : rpcError(id, JSONRPC.INVALID_PARAMS, answer.refused);
      }
      default:
        return rpcError(id, JSONRPC.METHOD_NOT_FOUND, `method not found: ${method}`);
    }
  }

  private resources(scopes: readonly Scope[]): FundResource[] {
    return FUND_RESOURCES.filter((r) => this.catalog.find('fund', r.tool, scopes));
  }

  /** A resource read through its REST route in-process; a refusal is a JSON-RPC error carrying the problem. */
  private async read(id: Id, uri: unknown, req: FastifyRequest, reply: FastifyReply): Promise<Answer> {
    const readable = this.readableThrough(uri, req.principal?.scopes ?? []);
    if (!readable) {
      noteCall(req, 'resources/read', 404);
      return rpcError(id, RESOURCE_NOT_FOUND, `resource not found: ${quotedInput(uri)}`);
    }
    const { resource, tool } = readable;
    try {
      const body = await this.invoker.invoke(tool, req, reply, {});
      noteCall(req, tool.name, 200);
      const text = JSON.stringify(body);
      return { jsonrpc: '2.0', id, result: { contents: [{ uri: resource.uri, mimeType: 'application/json', text }] } };
    } catch (err) {
      const problem = toProblemError(err, req);
      noteCall(req, tool.name, problem.status);
      return problemAnswer(id, problem, String(req.id));
    }
  }
}

const offersPrompts = (scopes: readonly Scope[]): boolean => PROMPT_SCOPES.every((s) => scopes.includes(s));

/** One row of the activity log per tool call, with the status the same call answers over REST. */
export function noteCall(req: FastifyRequest, tool: string, status: number): void {
  (req.mcpCalls ??= []).push({ tool, status });
}
