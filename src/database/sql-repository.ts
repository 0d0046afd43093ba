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
}
