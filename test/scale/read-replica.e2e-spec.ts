import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { migrate } from '../../src/database/migrate';
import { ReadReplica } from '../../src/database/read-replica';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';

/**
 * DATABASE_READ_URL against a real streaming replica: scripts/replica-pair.sh builds a throwaway
 * primary + standby (pg_basebackup, standby.signal) on ports 25442/25443 beside the shared server
 * (below the ephemeral range, so no test server's listen(0) can hold them).
 * Where it cannot (no PostgreSQL binaries, no right to run them) the suite is skipped with the reason.
 */
const PAIR_DIR = '/tmp/fundgate-replica-e2e';
const BOUND_MS = 3000;
let urls: { primary: string; replica: string } | null = null;
let reason = '';
try {
  const out = execFileSync(join(__dirname, '..', '..', 'scripts', 'replica-pair.sh'), ['up', PAIR_DIR, '25442'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const m = /PRIMARY_URL=(\S+) REPLICA_URL=(\S+)/.exec(out);
  if (m)
    urls = {
      primary: m[1].replace(/\/postgres$/, '/fundgate_replica_e2e'),
      replica: m[2].replace(/\/postgres$/, '/fundgate_replica_e2e'),
    };
} catch (err) {
  reason = (err as Error).message.split('\n')[0];
}
if (!urls)
  process.stderr.write(`read-replica e2e SKIPPED: could not build a local primary + streaming replica (${reason})\n`);
const describeWithReplica = urls ? describe : describe.skip;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pair = (command: string) =>
  execFileSync(join(__dirname, '..', '..', 'scripts', 'replica-pair.sh'), [command, PAIR_DIR, '25442']);

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describeWithReplica('reads on a streaming replica within a lag bound (e2e)', () => {
  let app: TestApp;
  let standby: DataSource; // direct connection to the replica, to pause and resume replay
  let reads: ReadReplica;
  let fund: { id: string; slug: string };
  const nameOf = async () =>
    ((await reads.query('SELECT name FROM funds WHERE id = $1', [fund.id])) as { name: string }[])[0]?.name;

  beforeAll(async () => {
    await migrate(urls!.primary, 'up');
    standby = createDataSource(urls!.replica, 2);
    await until('the database on the replica', () =>
      standby.initialize().then(
        () => true,
        () => false,
      ),
    );
    app = await bootApp({
      databaseUrl: urls!.primary,
      databaseReadUrl: urls!.replica,
      readReplicaMaxLagMs: BOUND_MS,
      liveCacheSeconds: 0,
    });
    reads = app.get(ReadReplica);
    fund = await createFund(app);
  }, 120_000);
  afterAll(async () => {
    await standby?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await standby?.destroy();
    await app?.close();
    pair('down');
  });

  it('a fund read route is served by the replica while it is within the bound', async () => {
    await until('the replica to catch up', () => reads.lagMs() <= BOUND_MS);
    const key = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    const before = reads.reads.replica;
    const res = await call(app, 'GET', '/api/v1/fund/trades', { key: key.key });
    expect(res.status).toBe(200);
    expect(reads.reads.replica).toBeGreaterThan(before);
  });

  it('replay paused: reads may lag by at most the bound, then the primary answers; resumed: the replica again', async () => {
    await until(
      'the replica to catch up',
      async () => reads.lagMs() <= BOUND_MS && (await nameOf()) === `Fund ${fund.slug}`,
    );
    await standby.query('SELECT pg_wal_replay_pause()');
    const written = Date.now();
    await dbOf(app).query('UPDATE funds SET name = $2 WHERE id = $1', [fund.id, 'renamed on the primary']);
    const early = await nameOf();
    if (Date.now() - written < BOUND_MS - 500) expect(early).toBe(`Fund ${fund.slug}`); // stale, from the replica, inside the bound
    await until('the lag to pass the bound', () => reads.lagMs() > BOUND_MS);
    const primaryReads = reads.reads.primary;
    expect(await nameOf()).toBe('renamed on the primary'); // never staler than the bound
    expect(reads.reads.primary).toBe(primaryReads + 1);
    await standby.query('SELECT pg_wal_replay_resume()');
    await until('the replica to catch up again', () => reads.lagMs() <= BOUND_MS);
    const replicaReads = reads.reads.replica;
    expect(await nameOf()).toBe('renamed on the primary');
    expect(reads.reads.replica).toBe(replicaReads + 1);
  }, 60_000);

  it('replica down: not one read fails, the primary answers at once; back up: the replica again', async () => {
    await until('the replica to catch up', () => reads.lagMs() <= BOUND_MS);
    const key = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    const trades = () => call(app, 'GET', '/api/v1/fund/trades', { key: key.key });
    expect((await trades()).status).toBe(200); // a replica connection is open in the pool
    const primaryReads = reads.reads.primary;
    pair('stop-replica');
    try {
      // inside the bound, before any probe has noticed: the read fails on the replica and is re-run on the primary
      expect(reads.lagMs()).toBeLessThanOrEqual(BOUND_MS);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await trades()).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(reads.reads.primary).toBeGreaterThan(primaryReads);
      expect(reads.lagMs()).toBe(Infinity); // every further read goes to the primary until a probe sees it back
    } finally {
      pair('start-replica');
    }
    await until('the replica to answer and catch up again', () => reads.lagMs() <= BOUND_MS, 30_000);
    const replicaReads = reads.reads.replica;
    expect((await trades()).status).toBe(200);
    expect(reads.reads.replica).toBeGreaterThan(replicaReads);
  }, 60_000);
});
