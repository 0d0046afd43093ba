import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntityManager, type QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Queryable } from './queryable';

/**
 * What every repository is: intention-named SQL over a `Queryable`. Nest builds it over the
 * DataSource (code without a container builds it once the same way); `with(m)` answers the same
 * repository bound to a transaction's manager or a query runner — the one way to obtain a
 * transaction-scoped repository (methods never take a manager).
 */
export abstract class SqlRepository {
  constructor(protected readonly q: Queryable) {}

  with(m: Queryable): this {
    const bound = Object.create(Object.getPrototypeOf(this) as object) as this;
    return Object.assign(bound, this, { q: m });
  }

  /**
   * A hot statement as a named prepared statement on its connection: PostgreSQL parses it once per
   * connection and, once its plan cache settles on the generic plan, no longer plans it (TypeORM
   * sends every query unnamed, so PostgreSQL plans it on every call: 0.3–0.8 ms for the webhook
   * claim, several times its execution). Rows as pg answers them (an UPDATE … RETURNING answers its
   * rows too). On the DataSource it runs on a pooled connection; bound to a transaction (`with(m)`),
   * on the transaction's own connection, inside it. Errors are pg's own (not QueryFailedError).
   */
  protected async prepared<T extends QueryResultRow>(name: string, text: string, values: unknown[]): Promise<T[]> {
    return (await (await this.pgClient()).query<T>({ name, text, values })).rows;
  }

  /** The pg pool behind the DataSource, or the connection of the transaction this repository is bound to. */
  private async pgClient(): Promise<Pool | PoolClient> {
    const pool = (ds: DataSource) => (ds.driver as PostgresDriver).master as Pool;
    const connection = async (r: QueryRunner) => (await r.connect()) as PoolClient; // a connected runner answers its own
    if (this.q instanceof DataSource) return pool(this.q);
    if (this.q instanceof EntityManager)
      return this.q.queryRunner ? connection(this.q.queryRunner) : pool(this.q.connection);
    return connection(this.q as QueryRunner);
  }
}
