import { Global, Module } from '@nestjs/common';
import { AdminKeysController } from './admin-keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';
import { MeController } from './me.controller';

@Global()
@Module({
  controllers: [MeController, AdminKeysController],
  providers: [KeysRepository, KeysService],
  exports: [KeysService, KeysRepository],
})
export class KeysModule {}
