import { Client } from 'pg';
import { dropDatabase, ensureDatabase } from '../../src/database/ensure-database';
import { migrate } from '../../src/database/migrate';
import { runCli } from '../utils/cli';

/** Migrating processes started together (replicas of one deploy) apply each migration once. */
describe('migrations (e2e)', () => {
  const url = process.env.DATABASE_URL!.replace(/\/[^/]+$/, `/fundgate_migrate_${process.pid}`);
  const sql = async (text: string) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  afterAll(() => dropDatabase(url));

  it('three processes migrating a new database at once: all succeed, each migration is applied once', async () => {
    const runs = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const applied = runs.map((names) => names.length).sort((a, b) => b - a);
    expect(applied[0]).toBeGreaterThan(10);
    expect(applied.slice(1)).toEqual([0, 0]); // the first applied everything; the others found nothing left
    const rows = await sql(`SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct FROM schema_migrations`);
    expect(rows).toEqual([{ n: applied[0], distinct: applied[0] }]);
  }, 120_000);

  it('a migration waits for a table lock only within lock_timeout, tries again, then says why it gave up', async () => {
    const [reverted] = await migrate(url, 'down');
    expect(reverted).toMatch(/^reverted \w+/);
    const holder = new Client({ connectionString: url });
    await holder.connect();
    try {
      // an open transaction holding a lock every migration needs: each one ends by recording itself in
      // schema_migrations (an INSERT, which EXCLUSIVE blocks while reads go on), whatever else it does
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const started = Date.now();
      await expect(migrate(url, 'up', { lockTimeoutMs: 200, attempts: 2, retryAfterMs: 100 })).rejects.toThrow(
        /waited 200 ms for a table lock 2 times and gave up/,
      );
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect((await migrate(url, 'up')).length).toBe(1); // once the lock is gone, it applies
  }, 60_000);

  it('reverting with nothing left to revert reverts nothing (it printed "reverted one migration")', async () => {
    const empty = url.replace(/_(\d+)$/, '_empty_$1');
    await ensureDatabase(empty);
    try {
      expect(await migrate(empty, 'down')).toEqual([]);
    } finally {
      await dropDatabase(empty);
    }
  });

  it('db:migrate / db:revert: --help prints the usage and does nothing, an unknown option exits 2, revert names its migration', async () => {
    const env = { DATABASE_URL: url, REDIS_URL: process.env.REDIS_URL! };
    const count = async () => (await sql(`SELECT count(*)::int AS n FROM schema_migrations`))[0].n as number;
    const applied = await count();
    for (const args of [
      ['down', '--help'],
      ['up', '--help'],
    ]) {
      const out = await runCli('src/database/migrate.ts', args, env);
      expect([out.code, out.stdout]).toEqual([0, expect.stringContaining('usage: npm run db:migrate')]);
    }
    for (const args of [
      ['down', '--yes'],
      ['up', 'extra'],
    ]) {
      const out = await runCli('src/database/migrate.ts', args, env);
      expect([out.code, out.stderr]).toEqual([2, expect.stringContaining('nothing was applied or reverted')]);
    }
    expect(await count()).toBe(applied);
    const [last] = await sql(`SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1`);
    const down = await runCli('src/database/migrate.ts', ['down'], env);
    expect([down.code, down.stderr]).toEqual([0, `reverting ${last.name}\n`]);
    expect(JSON.parse(down.stdout)).toEqual({
      msg: 'migrations',
      direction: 'down',
      applied: [`reverted ${last.name}`],
    });
    const up = await runCli('src/database/migrate.ts', ['up'], env);
    expect([up.code, JSON.parse(up.stdout).applied]).toEqual([0, [last.name]]);
  }, 120_000);
});
