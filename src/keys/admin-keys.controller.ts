import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { uuidParam } from '../common/validation/uuid-param';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { CreatedKeyDto, CreateKeyDto, KeyListDto, KeyListQueryDto, RevokedKeyDto } from './dto/key.dto';
import { keySummary } from './key-views';
import { KeysService } from './keys.service';

// eslint-disable-next-line no-useless-assignment -- used by the @Param decorators below, which the rule does not see
const uuid = uuidParam('id');

@ApiTags('admin: keys')
@Controller('api/v1/admin/keys')
@RequiresScopes('keys:manage')
@SessionAccess({ selfService: true })
@RateLimitPolicy('fund-minute')
export class AdminKeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({
    summary:
      "Mint a key into the caller's own identity (or a service identity of the fund, by its admin): scopes within the role and the calling key, the caller's fund, expiry no later and plan no higher than the caller's. The secret is shown once.",
  })
  @Returns(CreatedKeyDto, { status: 201 })
  async create(@CurrentPrincipal() caller: Principal, @Body() body: CreateKeyDto): Promise<CreatedKeyDto> {
    const minted = await this.keys.mintFor(caller, {
      name: body.name,
      account: body.account,
      fund: body.fund,
      scopes: body.scopes,
      plan: body.plan ?? 'free',
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return { ...keySummary(minted.row), token: minted.key };
  }

  @Get()
  @ApiOperation({
    summary:
      "With keys:manage: every key of the caller's fund; otherwise (console session) the person's own keys on the fund, or their calculator-only keys without a fund. Newest first, keyset-paged (limit, cursor)",
  })
  @Returns(KeyListDto)
  async list(@CurrentPrincipal() caller: Principal, @Query() q: KeyListQueryDto): Promise<KeyListDto> {
    const page = await this.keys.pageVisibleTo(caller, q);
    return { items: page.rows.map(keySummary), total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a key and every key minted with it (and with those); effective on every instance within 5 seconds',
  })
  @Returns(RevokedKeyDto)
  async revoke(@CurrentPrincipal() caller: Principal, @Param('id', uuid) id: string): Promise<RevokedKeyDto> {
    const { row, derivedRevoked, disabledWebhooks } = await this.keys.revokeFor(caller, id);
    return { ...keySummary(row), derivedRevoked, disabledWebhooks };
  }
}
