import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsDateString, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANS, SCOPES, Scope } from '../../common/auth/scopes';
import type { Plan } from '../../config/config';

export class FundRefDto {
  @ApiProperty({ example: '6f1c…', format: 'uuid' }) id: string;
  @ApiProperty({ example: 'demo' }) slug: string;
  @ApiProperty({ example: 'Demo Digital Assets Fund' }) name: string;
}

export class AccountRefDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'alice' }) name: string;
}

export class MeDto {
  @ApiProperty({ format: 'uuid' }) keyId: string;
  @ApiProperty({ example: 'CI reader' }) name: string;
  @ApiProperty({ example: 'svc_dk_Ab3x', description: 'svc_dk_ + the first 4 characters; the key itself is never shown again' }) displayPrefix: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ type: FundRefDto, nullable: true }) fund: FundRefDto | null;
  @ApiProperty({ enum: PLANS }) plan: string;
  @ApiProperty({ type: AccountRefDto }) account: AccountRefDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
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
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
}

export class KeyListDto {
  @ApiProperty({ type: KeySummaryDto, isArray: true }) items: KeySummaryDto[];
  @ApiProperty({ example: 3 }) total: number;
}

export class CreatedKeyDto extends KeySummaryDto {
  @ApiProperty({ description: 'The secret key. Shown only in this response; store it now.', example: 'svc_dk_…' })
  token: string;
}

export class CreateKeyDto {
  @ApiProperty({ example: 'Reporting agent', minLength: 1, maxLength: 200 })
  @IsString() @Length(1, 200)
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['fund:read'] })
  @IsArray() @ArrayUnique() @ArrayMaxSize(SCOPES.length) @IsIn(SCOPES as unknown as string[], { each: true })
  scopes: Scope[];

  @ApiPropertyOptional({ description: 'Fund slug the key is bound to; omit for the calling key\'s fund, null for none', nullable: true, example: 'demo' })
  @IsOptional() @IsString() @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/)
  fund?: string | null;

  @ApiPropertyOptional({ enum: PLANS, default: 'free' })
  @IsOptional() @IsIn(PLANS as unknown as string[])
  plan?: Plan;

  @ApiPropertyOptional({ description: 'Account that owns the key (defaults to the caller\'s account)', example: 'bob' })
  @IsOptional() @IsString() @Length(1, 200)
  account?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional() @IsDateString({ strict: true })
  @Type(() => String)
  expiresAt?: string;
}
