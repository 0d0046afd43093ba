import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { PLANS, ROLES, SCOPES, Scope } from '../../common/auth/scopes';
import { IsTimestamp } from '../../common/validation/calendar-date';
import { MaxCodePoints } from '../../common/validation/code-points';
import type { Plan } from '../../config/config';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { NotBlank } from '../../common/validation/not-blank';

export class FundRefDto {
  @ApiProperty({ example: '6f1c2a4e-8b1d-4f0e-9a53-2c7d1e5b9f40', format: 'uuid' }) id: string;
  @ApiProperty({ example: 'demo' }) slug: string;
  @ApiProperty({ example: 'Demo Digital Assets Fund' }) name: string;
}

export class AccountRefDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'alice' }) name: string;
}

export class KeyOwnerDto {
  @ApiProperty({ enum: ['person', 'service'], description: 'A person, or a service identity owned by the fund' })
  kind: string;
  @ApiProperty({ example: 'Alice Example' }) displayName: string;
}

export class MeDto {
  @ApiProperty({ enum: ['key', 'session'], description: "An API key, or a signed-in person's console session" })
  via: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null for a console session' }) keyId:
    string | null;
  @ApiProperty({ type: String, nullable: true, example: 'CI reader' }) name: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'svc_dk_Ab3x',
    description: 'svc_dk_ + the first 4 characters; the key itself is never shown again',
  })
  displayPrefix: string | null;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ type: FundRefDto, nullable: true }) fund: FundRefDto | null;
  @ApiProperty({ enum: PLANS }) plan: string;
  @ApiProperty({ type: AccountRefDto }) account: AccountRefDto;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The person; null for a service identity' })
  userId: string | null;
  @ApiProperty({ type: String, enum: ROLES, nullable: true, description: "The person's role on the fund" }) role:
    string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
}

export class KeyMinterDto {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() displayName: string;
}

export class KeySummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'svc_dk_Ab3x' }) displayPrefix: string;
  @ApiProperty({ example: 'x9Qz' }) lastFour: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ type: FundRefDto, nullable: true }) fund: FundRefDto | null;
  @ApiProperty({ enum: PLANS }) plan: string;
  @ApiProperty({ type: AccountRefDto }) account: AccountRefDto;
  @ApiProperty({ type: KeyOwnerDto }) owner: KeyOwnerDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({
    type: KeyMinterDto,
    nullable: true,
    description:
      'The person who minted the key: in the console, with a key of theirs, or through a chain of keys minted from one (the person behind it); the CLI mints as the person the key is for. null: minted before fundgate recorded it (a service key: rotate it)',
  })
  mintedBy: KeyMinterDto | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The key it was minted with' })
  mintedWithKeyId: string | null;
  @ApiProperty({ description: 'The shared demo key (managed by seed:demo; it cannot be revoked here)' })
  isDemo: boolean;
}

export class RevokedKeyDto extends KeySummaryDto {
  @ApiProperty({ description: 'Live keys minted with this key (and with those), revoked with it', example: 0 })
  derivedRevoked: number;
  @ApiProperty({
    description:
      'Webhook subscriptions those keys held (created, redirected, re-enabled or re-keyed), disabled now (whoever held a key chose the URL or saw the secret)',
    example: 0,
  })
  disabledWebhooks: number;
}

export class KeyListDto {
  @ApiProperty({ type: KeySummaryDto, isArray: true }) items: KeySummaryDto[];
  @ApiProperty({ example: 3, description: 'Keys the caller may see in all, across every page' }) total: number;
  @ApiProperty({ type: String, nullable: true, description: 'Send as cursor for the next page; null on the last' })
  nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}

export class KeyListQueryDto extends CursorPageQueryDto {}

export class CreatedKeyDto extends KeySummaryDto {
  @ApiProperty({ description: 'The secret key. Shown only in this response; store it now.', example: 'svc_dk_…' })
  token: string;
}

export class CreateKeyDto {
  @ApiProperty({ example: 'Reporting agent', minLength: 1, maxLength: 200 })
  @IsString()
  // NotBlank refuses "" too: a minimum length here would say the same thing a second time
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @MaxCodePoints(200)
  @NotBlank()
  name: string;

  @ApiProperty({
    enum: SCOPES,
    isArray: true,
    example: ['fund:read'],
    description:
      'At least one for a key bound to a fund (a fund key with no scope is refused, 400 naming scopes); none for a calculator-only key (no fund)',
  })
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes: Scope[];

  @ApiPropertyOptional({
    type: String,
    description: "Fund slug the key is bound to; omit for the caller's fund (any other fund is refused)",
    nullable: true,
    example: 'demo',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/)
  fund?: string | null;

  @ApiPropertyOptional({ enum: PLANS, default: 'free' })
  @Optional()
  @IsIn(PLANS)
  plan?: Plan;

  @ApiPropertyOptional({
    description:
      "Owning identity: omit for the caller's own; a fund admin may name a service identity of the fund. Any other account is refused.",
    example: 'demo/reporting-bot',
  })
  @Optional()
  @IsString()
  @Length(1, 200)
  account?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2027-01-01T00:00:00Z' })
  @Optional()
  @IsTimestamp()
  expiresAt?: string;
}
