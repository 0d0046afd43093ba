import { DataSource, type QueryRunner } from 'typeorm';
import { loadConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { ensureDatabase } from './ensure-database';
import { isLockWaitTimeout } from './sql-fragments';

/** The advisory lock every migrating process takes first: migrations run one process at a time. */
const MIGRATION_LOCK = `hashtextextended('fundgate:migrations', 0)`;

export interface MigrateOptions {
  /**
   * How long one migration statement may wait for a table lock (PostgreSQL lock_timeout): an ALTER
   * queued behind a long NAV run would otherwise hold every read of that table behind itself.
   */
  lockTimeoutMs?: number;
  /** Tries of a migration that gave up waiting (its transaction rolled back), `retryAfterMs` apart. */
  attempts?: number;
  retryAfterMs?: number;
  /** Told, before a revert, the migration it reverts (null: none is applied). */
  onRevert?: (name: string | null) => void;
}

/**
 * `npm run db:migrate` (up, creating the database if missing) and `npm run db:revert` (one step
 * down). Processes started together (a deploy of several replicas) migrate one after another:
 * the first applies what is pending, the others find nothing left to do.
 */
export async function migrate(
  databaseUrl: string,
  direction: 'up' | 'down' = 'up',
  options: MigrateOptions = {},
): Promise<string[]> {
  if (direction === 'up') await ensureDatabase(databaseUrl);
  const base = dataSourceOptions(databaseUrl, 3);
  const lockTimeout = options.lockTimeoutMs ?? 5000;
  const ds = new DataSource({ ...base, extra: { ...base.extra, lock_timeout: lockTimeout } });
  await ds.initialize();
  const holder = ds.createQueryRunner();
  try {
    await waitForLock(holder);
    return await withRetries(options, lockTimeout, () => step(ds, direction, options.onRevert));
  } finally {
    await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await holder.release();
    await ds.destroy();
  }
}

/**
 * Takes the migration lock for the session, waiting for another migrating process however long it
 * takes. Asked again every 200 ms rather than waited on in one statement: a waiting statement holds
 * a snapshot, and the running migration's CREATE INDEX CONCURRENTLY waits for every older snapshot
 * to end — each would wait for the other.
 */
async function waitForLock(holder: QueryRunner): Promise<void> {
  for (;;) {
    const [row] = await holder.query(`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS taken`);
    if (row.taken) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function step(
  ds: DataSource,
  direction: 'up' | 'down',
  onRevert?: MigrateOptions['onRevert'],
): Promise<string[]> {
  if (direction === 'up') return (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const [table] = await ds.query(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  const [last] = table.present ? await ds.query(`SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1`) : [];
  onRevert?.(last?.name ?? null);
  if (!last) return [];
  await ds.undoLastMigration({ transaction: 'each' });
  return [`reverted ${last.name}`];
}

async function withRetries(options: MigrateOptions, lockTimeoutMs: number, run: () => Promise<string[]>) {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isLockWaitTimeout(err)) throw err;
      if (attempt >= attempts)
        throw new Error(
          `a migration waited ${lockTimeoutMs} ms for a table lock ${attempts} times and gave up (${(err as Error).message}); ` +
            'a long NAV run, import or open transaction holds it: run the migration again once it has finished',
          { cause: err },
        );
      await new Promise((r) => setTimeout(r, options.retryAfterMs ?? 2000));
    }
  }
}

const MIGRATE_USAGE = [
  'usage: npm run db:migrate            apply every pending migration (creating the database if missing)',
  '       npm run db:revert             revert the last applied migration (one step), naming it',
  '       npm run db:migrate -- --help  this text (nothing is applied or reverted)',
].join('\n');

/**
 * The direction and options after the script's own `up` / `down` (what package.json passes):
 * `--help` prints the usage and exits 0 doing nothing; any other argument is refused (exit 2).
 */
export function migrateCommand(argv: string[]): 'up' | 'down' | 'help' | { refused: string } {
  const [direction, ...rest] = argv;
  if (direction === '--help' || direction === '-h' || rest.includes('--help') || rest.includes('-h')) return 'help';
  if (direction !== 'up' && direction !== 'down') return { refused: `unknown command "${direction ?? ''}"` };
  if (rest.length) return { refused: `unknown ${rest[0].startsWith('-') ? 'option' : 'argument'} "${rest[0]}"` };
  return direction;
}

if (require.main === module) {
  const command = migrateCommand(process.argv.slice(2));
  if (command === 'help') {
    process.stdout.write(MIGRATE_USAGE + '\n');
  } else if (typeof command === 'object') {
    process.stderr.write(`migration refused: ${command.refused}; nothing was applied or reverted\n${MIGRATE_USAGE}\n`);
    process.exitCode = 2;
  } else {
    const onRevert = (name: string | null) =>
      process.stderr.write(name ? `reverting ${name}\n` : 'nothing to revert: no migration is applied\n');
    migrate(loadConfig().databaseUrl, command, { onRevert })
      .then((names) => {
        process.stdout.write(JSON.stringify({ msg: 'migrations', direction: command, applied: names }) + '\n');
      })
      .catch((err: Error) => {
        process.stderr.write(`migration failed: ${err.message}\n`);
        process.exit(1);
      });
  }
}
