import type { Pool, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
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
   * A hot statement as a named prepared statement on the pool's connection: PostgreSQL parses it
   * once per connection and, once its plan cache settles on the generic plan, no longer plans it
   * (TypeORM sends every query unnamed, so PostgreSQL plans it on every call: 0.3–0.8 ms for the
   * webhook claim, several times its execution). Rows as pg answers them (an UPDATE … RETURNING
   * answers its rows too). Bound to a transaction (`with(m)`), the statement runs through it as usual.
   */
  protected async prepared<T extends QueryResultRow>(name: string, text: string, values: unknown[]): Promise<T[]> {
    if (!(this.q instanceof DataSource)) {
      const rows: unknown = await this.q.query(text, values);
      return (Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0] : rows) as T[];
    }
    const pool = (this.q.driver as PostgresDriver).master as Pool;
    return (await pool.query<T>({ name, text, values })).rows;
  }
}
