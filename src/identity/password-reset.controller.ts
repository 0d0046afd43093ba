import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PublicRoute } from '../common/auth/auth.decorators';
import { Returns } from '../common/redaction/redaction.interceptor';
import { NoQuery } from '../common/validation/parameterless';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import {
  OkDto,
  PasswordResetAvailabilityDto,
  PasswordResetPreviewDto,
  PasswordResetRequestDto,
  PasswordResetRequestedDto,
  ResetPasswordDto,
} from './dto/console.dto';
import { PasswordResetService, RESET_PER_ADDRESS, RESET_PER_EMAIL } from './password-reset.service';

/**
 * "Forgot your password?" for the console: no session needed (the link in the mail is the
 * credential); POSTs must come from the console's own origin, as sign-in does.
 */
@ApiTags('console')
@Controller('api/v1/console/password-reset')
@RateLimitPolicy('fund-minute')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Get()
  @PublicRoute()
  @ApiOperation({
    summary: 'Whether password reset by email is offered (the operator configured mail), for the sign-in page',
  })
  @Returns(PasswordResetAvailabilityDto)
  availability(@NoQuery() _none: unknown): PasswordResetAvailabilityDto {
    return { enabled: this.resets.enabled };
  }

  @Post()
  @HttpCode(202)
  @PublicRoute()
  @ApiOperation({
    summary: `Ask for a password reset link by email: 202 with the same body whether or not the email has an active account (the link goes to an active one only, valid 30 minutes, once; a newer request replaces an older link); 429 after ${RESET_PER_EMAIL} requests for one email or ${RESET_PER_ADDRESS} from one address in 15 minutes; 403 when mail is not configured`,
  })
  @Returns(PasswordResetRequestedDto, { status: 202 })
  request(@Req() req: FastifyRequest, @Body() body: PasswordResetRequestDto): Promise<PasswordResetRequestedDto> {
    return this.resets.request(req, body.email);
  }

  @Get(':token')
  @PublicRoute()
  @ApiOperation({
    summary: 'What a reset link is for (masked email, expiry); 404 unknown, 410 used, replaced or expired',
  })
  @Returns(PasswordResetPreviewDto)
  preview(@Param('token') token: string, @NoQuery() _none: unknown): Promise<PasswordResetPreviewDto> {
    return this.resets.preview(token);
  }

  @Post(':token')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({
    summary:
      'Choose a new password with a reset link: ends every console session of the person and disconnects their OAuth apps (API keys and TOTP stay); sign in afterwards. 404 unknown link, 410 used, replaced or expired',
  })
  @Returns(OkDto)
  async reset(
    @Req() req: FastifyRequest,
    @Param('token') token: string,
    @Body() body: ResetPasswordDto,
  ): Promise<OkDto> {
    await this.resets.reset(req, token, body.password);
    return { ok: true };
  }
}
