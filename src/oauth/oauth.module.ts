import { Global, Module } from '@nestjs/common';
import { ACCESS_TOKEN_RESOLVER } from '../common/auth/credential-resolver';
import { ClientsService } from './clients.service';
import { ConnectedApps } from './connected-apps';
import { ConsentController } from './consent.controller';
import { ConsentService } from './consent.service';
import { OAuthTokenAuth } from './oauth-tokens';
import { OAuthController } from './oauth.controller';
import { OAuthRepository } from './oauth.repository';
import { OAuthService } from './oauth.service';

/** The built-in OAuth 2.1 authorization server of the fund MCP server; OAuthTokenAuth is the AuthGuard's ACCESS_TOKEN_RESOLVER. */
@Global()
@Module({
  controllers: [OAuthController, ConsentController],
  providers: [
    OAuthRepository,
    OAuthTokenAuth,
    { provide: ACCESS_TOKEN_RESOLVER, useExisting: OAuthTokenAuth },
    OAuthService,
    ClientsService,
    ConsentService,
    ConnectedApps,
  ],
  exports: [OAuthTokenAuth, ACCESS_TOKEN_RESOLVER, ConnectedApps],
})
export class OAuthModule {}
