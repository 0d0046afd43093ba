/**
 * Anything that runs SQL: the DataSource, a transaction's EntityManager or a QueryRunner. Repositories
 * take one, so the same repository reads outside a transaction or writes inside one.
 * TypeORM's `query()` answers untyped rows (and `[rows, affected]` for UPDATE/DELETE); each repository
 * method declares the shape it returns, which is where the rows get their type.
 */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped boundary: SQL rows, typed by each repository method
  query(sql: string, parameters?: unknown[]): Promise<any>;
}
