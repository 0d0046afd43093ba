import { Global, Module } from '@nestjs/common';
import { ClientsService } from './clients.service';
import { ConsentController } from './consent.controller';
import { ConsentService } from './consent.service';
import { OAuthTokenAuth } from './oauth-tokens';
import { OAuthController } from './oauth.controller';
import { OAuthRepository } from './oauth.repository';
import { OAuthService } from './oauth.service';

/** The built-in OAuth 2.1 authorization server of the fund MCP server; OAuthTokenAuth is used by the AuthGuard. */
@Global()
@Module({
  controllers: [OAuthController, ConsentController],
  providers: [OAuthRepository, OAuthTokenAuth, OAuthService, ClientsService, ConsentService],
  exports: [OAuthTokenAuth],
})
export class OAuthModule {}
