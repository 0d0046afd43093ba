import { Client } from 'pg';
import { isConnectionError, ServiceUnreachableError, unreachableMessage } from '../common/startup/reachability';

/** Connects, turning "nothing listens there" into the one line a newcomer can act on. */
async function connectAdmin(databaseUrl: string, client: Client): Promise<void> {
  try {
    await client.connect();
  } catch (err) {
    if (isConnectionError(err))
      throw new ServiceUnreachableError(unreachableMessage('PostgreSQL', 'DATABASE_URL', databaseUrl, err));
    throw err;
  }
}

/** Creates the database named in the URL when it does not exist (a fresh machine has none). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`DATABASE_URL names an unusual database "${name}"`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await connectAdmin(databaseUrl, client);
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    // two processes starting together may both find it missing: the second one's CREATE loses the race
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
