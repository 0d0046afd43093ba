import { type DataSource } from 'typeorm';
import { CursorCodec } from '../src/common/pagination/cursor';
import { loadConfig } from '../src/config/config';
import { upsertPerson } from '../src/identity/people';
import { KeysRepository } from '../src/keys/keys.repository';
import { KeysService } from '../src/keys/keys.service';

/** A platform-plan key of the bench person (admin of `fundSlug` when given), minted through the one minting function. */
export async function mintPlatformKey(db: DataSource, databaseUrl: string, scopes: string[], fundSlug: string | null) {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const service = new KeysService(new KeysRepository(db), config, new CursorCodec(config.cursorSecret));
  const email = 'bench@fundgate.invalid';
  await upsertPerson(db, {
    email,
    displayName: 'bench',
    plan: 'platform',
    fund: fundSlug ? { slug: fundSlug, role: 'admin' } : undefined,
  });
  return service.mint(await service.minterForPerson({ email }, fundSlug), {
    name: 'bench key',
    scopes: fundSlug ? (scopes as never) : [],
    plan: 'platform',
    expiresAt: null,
  });
}
