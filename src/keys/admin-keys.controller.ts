import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { invalidParameter } from '../common/errors/problem';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { CreatedKeyDto, CreateKeyDto, KeyListDto, KeySummaryDto } from './dto/key.dto';
import { keySummary } from './key-views';
import { KeysService } from './keys.service';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => invalidParameter('id', 'must be a UUID') });

@ApiTags('admin: keys')
@Controller('api/v1/admin/keys')
@RequiresScopes('keys:manage')
@RateLimitPolicy('fund-minute')
export class AdminKeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({ summary: 'Mint a key (never with a scope, fund or plan the calling key does not hold). The secret is shown once.' })
  @Returns(CreatedKeyDto, { status: 201 })
  async create(@CurrentPrincipal() caller: Principal, @Body() body: CreateKeyDto): Promise<CreatedKeyDto> {
    const minted = await this.keys.mintFor(caller, {
      name: body.name,
      accountName: body.account,
      fundSlug: body.fund === undefined ? (caller.fund?.slug ?? null) : body.fund,
      scopes: body.scopes,
      plan: body.plan ?? 'free',
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return {
      id: minted.id, name: minted.name, displayPrefix: minted.displayPrefix, lastFour: minted.lastFour,
      scopes: minted.scopes, fund: minted.fund, plan: minted.plan, account: minted.account,
      createdAt: minted.createdAt, expiresAt: minted.expiresAt, revokedAt: null, lastUsedAt: null, token: minted.key,
    };
  }

  @Get()
  @ApiOperation({ summary: 'Keys of the calling key\'s fund (or, without a fund, those its account created)' })
  @Returns(KeyListDto)
  async list(@CurrentPrincipal() caller: Principal): Promise<KeyListDto> {
    const rows = await this.keys.listVisibleTo(caller);
    return { items: rows.map(keySummary), total: rows.length };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key; effective on every instance within 5 seconds' })
  @Returns(KeySummaryDto)
  async revoke(@CurrentPrincipal() caller: Principal, @Param('id', uuid) id: string): Promise<KeySummaryDto> {
    return keySummary(await this.keys.revokeFor(caller, id));
  }
}
