import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { PLANS, ROLES, SCOPES } from '../../common/auth/scopes';
import { MaxCodePoints } from '../../common/validation/code-points';
import { DeliberatelyServed } from '../../common/redaction/redact';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../password';
import { NotBlank } from '../../common/validation/not-blank';

const OWN_EMAIL = DeliberatelyServed("the signed-in person's own email");
const MEMBER_EMAIL = DeliberatelyServed("fund admins see the emails of the fund's members and invitees");

const ROLE_LIST = ROLES as unknown as string[];

/**
 * A password being set: MIN_PASSWORD_LENGTH to MAX_PASSWORD_LENGTH characters, each bound named in its
 * own message, and not only spaces (twelve spaces passed the length check).
 */
const NewPassword = () =>
  applyDecorators(
    IsString(),
    MinLength(MIN_PASSWORD_LENGTH, { message: `$property must be at least ${MIN_PASSWORD_LENGTH} characters` }),
    MaxLength(MAX_PASSWORD_LENGTH, { message: `$property must be at most ${MAX_PASSWORD_LENGTH} characters` }),
    NotBlank(),
  );

export class SignInDto {
  @ApiProperty({ example: 'demo-admin@fundgate.dev' }) @IsString() @Length(3, 320) email: string;
  @ApiProperty({ format: 'password' }) @IsString() @Length(1, MAX_PASSWORD_LENGTH) password: string;
  @ApiPropertyOptional({ description: 'TOTP code (or a recovery code) when the account has TOTP enabled' })
  @Optional()
  @IsString()
  @Length(6, 40)
  totpCode?: string;
}

export class SignUpDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 200 }) @IsEmail() @MaxCodePoints(200) email: string;
  @ApiProperty({ example: 'Ada Lovelace' })
  @IsString()
  @Length(1, 200)
  @MaxCodePoints(200)
  @NotBlank()
  displayName: string;
  @ApiProperty({ format: 'password', minLength: MIN_PASSWORD_LENGTH })
  @NewPassword()
  password: string;
}

export class SessionUserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() @OWN_EMAIL email: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: PLANS }) plan: string;
  @ApiProperty() totpEnabled: boolean;
}

export class ConsoleFundRefDto {
  @ApiProperty({ example: 'demo' }) slug: string;
  @ApiProperty() name: string;
}

export class MembershipDto {
  @ApiProperty({ type: ConsoleFundRefDto }) fund: ConsoleFundRefDto;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ description: 'Approvals on this fund need a TOTP check in the last 10 minutes' })
  approvalRequiresTotp: boolean;
}

export class SessionDto {
  @ApiProperty({ type: SessionUserDto }) user: SessionUserDto;
  @ApiProperty({ type: MembershipDto, isArray: true }) memberships: MembershipDto[];
  @ApiProperty({ description: 'Send as X-CSRF-Token on every state-changing console request' }) csrfToken: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) totpVerifiedAt: string | null;
  @ApiProperty() signupEnabled: boolean;
}

export class OkDto {
  @ApiProperty({ example: true }) ok: boolean;
}

export class SignedOutEverywhereDto {
  @ApiProperty({ example: 3 }) revokedSessions: number;
  @ApiProperty({
    example: 1,
    description: "OAuth apps disconnected (their grants, tokens and keys end); the person's API keys are not revoked",
  })
  disconnectedApps: number;
}

