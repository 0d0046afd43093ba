import { Global, Module } from '@nestjs/common';
import { AccountService } from './account.service';
import { ConsoleAccountController } from './console-account.controller';
import { ConsoleMembersController } from './console-members.controller';
import { ConsoleController } from './console.controller';
import { InvitationsRepository } from './invitations.repository';
import { MembersService } from './members.service';
import { SessionAuth } from './session-auth';
import { SessionsRepository } from './sessions.repository';
import { SignInService } from './sign-in.service';
import { UsersRepository } from './users.repository';

/** People, roles, console sessions and the console-only REST routes. SessionAuth is used by the AuthGuard. */
@Global()
@Module({
  controllers: [ConsoleController, ConsoleMembersController, ConsoleAccountController],
  providers: [
    UsersRepository,
    SessionsRepository,
    InvitationsRepository,
    SessionAuth,
    SignInService,
    MembersService,
    AccountService,
  ],
  exports: [SessionAuth, UsersRepository],
})
export class IdentityModule {}
