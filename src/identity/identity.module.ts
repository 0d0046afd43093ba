import { Global, Module } from '@nestjs/common';
import { SESSION_RESOLVER } from '../common/auth/credential-resolver';
import { AccountService } from './account.service';
import { ConsoleAccountController } from './console-account.controller';
import { ConsoleMembersController } from './console-members.controller';
import { ConsoleController } from './console.controller';
import { InvitationsRepository } from './invitations.repository';
import { MembersService } from './members.service';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionAuth } from './session-auth';
import { SessionsRepository } from './sessions.repository';
import { SignInService } from './sign-in.service';
import { UsersRepository } from './users.repository';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Mailer } from '../mail/mailer';

/** People, roles, console sessions and the console-only REST routes. SessionAuth is the AuthGuard's SESSION_RESOLVER. */
@Global()
@Module({
  imports: [WebhooksModule],
  controllers: [ConsoleController, ConsoleMembersController, ConsoleAccountController, PasswordResetController],
  providers: [
    UsersRepository,
    SessionsRepository,
    InvitationsRepository,
    SessionAuth,
    { provide: SESSION_RESOLVER, useExisting: SessionAuth },
    SignInService,
    MembersService,
    AccountService,
    Mailer,
    PasswordResetsRepository,
    PasswordResetService,
  ],
  exports: [SessionAuth, SESSION_RESOLVER, UsersRepository],
})
export class IdentityModule {}
