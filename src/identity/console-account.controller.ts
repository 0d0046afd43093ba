import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { AccountService } from './account.service';
import {
  ChangePasswordDto,
  OkDto,
  RecoveryCodesDto,
  TotpCodeDto,
  TotpDisableDto,
  TotpEnrolDto,
  TotpEnrolmentDto,
} from './dto/console.dto';

/** The signed-in person's own account: password and TOTP. */
@ApiTags('console')
@Controller('api/v1/console/account')
@RequiresScopes()
@SessionAccess({ only: true })
@RateLimitPolicy('propose-minute')
export class ConsoleAccountController {
  constructor(private readonly account: AccountService) {}

  @Post('password')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Change the password; signs out every other session and disconnects every OAuth app the person connected (the person's API keys keep working)",
  })
  @Returns(OkDto)
  async password(@CurrentPrincipal() p: Principal, @Body() body: ChangePasswordDto): Promise<OkDto> {
    await this.account.changePassword(p, body.currentPassword, body.newPassword);
    return { ok: true };
  }

  @Post('totp/enroll')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Start TOTP enrolment (needs the current password): the secret and otpauth:// URL (shown once). Wrong passwords and codes on these routes count toward a per-person lockout (5 in 15 minutes)',
  })
  @Returns(TotpEnrolmentDto)
  enroll(@CurrentPrincipal() p: Principal, @Body() body: TotpEnrolDto): Promise<TotpEnrolmentDto> {
    return this.account.enroll(p, body.password);
  }

  @Post('totp/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Confirm enrolment with a first code; answers ten single-use recovery codes (shown once). The person's other sessions end",
  })
  @Returns(RecoveryCodesDto)
  confirm(@CurrentPrincipal() p: Principal, @Body() body: TotpCodeDto): Promise<RecoveryCodesDto> {
    return this.account.confirm(p, body.code);
  }

  @Post('totp/verify')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Step-up: a TOTP or recovery code marks this session verified (approvals on funds that require it, for 10 minutes)',
  })
  @Returns(OkDto)
  async verify(@CurrentPrincipal() p: Principal, @Body() body: TotpCodeDto): Promise<OkDto> {
    await this.account.verify(p, body.code);
    return { ok: true };
  }

  @Post('totp/disable')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Turn TOTP off (needs the password and a current code or a recovery code); the person's other sessions end",
  })
  @Returns(OkDto)
  async disable(@CurrentPrincipal() p: Principal, @Body() body: TotpDisableDto): Promise<OkDto> {
    await this.account.disable(p, body.code, body.password);
    return { ok: true };
  }
}
