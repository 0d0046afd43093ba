import { parseArgs, type ParseArgsConfig } from 'node:util';
import { type DataSource } from 'typeorm';
import { isConnectionError, ServiceUnreachableError, unreachableMessage } from '../common/startup/reachability';
import { loadConfig } from '../config/config';
import { createDataSource } from '../database/data-source';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The options after an operator CLI's command (node:util parseArgs, positionals allowed). An
 * unknown or malformed option is a usage error: `refuse` gets the parser's message and the usage.
 */
export function commandOptions<O extends Options>(
  args: string[],
  options: O,
  usage: string,
  refuse: (message: string) => never,
) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (err) {
    return refuse(`${(err as Error).message}\n${usage}`);
  }
}

/** `--help` or `-h` among the arguments: the usage goes to stdout and the caller exits 0, having touched nothing. */
export function helpAsked(args: string[], usage: string): boolean {
  if (!args.includes('--help') && !args.includes('-h')) return false;
  process.stdout.write(`${usage}\n`);
  return true;
}

/**
 * Runs `work` on an operator CLI's connection to DATABASE_URL. PostgreSQL away is the one line
 * db:migrate prints ("PostgreSQL is not reachable at …", a ServiceUnreachableError), not a stack
 * trace; the pool is closed only when it was opened.
 */
export async function withDatabase<T>(poolSize: number, work: (db: DataSource) => Promise<T>): Promise<T> {
  const url = loadConfig().databaseUrl;
  const db = createDataSource(url, poolSize);
  try {
    await db.initialize();
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    throw new ServiceUnreachableError(unreachableMessage('PostgreSQL', 'DATABASE_URL', url, err));
  }
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
