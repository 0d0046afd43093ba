import { Body, Controller, Get, Headers, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicRoute } from '../common/auth/auth.decorators';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { ClientMetadata, ClientsService } from './clients.service';
import { OAuthError, OAuthReturnError } from './oauth-error';
import { GRANTABLE_SCOPES, mcpResource, resourceMetadataUrl } from './oauth-tokens';
import { bindBrowser } from './oauth-browser';
import { AUTHORIZATION_REQUEST_SECONDS, OAuthService } from './oauth.service';

type Params = Record<string, unknown>;

/**
 * The OAuth 2.1 endpoints MCP clients discover from the MCP server's 401: protected resource metadata
 * (RFC 9728), authorization server metadata (RFC 8414), authorize, token, revocation (RFC 7009) and
 * dynamic registration (RFC 7591). Their shapes are those RFCs' (not problem+json), so they are left
 * out of the OpenAPI document.
 */
@Controller()
@PublicRoute()
@RateLimitPolicy('fund-minute')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly clients: ClientsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private resourceMetadata() {
    return {
      resource: mcpResource(this.config),
      authorization_servers: [this.config.publicBaseUrl],
      scopes_supported: [...GRANTABLE_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'fundgate fund MCP server',
      resource_documentation: `${this.config.publicBaseUrl}/api/docs`,
    };
  }

  /**
   * RFC 9728 §3.3: a document's `resource` must be the resource identifier its well-known URL was built
   * from, so the root document would describe the origin, which is no protected resource here (the
   * REST API takes keys; OAuth access tokens work on /api/mcp only). Advertising /api/mcp here made a
   * client that checks that rule discard it, and advertising the origin would send clients asking for
   * tokens we do not issue. So 404, naming the document the fund MCP server's 401 points to (MCP clients
   * try that path-specific URL first, and the root only when it is missing).
   */
  @Get('.well-known/oauth-protected-resource')
  @ApiExcludeEndpoint()
  protectedResource(@Res() reply: FastifyReply): void {
    json(reply, 404, {
      error: 'not_found',
      error_description: `this origin is not an OAuth protected resource; the fund MCP server's metadata is ${resourceMetadataUrl(this.config)}`,
    });
  }

  @Get('.well-known/oauth-protected-resource/api/mcp')
  @ApiExcludeEndpoint()
  protectedResourceOfPath(@Res() reply: FastifyReply): void {
    json(reply, 200, this.resourceMetadata());
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiExcludeEndpoint()
  authorizationServer(@Res() reply: FastifyReply): void {
    const base = this.config.publicBaseUrl;
    json(reply, 200, {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: [...GRANTABLE_SCOPES],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: `${base}/api/docs`,
    });
  }

  @Get('oauth/authorize')
  @ApiExcludeEndpoint()
  async authorize(@Query() query: Params, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const location = await this.oauth.authorize(query, () => bindBrowser(req, reply, AUTHORIZATION_REQUEST_SECONDS));
      reply.status(302).header('location', location).header('cache-control', 'no-store').send();
    } catch (err) {
      oauthError(reply, err);
    }
  }

  @Post('oauth/token')
  @ApiExcludeEndpoint()
  async token(
    @Body() body: Params,
    @Headers('authorization') authorization: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    try {
      json(reply, 200, await this.oauth.token(body ?? {}, authorization));
    } catch (err) {
      oauthError(reply, err);
    }
  }

  @Post('oauth/revoke')
  @ApiExcludeEndpoint()
  async revoke(
    @Body() body: Params,
    @Headers('authorization') authorization: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    try {
      await this.oauth.revoke(body ?? {}, authorization);
      reply.status(200).header('cache-control', 'no-store').send();
    } catch (err) {
      oauthError(reply, err);
    }
  }

  @Post('oauth/register')
  @ApiExcludeEndpoint()
  async register(@Body() body: ClientMetadata, @Res() reply: FastifyReply): Promise<void> {
    try {
      json(reply, 201, await this.clients.register(body ?? {}));
    } catch (err) {
      oauthError(reply, err);
    }
  }
}

function json(reply: FastifyReply, status: number, body: unknown): void {
  reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}

function oauthError(reply: FastifyReply, err: unknown): void {
  if (err instanceof OAuthReturnError) return returnPage(reply, err);
  if (!(err instanceof OAuthError)) throw err;
  if (err.status === 401) reply.header('www-authenticate', 'Basic realm="fundgate"');
  json(reply, err.status, err.body());
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A refused authorization request: what was wrong, and a link (the person's choice) back to the application. */
function returnPage(reply: FastifyReply, err: OAuthReturnError): void {
  const target = new URL(err.returnTo);
  const host = target.host || `${target.protocol}${target.pathname}`; // a native app's private-use scheme has no host
  reply
    .status(400)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>Authorization request refused — fundgate</title></head><body><main>` +
        `<h1>The application's authorization request was refused</h1>` +
        `<p>${escapeHtml(err.description)} (<code>${escapeHtml(err.error)}</code>).</p>` +
        `<p><a href="${escapeHtml(err.returnTo)}">Return to ${escapeHtml(host)}</a> (it will be told why).</p>` +
        `</main></body></html>`,
    );
}
