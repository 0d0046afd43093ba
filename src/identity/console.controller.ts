import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, PublicRoute, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import {
  AcceptInvitationDto,
  InvitationPreviewDto,
  OkDto,
  SessionDto,
  SignedOutEverywhereDto,
  SignInDto,
  SignUpDto,
} from './dto/console.dto';
import { MembersService } from './members.service';
import { SignInService } from './sign-in.service';
import { NoQuery } from '../common/validation/parameterless';
import { APP_CONFIG, AppConfig } from '../config/config';

/** Whether anyone may create an account (CONSOLE_SIGNUP): the sign-in page links to sign-up only then. */
export class SignUpAvailabilityDto {
  @ApiProperty({ description: 'POST /api/v1/console/sign-up accepts new people (CONSOLE_SIGNUP)' }) enabled: boolean;
}

/** Console sign-in, sign-up, sessions and invitation acceptance (session cookie; CSRF on state changes). */
@ApiTags('console')
@Controller('api/v1/console')
@RateLimitPolicy('fund-minute')
export class ConsoleController {
  constructor(
    private readonly signIn: SignInService,
    private readonly members: MembersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary:
      'Sign in with email and password (and TOTP code when enrolled); sets a new session cookie. Same 401 for unknown email and wrong password; 429 after 5 failures in 15 minutes.',
  })
  @Returns(SessionDto)
  signInRoute(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: SignInDto,
  ): Promise<SessionDto> {
    return this.signIn.signIn(req, reply, body);
  }

  @Post('sign-up')
  @HttpCode(201)
  @PublicRoute()
  @ApiOperation({ summary: 'Create a person (no fund, plan free) and sign in; 403 when CONSOLE_SIGNUP is off' })
  @Returns(SessionDto, { status: 201 })
  signUp(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: SignUpDto,
  ): Promise<SessionDto> {
    return this.signIn.signUp(req, reply, body);
  }

  @Get('sign-up')
  @PublicRoute()
  @ApiOperation({ summary: 'Whether sign-up is open (CONSOLE_SIGNUP), for the sign-in page before anyone signs in' })
  @Returns(SignUpAvailabilityDto)
  signUpAvailability(@NoQuery() _none: unknown): SignUpAvailabilityDto {
    return { enabled: this.config.consoleSignup };
  }

  @Get('session')
  @RequiresScopes()
  @SessionAccess({ only: true })
  @ApiOperation({ summary: 'The signed-in person, their memberships and the CSRF token; 401 when not signed in' })
  @Returns(SessionDto)
  session(
    @Req() req: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @NoQuery() _none: unknown,
  ): Promise<SessionDto> {
    return this.signIn.sessionViewOf(req, p.userId!);
  }

  @Post('sign-out')
  @HttpCode(200)
  @RequiresScopes()
  @SessionAccess({ only: true })
  @ApiOperation({ summary: 'End this session' })
  @Returns(OkDto)
  async signOut(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() p: Principal,
  ): Promise<OkDto> {
    await this.signIn.signOut(req, reply, p);
    return { ok: true };
  }

  @Post('sign-out-everywhere')
  @HttpCode(200)
  @RequiresScopes()
  @SessionAccess({ only: true })
  @ApiOperation({
    summary:
      'End every session of this person, on every device, disconnect every OAuth app they connected (its tokens stop working at once) and void any password-reset link mailed to them; their API keys keep working',
  })
  @Returns(SignedOutEverywhereDto)
  async signOutEverywhere(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() p: Principal,
  ): Promise<SignedOutEverywhereDto> {
    return this.signIn.signOutEverywhere(req, reply, p);
  }

  @Get('invitations/:token')
  @PublicRoute()
  @ApiOperation({ summary: 'What an invitation is for (fund, role, email, expiry); 404 unknown, 410 used or expired' })
  @Returns(InvitationPreviewDto)
  preview(@Param('token') token: string, @NoQuery() _none: unknown): Promise<InvitationPreviewDto> {
    return this.members.preview(token);
  }

  @Post('invitations/:token/accept')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary:
      'Accept: signed in as the invited email (no body), or as a new person {displayName, password} (signed in afterwards). Used twice: 409.',
  })
  @Returns(SessionDto)
  accept(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
  ): Promise<SessionDto> {
    return this.members.accept(req, reply, token, body ?? {});
  }
}
