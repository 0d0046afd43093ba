import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { SqlRepository } from '../../src/database/sql-repository';

/** A repository exposing the protected `prepared` for the test. */
class Probe extends SqlRepository {
  plusOne(n: number): Promise<{ n: number }[]> {
    return this.prepared('probe_plus_one', 'SELECT $1::int + 1 AS n', [n]);
  }
  bump(id: number): Promise<{ v: number }[]> {
    return this.prepared('probe_bump', 'UPDATE probe_rows SET v = v + 1 WHERE id = $1 RETURNING v', [id]);
  }
}

/**
 * SqlRepository.prepared: a hot statement runs as a named prepared statement on its
 * connection, so PostgreSQL stops planning it once its plan cache settles on the generic plan
 * (TypeORM's own queries are unnamed: planned on every call). One connection, so the session's
 * `pg_prepared_statements` is the one the statements ran on.
 */
describe('prepared statements (e2e)', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = createDataSource(process.env.DATABASE_URL!, 1);
    await db.initialize();
    await db.query(`CREATE TEMP TABLE probe_rows (id int PRIMARY KEY, v int NOT NULL)`);
    await db.query(`INSERT INTO probe_rows VALUES (1, 10)`);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('runs as a named statement that PostgreSQL prepares once and then executes on its generic plan', async () => {
    const probe = new Probe(db);
    for (let i = 0; i < 10; i++) expect(await probe.plusOne(i)).toEqual([{ n: i + 1 }]);
    const [stmt] = await db.query<{ generic_plans: string; custom_plans: string }[]>(
      `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'probe_plus_one'`,
    );
    // planned for each of the first five calls (PostgreSQL's custom plans); the other five ran on the
    // cached generic plan, without planning (an unnamed statement is planned every time)
    expect({ custom: Number(stmt.custom_plans), generic: Number(stmt.generic_plans) }).toEqual({
      custom: 5,
      generic: 5,
    });
  });

  it('answers the rows of an UPDATE … RETURNING or a SELECT, on the pool and inside a transaction, as the same named statement', async () => {
    const probe = new Probe(db);
    expect(await probe.bump(1)).toEqual([{ v: 11 }]);
    await expect(
      db.transaction(async (m) => {
        expect(await probe.with(m).bump(1)).toEqual([{ v: 12 }]);
        expect(await probe.with(m).bump(2)).toEqual([]);
        expect(await probe.with(m).plusOne(41)).toEqual([{ n: 42 }]); // a SELECT's rows come back as they are
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // the bound call ran inside the transaction: rolled back with it
    expect(await db.query(`SELECT v FROM probe_rows WHERE id = 1`)).toEqual([{ v: 11 }]);
    // and as the same named statement, on the transaction's connection (the pool's only one here)
    const [bump] = await db.query<{ calls: string }[]>(
      `SELECT generic_plans + custom_plans AS calls FROM pg_prepared_statements WHERE name = 'probe_bump'`,
    );
    expect(Number(bump.calls)).toBe(3);
  });
});
