import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthProtectedResource, OptionalAuth, RequiresScopes } from '../common/auth/auth.decorators';
import { fundIdOf } from '../common/auth/principal';
import { ProblemError } from '../common/errors/problem';
import { CorsPolicy } from '../common/http/cors';
import { RedactedElsewhere } from '../common/redaction/redaction.interceptor';
import { APP_CONFIG, AppConfig } from '../config/config';
import { McpServerName } from './mcp.catalog';
import { httpAnswer } from './json-rpc';
import { isModernVersion } from './modern-era';
import { acceptsProtocolVersion, McpService, SUPPORTED_PROTOCOL_VERSIONS } from './mcp.service';

/**
 * Transport checks of the Streamable HTTP spec: Origin (MCP_ALLOWED_ORIGINS and the origins named
 * in CORS_ORIGINS; never `*`), Accept, MCP-Protocol-Version. A handshake-era version we do not speak
 * is a 400 with a plain JSON-RPC error (ProblemFilter); a stateless-era one (2026-07-28 and later) is
 * the body's to decide (modern-era.ts), as that revision has it.
 */
function checkTransport(req: FastifyRequest, cors: CorsPolicy): void {
  const origin = req.headers.origin;
  if (origin !== undefined && !cors.mcpOriginAllowed(origin)) {
    throw new ProblemError('forbidden', `Origin ${origin} is not allowed to call this MCP server`);
  }
  const accept = req.headers.accept ?? '*/*';
  if (!/application\/json|\*\/\*|application\/\*/.test(accept)) {
    throw new ProblemError('not_acceptable', 'Accept must include application/json (and text/event-stream)');
  }
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !acceptsProtocolVersion(version) && !isModernVersion(version.trim())) {
    throw new ProblemError(
      'invalid_request',
      `unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
    );
  }
}

const RATE_LIMIT_TEXT =
  "MCP 2026-07-28 (server/discover, the _meta envelope, Mcp-Method and Mcp-Name headers) and the handshake revisions 2025-11-25 to 2024-11-05 on the same URL. Rate limits: a tools/call (and a resources/read) counts against its route's policy (calc-daily, fund-minute, propose-minute); every other message (initialize, server/discover, ping, lists, prompts, an unknown tool; each one of a batch) against mcp-minute, its own bucket, per key or, without one, per address. A request whose every message is refused is a 429 with Retry-After.";

@ApiTags('mcp')
@Controller('api/mcp')
export class McpController {
  constructor(
    private readonly mcp: McpService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cors = new CorsPolicy(config);
  }

  private readonly cors: CorsPolicy;

  private async serve(server: McpServerName, req: FastifyRequest, reply: FastifyReply, body: unknown): Promise<void> {
    checkTransport(req, this.cors);
    if (isEmptyBody(req, body)) throw emptyBody(); // a parse error (-32700), as any body that is not JSON
    if (server === 'fund') fundIdOf(req.principal!); // a calculator-only key: 403, not an empty tool list
    const answer = await this.mcp.handle(server, req, reply, body);
    if (answer === null) {
      reply.status(202).send();
      return;
    }
    const { status, headers, json } = httpAnswer(answer);
    if (headers) reply.headers(headers);
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send(json);
  }

  @Post('public')
  @HttpCode(200)
  @OptionalAuth()
  @ApiOperation({
    summary: 'Public MCP server (JSON-RPC 2.0, Streamable HTTP, stateless): the seven calculators as tools',
    description: `No key needed; a valid key raises the calculators' daily cap. ${RATE_LIMIT_TEXT}`,
  })
  async publicServer(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown): Promise<void> {
    await this.serve('public', req, reply, body);
  }

  /** The same public server at a URL ending in /mcp, for clients that expect that path. */
  @Post('public/mcp')
  @HttpCode(200)
  @OptionalAuth()
  @ApiOperation({ summary: 'The public MCP server again, at a path ending in /mcp (same calculators, same limits)' })
  async publicServerAlias(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    await this.serve('public', req, reply, body);
  }

  @Get('public/mcp')
  @OptionalAuth()
  @ApiExcludeEndpoint()
  publicAliasGet(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  @Delete('public/mcp')
  @OptionalAuth()
  @ApiExcludeEndpoint()
  publicAliasDelete(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  @Post()
  @HttpCode(200)
  @RequiresScopes()
  @OAuthProtectedResource()
  @RedactedElsewhere('each tools/call answer is produced by the REST route, which redacts it')
  @ApiOperation({
    summary:
      'Fund MCP server (JSON-RPC 2.0, Streamable HTTP, stateless): the fund-data read tools and, for keys with fund:propose, the propose tools.',
    description:
      "Needs an API key bound to a fund, or an OAuth access token issued for this server (a 401 names its protected-resource metadata); a console session is refused. Each tool needs its route's scope, and tools/list shows only the tools the key or token's scopes allow. " +
      RATE_LIMIT_TEXT,
  })
  async fundServer(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown): Promise<void> {
    await this.serve('fund', req, reply, body);
  }

  @Get('public')
  @OptionalAuth()
  @ApiExcludeEndpoint()
  publicGet(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  @Delete('public')
  @OptionalAuth()
  @ApiExcludeEndpoint()
  publicDelete(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  @Get()
  @RequiresScopes()
  @OAuthProtectedResource()
  @RedactedElsewhere('answers nothing but 405')
  @ApiExcludeEndpoint()
  fundGet(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  @Delete()
  @RequiresScopes()
  @OAuthProtectedResource()
  @RedactedElsewhere('answers nothing but 405')
  @ApiExcludeEndpoint()
  fundDelete(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }
}

/**
 * No body at all, or an empty one: the shared JSON body parser reads an empty body as `{}` (what the
 * REST routes want), which is not what was sent, so the length tells them apart. A chunked empty body
 * (no Content-Length) still reads as `{}`, an Invalid Request.
 */
function isEmptyBody(req: FastifyRequest, body: unknown): boolean {
  if (body === undefined) return true; // `null` is JSON: an Invalid Request (-32600), not a parse error
  return (
    req.headers['content-length'] === '0' && typeof body === 'object' && body !== null && Object.keys(body).length === 0
  );
}

/** The ProblemFilter answers a refusal naming the body as a JSON-RPC parse error (HTTP 400). */
function emptyBody(): ProblemError {
  return new ProblemError('invalid_request', 'the body is empty; send one JSON-RPC message (or a batch)', [
    { field: 'body', message: 'is empty' },
  ]);
}

/** Stateless server: no SSE stream to open (GET) and no session to end (DELETE). */
function methodNotAllowed(reply: FastifyReply): void {
  reply
    .status(405)
    .header('allow', 'POST')
    .header('content-type', 'application/json; charset=utf-8')
    .send({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Method not allowed: this server accepts POST only' },
    });
}
