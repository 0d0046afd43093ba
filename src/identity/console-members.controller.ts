import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { uuidParam } from '../common/validation/uuid-param';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import {
  CreatedInvitationDto,
  CreateInvitationDto,
  CreateServiceAccountDto,
  MemberListDto,
  OkDto,
  RemovedMemberDto,
  ServiceAccountDto,
  ServiceAccountListDto,
  SetRoleDto,
} from './dto/console.dto';
import { MembersService } from './members.service';
import { NoQuery } from '../common/validation/parameterless';

const uuid = uuidParam('userId');
const invitationId = uuidParam('id');

/** A fund admin (role admin on the X-Fundgate-Fund fund, i.e. keys:manage) manages the fund's people. */
@ApiTags('console')
@Controller('api/v1/console')
@RequiresScopes('keys:manage')
@SessionAccess({ only: true })
@RateLimitPolicy('fund-minute')
export class ConsoleMembersController {
  constructor(private readonly members: MembersService) {}

  @Get('members')
  @ApiOperation({ summary: 'Members of the fund and pending invitations' })
  @Returns(MemberListDto)
  list(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<MemberListDto> {
    return this.members.list(p);
  }

  @Post('invitations')
  @ApiOperation({ summary: 'Invite a person to the fund with a role; the link is shown once and is valid 7 days' })
  @Returns(CreatedInvitationDto, { status: 201 })
  invite(@CurrentPrincipal() p: Principal, @Body() body: CreateInvitationDto): Promise<CreatedInvitationDto> {
    return this.members.invite(p, body.email, body.role);
  }

  @Delete('members/invitations/:id')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel a pending invitation: its link answers 410 from now on (404 not this fund’s, 409 already accepted)',
  })
  @Returns(OkDto)
  async cancelInvitation(@CurrentPrincipal() p: Principal, @Param('id', invitationId) id: string): Promise<OkDto> {
    await this.members.cancelInvitation(p, id);
    return { ok: true };
  }

  @Patch('members/:userId')
  @ApiOperation({ summary: "Change a member's role (the last admin cannot be demoted: 409)" })
  @Returns(OkDto)
  async setRole(
    @CurrentPrincipal() p: Principal,
    @Param('userId', uuid) userId: string,
    @Body() body: SetRoleDto,
  ): Promise<OkDto> {
    await this.members.setRole(p, userId, body.role);
    return { ok: true };
  }

  @Delete('members/:userId')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Remove a member, at once: the keys they hold or minted on the fund are revoked (with the keys minted from those), the invitations they sent that are still open are cancelled, and the webhook subscriptions they hold (created, redirected, re-enabled or re-keyed) are disabled',
  })
  @Returns(RemovedMemberDto)
  remove(@CurrentPrincipal() p: Principal, @Param('userId', uuid) userId: string): Promise<RemovedMemberDto> {
    return this.members.remove(p, userId);
  }

  @Get('service-accounts')
  @ApiOperation({ summary: 'Service identities of the fund (they own keys; they can never review proposals)' })
  @Returns(ServiceAccountListDto)
  async serviceAccounts(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<ServiceAccountListDto> {
    return { items: await this.members.serviceAccounts(p) };
  }

  @Post('service-accounts')
  @ApiOperation({ summary: 'Create a service identity named <fund>/<name>; mint its keys with account = that name' })
  @Returns(ServiceAccountDto, { status: 201 })
  createServiceAccount(
    @CurrentPrincipal() p: Principal,
    @Body() body: CreateServiceAccountDto,
  ): Promise<ServiceAccountDto> {
    return this.members.createServiceAccount(p, body.name);
  }
}
