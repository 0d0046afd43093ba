import { type DataSource } from 'typeorm';
import { isWellFormedKey, hashKey, displayParts } from './key-format';
import { KeysRepository } from './keys.repository';

/**
 * (Re)creates the shared demo key: fund:read on the given (synthetic demo) fund only, plan free.
 * Called by `npm run seed:demo`, without a Nest container.
 */
export async function ensureDemoKey(db: DataSource, demoApiKey: string, fundId: string): Promise<string> {
  if (!isWellFormedKey(demoApiKey)) throw new Error('DEMO_API_KEY is not a well-formed svc_dk_ key');
  const keys = new KeysRepository(db);
  if ((await keys.slugOf(fundId)) === null) throw new Error(`fund ${fundId} does not exist`);
  const { displayPrefix, lastFour } = displayParts(demoApiKey);
  return keys.transaction((m) =>
    keys.with(m).upsertDemoKey(fundId, { hash: hashKey(demoApiKey), displayPrefix, lastFour }),
  );
}