export class InvitationPreviewDto {
  @ApiProperty({ type: ConsoleFundRefDto }) fund: ConsoleFundRefDto;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty() @DeliberatelyServed("the invitation's email, to the holder of its link") email: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class AcceptInvitationDto {
  @ApiPropertyOptional({ description: 'For a new person' })
  @Optional()
  @IsString()
  @Length(1, 200)
  @MaxCodePoints(200)
  @NotBlank()
  displayName?: string;
  @ApiPropertyOptional({ format: 'password', description: 'For a new person', minLength: MIN_PASSWORD_LENGTH })
  @Optional()
  @NewPassword()
  password?: string;
}

export class MemberDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() @MEMBER_EMAIL email: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class InvitationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() @MEMBER_EMAIL email: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class MemberListDto {
  @ApiProperty({ type: MemberDto, isArray: true }) items: MemberDto[];
  @ApiProperty({ type: InvitationDto, isArray: true, description: 'Pending invitations' }) invitations: InvitationDto[];
}

export class CreateInvitationDto {
  @ApiProperty({
    example: 'bob@example.com',
    maxLength: 200,
    description: 'The account created on acceptance is named by it',
  })
  @IsEmail()
  @MaxCodePoints(200)
  email: string;
  @ApiProperty({ enum: ROLES }) @IsIn(ROLE_LIST) role: (typeof ROLES)[number];
}

export class CreatedInvitationDto extends InvitationDto {
  @ApiProperty({ description: 'The invitation token, shown once' }) token: string;
  @ApiProperty({ description: 'The link to send to the invited person, shown once; valid 7 days' }) inviteUrl: string;
}

export class SetRoleDto {
  @ApiProperty({ enum: ROLES }) @IsIn(ROLE_LIST) role: (typeof ROLES)[number];
}

export class RemovedMemberDto {
  @ApiProperty({
    description:
      'Keys revoked now: those the removed person held or minted on this fund (service keys included), and every key minted from those',
  })
  revokedKeys: number;
  @ApiProperty({ description: 'Pending invitations the removed person had sent, cancelled now' })
  cancelledInvitations: number;
  @ApiProperty({
    description:
      'Webhook subscriptions the removed person held (created, redirected, re-enabled or re-keyed), disabled now (they chose the URLs or knew the signing secrets): re-enable after checking the URL, and rotate the secret',
  })
  disabledWebhooks: number;
  @ApiProperty({ description: 'OAuth apps the removed person had connected to this fund, disconnected now' })
  disconnectedApps: number;
}

export class ServiceAccountDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'demo/reporting-bot' }) name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ServiceAccountListDto {
  @ApiProperty({ type: ServiceAccountDto, isArray: true }) items: ServiceAccountDto[];
}

export class CreateServiceAccountDto {
  @ApiProperty({ example: 'reporting-bot' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'name must be lower-case letters, digits and dashes' })
  name: string;
}

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' }) @IsString() @Length(1, MAX_PASSWORD_LENGTH) currentPassword: string;
  @ApiProperty({ format: 'password', minLength: MIN_PASSWORD_LENGTH })
  @NewPassword()
  newPassword: string;
}

export class TotpEnrolmentDto {
  @ApiProperty({ description: 'Base32 secret, shown once' })
  @DeliberatelyServed('the TOTP secret, shown once to the person enrolling')
  secret: string;
  @ApiProperty({ example: 'otpauth://totp/fundgate:ada%40example.com?secret=…' }) otpauthUrl: string;
}

export class TotpCodeDto {
  @ApiProperty({ example: '123456', description: 'A TOTP code (verify and disable also take a recovery code)' })
  @IsString()
  @Length(6, 40)
  code: string;
}

export class TotpEnrolDto {
  @ApiProperty({ format: 'password', description: "The person's current password" })
  @IsString()
  @Length(1, MAX_PASSWORD_LENGTH)
  password: string;
}

export class TotpDisableDto extends TotpCodeDto {
  @ApiProperty({ format: 'password', description: "The person's current password" })
  @IsString()
  @Length(1, MAX_PASSWORD_LENGTH)
  password: string;
}

export class RecoveryCodesDto {
  @ApiProperty({ type: String, isArray: true, description: 'Ten single-use recovery codes, shown once' })
  recoveryCodes: string[];
}

export class PasswordResetRequestDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 320 }) @IsEmail() @MaxCodePoints(320) email: string;
}

export class PasswordResetRequestedDto {
  @ApiProperty({
    description: 'The same answer whether or not an active account uses the email (no account enumeration)',
  })
  message: string;
  @ApiProperty({ example: 30, description: 'How long a link sent now stays valid' }) expiresInMinutes: number;
}

export class PasswordResetAvailabilityDto {
  @ApiProperty({
    description:
      'POST /api/v1/console/password-reset sends links (the operator configured mail: SMTP_URL); the sign-in page offers "Forgot your password?" only then',
  })
  enabled: boolean;
}

export class PasswordResetPreviewDto {
  @ApiProperty({ example: 'a***@example.com', description: 'The account the link is for, masked' })
  @DeliberatelyServed('masked (first character and domain), to the holder of the reset link')
  email: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class ResetPasswordDto {
  @ApiProperty({ format: 'password', minLength: MIN_PASSWORD_LENGTH })
  @NewPassword()
  password: string;
}
