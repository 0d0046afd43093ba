import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';

/**
 * The one DataSource definition: the app, the migration CLI and the tests all build from it.
 * We use TypeORM for connections, transactions and migrations, and write intention-named SQL in
 * `*.repository.ts` files (no entity metadata, no synchronize).
 */
export function dataSourceOptions(databaseUrl: string, poolSize = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    // Works from both src/ (swc-node, jest) and dist/ (compiled): migrations/ sits beside src/.
    migrations: [join(__dirname, '..', '..', 'migrations', '*.{ts,js}')],
    entities: [],
    extra: { max: poolSize, application_name: 'fundgate' },
  };
}

export function createDataSource(databaseUrl: string, poolSize?: number): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl, poolSize));
}
