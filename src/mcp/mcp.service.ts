import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { toProblemError } from '../common/errors/problem.filter';
import { quotedInput, sanitizeForDisplay } from '../common/validation/safe-text';
import { ToolInvoker } from './tool-invoker';
import {
  type Answer,
  type Id,
  JSONRPC,
  type JsonRpcRequest,
  type JsonRpcResponse,
  problemData,
  readMessage,
  Refusal,
  rpcError,
  SerializedToolResult,
} from './json-rpc';
import { McpCatalog, McpServerName, McpTool } from './mcp.catalog';
import { FundExtras, noteCall } from './fund-extras';
import {
  type CacheHint,
  classifyEra,
  META,
  MODERN_PROTOCOL_VERSIONS,
  modernAnswer,
  standardHeadersProblem,
} from './modern-era';

type Era = 'legacy' | 'modern';

/**
 * The handshake-era MCP revisions this server implements, newest first. 2026-07-28, the stateless
 * revision, is served beside them (modern-era.ts: a request naming it in `_meta` is of that era);
 * initialize never negotiates it (that revision has no initialize): an initialize asking for it, or for
 * any version not here, is answered with LATEST_PROTOCOL_VERSION, as the lifecycle spec has it.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
/**
 * 2026-06-18 is not an MCP revision: it is the version the interface spec's documented initialize
 * example sends, so fundgate accepts it as its own alias of 2025-11-25 (the same behaviour): initialize
 * echoes it and MCP-Protocol-Version may carry it. It is never listed as supported (a client would take
 * it for a real revision).
 */
const PROTOCOL_VERSION_ALIASES: ReadonlySet<string> = new Set(['2026-06-18']);

/** Whether initialize echoes `version` and MCP-Protocol-Version may carry it. */
export function acceptsProtocolVersion(version: string): boolean {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version) || PROTOCOL_VERSION_ALIASES.has(version);
}
/**
 * JSON-RPC batches exist in the 2025-03-26 revision only (2025-06-18 removed them). A request without
 * MCP-Protocol-Version is taken as 2025-03-26, as the transport spec says.
 */
const BATCH_VERSIONS = ['2025-03-26', '2024-11-05'];
const MAX_BATCH = 20;

const INSTRUCTIONS: Record<McpServerName, string> = {
  fund:
    'Read the books of the fund your API key is bound to (shadow NAV reconciled against the administrator). ' +
    'Amounts are decimal strings. Write tools only stage maker-checker proposals that a human manager approves; ' +
    'withdraw_proposal takes back your own proposal while it is still pending.',
  public:
    'Free, stateless fund calculators (fees with high-water mark and hurdle, NAV roll-forward checks, exposure, ' +
    'operating costs, back-office savings, fund health, LP report grading). Results are illustrative estimates.',
};

/**
 * A stateless MCP server over Streamable HTTP (JSON responses). Each tools/call runs the REST route
 * in-process, so a tool answers exactly what REST answers, through the same auth, validation,
 * rate limits, redaction and activity log.
 */
@Injectable()
export class McpService {
  constructor(
    private readonly catalog: McpCatalog,
    private readonly invoker: ToolInvoker,
    private readonly extras: FundExtras,
  ) {}

  /** Returns null for a notification, or a batch of notifications only (HTTP 202, no body). */
  async handle(
    server: McpServerName,
    req: FastifyRequest,
    reply: FastifyReply,
    message: unknown,
  ): Promise<Answer | Answer[] | null> {
    const era = classifyEra(req.headers, message);
    if (era.era === 'rejected')
      return (await this.countFree(req, reply, era.rejection.answer.id, false)) ?? era.rejection;
    if (era.era === 'modern') return this.handleModern(server, req, reply, message);
    if (!Array.isArray(message)) return this.handleOne(server, req, reply, message, false);
    const refused = refusedBatch(req, message);
    if (refused) return (await this.countFree(req, reply, null, false)) ?? refused;
    const answers: Answer[] = [];
    let silent: Refusal | null = null; // a refused notification: answered only when nothing else is
    for (const item of message) {
      const answer = await this.handleOne(server, req, reply, item, true);
      if (answer instanceof Refusal && answer.silent) silent = answer;
      else if (answer !== null) answers.push(answer);
    }
    return answers.length > 0 ? answers : silent;
  }

