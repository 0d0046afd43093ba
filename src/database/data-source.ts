import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';

/**
 * The one DataSource definition: the app, the migration CLI and the tests all build from it.
 * We use TypeORM for connections, transactions and migrations, and write intention-named SQL in
 * `*.repository.ts` files (no entity metadata, no synchronize).
 */
export interface PoolTimeouts {
  /** PostgreSQL statement_timeout for every connection of the pool (ms). */
  statementTimeoutMs: number;
  /** PostgreSQL lock_timeout: how long a statement may wait for a row or table lock (ms). */
  lockTimeoutMs: number;
  /**
   * Client-side bounds for a server that may vanish (the read replica): how long opening a
   * connection may take, and how long a query may go unanswered (a silently dropped network
   * answers nothing, and statement_timeout is the server's own clock).
   */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
}

/**
 * `timeouts` (the app passes DB_STATEMENT_TIMEOUT_MS / DB_LOCK_TIMEOUT_MS) bound every statement
 * of the pool, so no request can hold a connection or wait on a lock for minutes. The CLIs
 * (seed, import, NAV over a fund's whole history) run without them.
 * The app's pools also run with `jit = off`: its statements read little, but a row estimate the
 * planner cannot refine (trades after a date that a CTE computes: a third of the table) lifts
 * a 1 ms read over jit_above_cost and PostgreSQL spends 35–55 ms compiling it (the live book on
 * the 1 000 000-trade fund, docs/performance.md "Query plans").
 * Every pool runs in UTC (`TimeZone=UTC`): days are UTC days everywhere (a `$1::date` compared with
 * a timestamptz, a timestamptz cast to a date), whatever the server's own time zone.
 */
export function dataSourceOptions(databaseUrl: string, poolSize = 20, timeouts?: PoolTimeouts): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    // Works from both src/ (swc-node, jest) and dist/ (compiled): migrations/ sits beside src/.
    migrations: [join(__dirname, '..', '..', 'migrations', '*.{ts,js}')],
    entities: [],
    extra: {
      max: poolSize,
      application_name: 'fundgate',
      options: timeouts ? '-c TimeZone=UTC -c jit=off' : '-c TimeZone=UTC',
      ...(timeouts
        ? {
            statement_timeout: timeouts.statementTimeoutMs,
            lock_timeout: timeouts.lockTimeoutMs,
            connectionTimeoutMillis: timeouts.connectTimeoutMs,
            query_timeout: timeouts.queryTimeoutMs,
          }
        : {}),
    },
  };
}

export function createDataSource(databaseUrl: string, poolSize?: number): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl, poolSize));
}
