import { loadConfig } from '../config/config';
import { createDataSource } from './data-source';
import { ensureDatabase } from './ensure-database';

/** `npm run db:migrate` (up, creating the database if missing) and `npm run db:revert` (one step down). */
export async function migrate(databaseUrl: string, direction: 'up' | 'down' = 'up'): Promise<string[]> {
  if (direction === 'up') await ensureDatabase(databaseUrl);
  const ds = createDataSource(databaseUrl, 2);
  await ds.initialize();
  try {
    if (direction === 'down') {
      await ds.undoLastMigration({ transaction: 'each' });
      return ['reverted one migration'];
    }
    const ran = await ds.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  const direction = process.argv[2] === 'down' ? 'down' : 'up';
  migrate(loadConfig().databaseUrl, direction)
    .then((names) => {
      process.stdout.write(JSON.stringify({ msg: 'migrations', direction, applied: names }) + '\n');
    })
    .catch((err: Error) => {
      process.stderr.write(`migration failed: ${err.message}\n`);
      process.exit(1);
    });
}