  /**
   * One message of MCP 2026-07-28 (never a batch): its standard headers checked, then dispatched as a
   * handshake-era message would be, and its answer put in that revision's form (modernAnswer).
   */
  private async handleModern(
    server: McpServerName,
    req: FastifyRequest,
    reply: FastifyReply,
    message: unknown,
  ): Promise<Answer | null> {
    const read = readMessage(message);
    if (!('request' in read)) return this.handleOne(server, req, reply, message, false); // a notification
    const problem = standardHeadersProblem(req.headers, read.request);
    if (problem) return (await this.countFree(req, reply, read.request.id, false)) ?? problem;
    const answer = await this.handleOne(server, req, reply, message, false, 'modern');
    return answer && modernAnswer(answer, read.request, cacheHint(server, read.request.method));
  }

  /**
   * One message. A tools/call or resources/read that reaches its tool is counted by the tool's route
   * policy (ToolInvoker); every other message (initialize, ping, lists, prompts, an unknown tool, a
   * malformed or notification message) is counted here first, once, against `mcp-minute` — per key,
   * or per address without one — and never against `fund-minute` or `calc-daily`. So a
   * plain tools/call costs no second count and no extra Redis round trip.
   */
  private async handleOne(
    server: McpServerName,
    req: FastifyRequest,
    reply: FastifyReply,
    message: unknown,
    inBatch: boolean,
    era: Era = 'legacy',
  ): Promise<Answer | null> {
    const read = readMessage(message);
    const request = 'request' in read ? read.request : null;
    if (request === null || !this.countedByTool(server, request, req)) {
      const answer = 'answer' in read ? read.answer : undefined;
      const refused = await this.countFree(req, reply, request?.id ?? answer?.id ?? null, answer === null);
      if (refused) return refused;
    }
    if (request === null) return (read as { answer: JsonRpcResponse | null }).answer;
    if (inBatch && request.method === 'initialize')
      return rpcError(request.id, JSONRPC.INVALID_REQUEST, 'initialize must not be part of a batch');
    return this.dispatch(server, req, reply, request, era);
  }

