import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { ConsentService, hostOf } from './consent.service';
import { browserOf } from './oauth-browser';
import {
  ApproveConsentDto,
  ConnectedAppsDto,
  ConsentOkDto,
  ConsentRedirectDto,
  ConsentViewDto,
} from './dto/consent.dto';
import { NoBody, NoQuery } from '../common/validation/parameterless';
import { uuidParam } from '../common/validation/uuid-param';

/** The console's side of OAuth: the consent page and the person's connected apps. Console session only. */

const uuid = uuidParam('id');

@ApiTags('console')
@Controller('api/v1/console/oauth')
@RequiresScopes()
@SessionAccess({ only: true })
@RateLimitPolicy('propose-minute')
export class ConsentController {
  constructor(private readonly consent: ConsentService) {}

  @Get('requests/:id')
  @ApiOperation({
    summary:
      'A pending authorization request of an MCP client: the client, the redirect host and the funds and scopes the person may grant. Only in the browser that started it (its cookie from /oauth/authorize); elsewhere 403',
  })
  @Returns(ConsentViewDto)
  view(
    @Req() req: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @NoQuery() _none: unknown,
  ): Promise<ConsentViewDto> {
    return this.consent.view(p, id, browserOf(req));
  }

  @Post('requests/:id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Connect the app: a grant on one fund with the chosen scopes (within the role; never proposals:review or keys:manage); answers the redirect carrying the code',
  })
  @Returns(ConsentRedirectDto)
  async approve(
    @Req() req: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Body() body: ApproveConsentDto,
  ): Promise<ConsentRedirectDto> {
    return { redirectTo: await this.consent.approve(p, id, browserOf(req), body) };
  }

  @Post('requests/:id/deny')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline: answers the redirect carrying error=access_denied' })
  @Returns(ConsentRedirectDto)
  async deny(
    @Req() req: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @NoBody() _none: unknown,
  ): Promise<ConsentRedirectDto> {
    return { redirectTo: await this.consent.deny(p, id, browserOf(req)) };
  }

  @Get('apps')
  @ApiOperation({ summary: "The person's connected apps (OAuth grants): client, fund, scopes, last use" })
  @Returns(ConnectedAppsDto)
  async apps(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<ConnectedAppsDto> {
    const rows = await this.consent.apps(p);
    return {
      items: rows.map((g) => ({
        id: g.id,
        clientId: g.client_id,
        clientName: g.client_name,
        clientKind: g.client_kind,
        redirectHost: hostOf(g.redirect_uris[0]),
        fund: { slug: g.fund_slug, name: g.fund_name },
        scopes: g.scopes,
        createdAt: g.created_at.toISOString(),
        lastUsedAt: g.last_used_at?.toISOString() ?? null,
      })),
    };
  }

  @Delete('apps/:id')
  @ApiOperation({ summary: 'Disconnect an app: its grant, key and every token end at once' })
  @Returns(ConsentOkDto)
  async revoke(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<ConsentOkDto> {
    await this.consent.revokeApp(p, id);
    return { ok: true };
  }
}
