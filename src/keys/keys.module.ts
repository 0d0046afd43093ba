import { Global, Module } from '@nestjs/common';
import { AdminKeysController } from './admin-keys.controller';
import { CREDENTIAL_RESOLVER } from '../common/auth/credential-resolver';
import { KeyExpiryJob } from './key-expiry.job';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';
import { MeController } from './me.controller';

@Global()
@Module({
  controllers: [MeController, AdminKeysController],
  providers: [KeysRepository, KeysService, KeyExpiryJob, { provide: CREDENTIAL_RESOLVER, useExisting: KeysService }],
  exports: [KeysService, KeysRepository, CREDENTIAL_RESOLVER],
})
export class KeysModule {}