  /** Whether the message's call reaches a tool whose route policy counts it (see handleOne). */
  private countedByTool(server: McpServerName, { method, params }: JsonRpcRequest, req: FastifyRequest): boolean {
    const scopes = req.principal?.scopes ?? [];
    if (method === 'tools/call') {
      const args = params.arguments ?? {};
      if (typeof params.name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args))
        return false;
      return this.catalog.find(server, params.name, scopes)?.route.policy !== undefined;
    }
    if (method === 'resources/read' && server === 'fund')
      return this.extras.readableThrough(params.uri, scopes)?.tool.route.policy !== undefined;
    return false;
  }

  /**
   * The count of a message that makes no counted call; its refusal if the window is spent. Redis away
   * (503) is not a refusal of one message: it ends the request, as on REST.
   */
  private async countFree(req: FastifyRequest, reply: FastifyReply, id: Id, silent: boolean): Promise<Refusal | null> {
    try {
      await this.invoker.countMessage(req, reply);
      return null;
    } catch (err) {
      if (!(err instanceof ProblemError) || err.code !== 'rate_limited') throw err;
      return Refusal.of(id, err, silent);
    }
  }

  private async dispatch(
    server: McpServerName,
    req: FastifyRequest,
    reply: FastifyReply,
    { id, method, params }: JsonRpcRequest,
    era: Era,
  ): Promise<Answer> {
    const scopes = req.principal?.scopes ?? [];
    if (!ERA_METHODS[era](method)) return rpcError(id, JSONRPC.METHOD_NOT_FOUND, `method not found: ${method}`);
    switch (method) {
      case 'initialize': {
        const asked = params.protocolVersion;
        const protocolVersion =
          typeof asked === 'string' && acceptsProtocolVersion(asked) ? asked : LATEST_PROTOCOL_VERSION;
        const { capabilities, serverInfo, instructions } = this.describeServer(server, scopes);
        return { jsonrpc: '2.0', id, result: { protocolVersion, capabilities, serverInfo, instructions } };
      }
      case 'server/discover': {
        const { capabilities, serverInfo, instructions } = this.describeServer(server, scopes);
        const supportedVersions = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];
        const _meta = { [META.serverInfo]: serverInfo };
        return { jsonrpc: '2.0', id, result: { supportedVersions, capabilities, instructions, _meta } };
      }
      case 'ping':
        return { jsonrpc: '2.0', id, result: {} };
      case 'tools/list':
        return { jsonrpc: '2.0', id, result: { tools: this.catalog.toolsFor(server, scopes).map(describe) } };
      case 'tools/call': {
        const name = params.name;
        const args = params.arguments ?? {};
        if (typeof name !== 'string') return rpcError(id, JSONRPC.INVALID_PARAMS, 'params.name must be a string');
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          return rpcError(id, JSONRPC.INVALID_PARAMS, 'params.arguments must be an object');
        const tool = this.catalog.find(server, name, scopes);
        if (!tool) {
          noteCall(req, sanitizeForDisplay(name, 100), 404); // probing for tools shows in the log
          return rpcError(id, JSONRPC.INVALID_PARAMS, `unknown tool: ${quotedInput(name)}`);
        }
        return this.callTool(id, tool, req, reply, args as Record<string, unknown>);
      }
      default:
        if (server === 'fund' && /^(resources|prompts)\//.test(method))
          return this.extras.answer(id, method, params, req, reply);
        return rpcError(id, JSONRPC.METHOD_NOT_FOUND, `method not found: ${method}`);
    }
  }

  /** What initialize (and server/discover) say of a server: its capabilities for these scopes, identity, instructions. */
  private describeServer(server: McpServerName, scopes: readonly Scope[]) {
    return {
      capabilities: server === 'fund' ? this.extras.capabilities(scopes) : { tools: { listChanged: false } },
      serverInfo: {
        name: server === 'fund' ? 'fundgate-fund' : 'fundgate-public',
        title: server === 'fund' ? 'fundgate fund data' : 'fundgate calculators',
        version: '1.0.0',
      },
      instructions: INSTRUCTIONS[server],
    };
  }

  /** Runs the tool's route in-process (ToolInvoker); a refusal becomes an isError result naming the field. */
  private async callTool(
    id: Id,
    tool: McpTool,
    req: FastifyRequest,
    reply: FastifyReply,
    args: Record<string, unknown>,
  ): Promise<Answer> {
    try {
      const body = await this.invoker.invoke(tool, req, reply, args);
      noteCall(req, tool.name, 200);
      return SerializedToolResult.of(id, body, tool.wrapsArray);
    } catch (err) {
      const problem = toProblemError(err, req);
      noteCall(req, tool.name, problem.status);
      if (problem.status >= 500 && problem.code !== 'unavailable') {
        const detail = `quote request id ${req.id}`;
        return rpcError(id, JSONRPC.INTERNAL, `the tool failed; ${detail}`, problemData(problem, detail));
      }
      // Retry-After (a rate limit, busy calculators) goes on the HTTP answer only if every answer is such a refusal
      return problem.headers
        ? new Refusal(problemResult(id, problem), 200, problem.headers)
        : problemResult(id, problem);
    }
  }
}

interface ProblemLike {
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
}

function problemResult(id: Id, p: ProblemLike): JsonRpcResponse {
  const fields = p.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: [{ type: 'text', text: `${p.code ?? 'error'}: ${fields || p.detail || 'request refused'}` }],
      isError: true,
    },
  };
}

/** A batch the transport refuses whole: in a version without batches, or of the wrong size. */
function refusedBatch(req: FastifyRequest, batch: unknown[]): JsonRpcResponse | null {
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !BATCH_VERSIONS.includes(version))
    return rpcError(
      null,
      JSONRPC.INVALID_REQUEST,
      `batch requests are not part of MCP ${version}; send one message per request`,
    );
  if (batch.length === 0 || batch.length > MAX_BATCH)
    return rpcError(null, JSONRPC.INVALID_REQUEST, `a batch holds 1 to ${MAX_BATCH} messages`);
  return null;
}

/**
 * The methods of each era: the stateless revision has no initialize (nor its notification) and no
 * ping; server/discover exists only there.
 */
const ERA_METHODS: Record<Era, (method: string) => boolean> = {
  legacy: (method) => method !== 'server/discover',
  modern: (method) => method !== 'initialize' && method !== 'ping',
};

/**
 * How long a stateless-era client may reuse a result: lists and server/discover 5 minutes (they change
 * with a deployment; the fund server's follow the caller's scopes, so they are private to it), a
 * resource read (live fund data) not at all.
 */
function cacheHint(server: McpServerName, method: string): CacheHint {
  if (method === 'resources/read') return { ttlMs: 0, cacheScope: 'private' };
  return { ttlMs: 300_000, cacheScope: server === 'public' ? 'public' : 'private' };
}

function describe(t: McpTool) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: { title: t.title, ...t.annotations },
  };
}
