import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { addDays } from '../../src/fund/dates';
import { generateDemoFund } from '../../src/fund/import/demo-generator';
import { DEMO_INCEPTION_DATE } from '../../src/fund/import/demo-universe';
import { importFundFolder } from '../../src/fund/import/fund-importer';
import { NavRunService } from '../../src/fund/nav/nav-run.service';
import { bullPrefix } from '../../src/webhooks/bull-connections';
import { bootApp, call, createFund, dbOf, mintKey, uniqueName, type TestApp } from '../utils/app';

/**
 * REDIS_CLUSTER_NODES against a real three-node Redis Cluster built by scripts/redis-cluster.sh on
 * three ports from 27100-27399 chosen by the process id (below the ephemeral range). Rate-limit
 * windows (a two-key Lua script) and BullMQ (NAV-run jobs: many-key scripts) must work through
 * MOVED redirects, and every BullMQ key must sit in one slot. Skipped, with the reason, where
 * redis-server cannot be started.
 */
const DIR = join(tmpdir(), `fundgate-redis-cluster-e2e-${process.pid}`);
const BASE_PORT = 27100 + (process.pid % 100) * 3; // per run: `up` stops whatever holds its three ports
const script = (command: string) =>
  execFileSync(join(__dirname, '..', '..', 'scripts', 'redis-cluster.sh'), [command, DIR, String(BASE_PORT)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
let nodes: string[] = [];
let reason = '';
try {
  nodes = /REDIS_CLUSTER_NODES=(\S+)/.exec(script('up'))?.[1].split(',') ?? [];
} catch (err) {
  reason = (err as Error).message.split('\n')[0];
}
if (nodes.length === 0)
  process.stderr.write(`redis-cluster e2e SKIPPED: could not build a local cluster (${reason})\n`);
const describeWithCluster = nodes.length ? describe : describe.skip;

describeWithCluster('a Redis Cluster behind every Redis use (e2e)', () => {
  let app: TestApp;
  const direct = nodes.map((n) => new Redis(n, { lazyConnect: true }));
  /** Keys matching `pattern` on each node (a node answers only for its own slots). */
  const keysByNode = async (pattern: string) => Promise.all(direct.map((r) => r.keys(pattern)));

  beforeAll(async () => {
    app = await bootApp({ redisClusterNodes: nodes });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    direct.forEach((r) => r.disconnect());
    script('down');
  });

  it('readiness, rate-limited reads and calculators run on the cluster', async () => {
    expect((await call(app, 'GET', '/health/ready')).status).toBe(200);
    const key = await mintKey(app, { scopes: ['fund:read'], fund: (await createFund(app)).slug });
    const limits = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(app, 'GET', '/api/v1/me', { key: key.key });
      expect(res.status).toBe(200);
      limits.push(/r=(\d+)/.exec(String(res.headers['ratelimit']))?.[1]);
    }
    expect(Number(limits[0]) - Number(limits[2])).toBe(2); // counted in the cluster, one by one
    const calc = await call(app, 'POST', '/api/v1/calc/operating-cost-calculator', { body: {}, ip: '203.0.113.77' });
    expect(calc.status).toBe(200);
    const windows = (await keysByNode('*rl:*')).flat();
    expect(windows.some((k) => k.includes(key.id))).toBe(true);
  });

  it('a NAV run job goes through BullMQ on the cluster, every queue key in one slot', async () => {
    const slug = uniqueName('cluster-fund');
    const dir = join(tmpdir(), `fundgate-cluster-fund-${process.pid}`);
    generateDemoFund({ seed: 5, outDir: dir, trades: 200, through: addDays(DEMO_INCEPTION_DATE, 3) });
    const { fundId } = await importFundFolder(dbOf(app), slug, dir, { synthetic: true });
    await new NavRunService(dbOf(app)).runNavRange(fundId, { to: addDays(DEMO_INCEPTION_DATE, 2) });
    const publisher = (await mintKey(app, { scopes: ['nav:publish', 'fund:read'], fund: slug })).key;
    const queued = await call(app, 'POST', '/api/v1/admin/nav-runs', {
      key: publisher,
      body: { valuationDate: addDays(DEMO_INCEPTION_DATE, 3) },
    });
    expect(queued.status).toBe(202);
    let status = queued.json.status;
    for (let i = 0; i < 300 && status !== 'succeeded' && status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await call(app, 'GET', `/api/v1/admin/nav-jobs/${queued.json.jobId}`, { key: publisher })).json.status;
    }
    expect(status).toBe('succeeded');
    const prefix = bullPrefix({
      redisUrl: 'redis://unused',
      redisClusterNodes: nodes,
      databaseUrl: process.env.DATABASE_URL!,
    });
    const perNode = (await keysByNode(`${prefix}*`)).map((keys) => keys.length);
    expect(perNode.filter((n) => n > 0)).toHaveLength(1); // one hash tag: one slot, one node
  }, 60_000);
});
