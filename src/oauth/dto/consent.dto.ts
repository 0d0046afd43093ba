import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, Matches } from 'class-validator';
import { ROLES, SCOPES } from '../../common/auth/scopes';

export class ConsentClientDto {
  @ApiProperty({ description: "client_id (a generated id, or the URL of the client's metadata document)" }) id: string;
  @ApiProperty({ example: 'Claude' }) name: string;
  @ApiProperty({ enum: ['registered', 'metadata_document'] }) kind: string;
  @ApiProperty({ example: 'localhost:33418', description: 'Host of the redirect URI the code goes to' })
  redirectHost: string;
  @ApiProperty({ type: String, nullable: true }) clientUri: string | null;
}

export class ConsentFundDto {
  @ApiProperty({ example: 'demo' }) slug: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({
    enum: SCOPES,
    isArray: true,
    description: "The role's scopes an app may hold (never proposals:review nor keys:manage)",
  })
  grantableScopes: string[];
}

export class ConsentViewDto {
  @ApiProperty({ format: 'uuid' }) requestId: string;
  @ApiProperty({ type: ConsentClientDto }) client: ConsentClientDto;
  @ApiProperty({ type: String, isArray: true }) requestedScopes: string[];
  @ApiProperty({ type: ConsentFundDto, isArray: true }) funds: ConsentFundDto[];
  @ApiProperty({ description: 'The person has TOTP enrolled and must enter a code first' }) totpRequired: boolean;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class ApproveConsentDto {
  @ApiProperty({ example: 'demo' }) @IsString() @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/) fund: string;
  @ApiProperty({ enum: SCOPES, isArray: true, example: ['fund:read'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes: (typeof SCOPES)[number][];
}

export class ConsentRedirectDto {
  @ApiProperty({
    description: "Where the browser goes next: the app's redirect URI with the code (or error), state and iss",
  })
  redirectTo: string;
}

export class ConnectedAppFundDto {
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
}

export class ConnectedAppDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() clientId: string;
  @ApiProperty() clientName: string;
  @ApiProperty({ enum: ['registered', 'metadata_document'] }) clientKind: string;
  @ApiProperty({ example: 'localhost:33418' }) redirectHost: string;
  @ApiProperty({ type: ConnectedAppFundDto }) fund: ConnectedAppFundDto;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
}

export class ConnectedAppsDto {
  @ApiProperty({ type: ConnectedAppDto, isArray: true }) items: ConnectedAppDto[];
}

export class ConsentOkDto {
  @ApiProperty({ example: true }) ok: boolean;
}
