import { createServer } from 'node:net';
import { runCli } from '../utils/cli';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A newcomer without PostgreSQL or Redis gets one line naming the variable, the address and how to start them. */
describe('newcomer messages when PostgreSQL or Redis is not running (e2e, child processes)', () => {
  let deadPg: string;
  let deadRedis: string;
  let pgPort: number;
  beforeAll(async () => {
    pgPort = await freePort();
    deadPg = `postgres://postgres:hunter2@127.0.0.1:${pgPort}/fundgate_newcomer`;
    deadRedis = `redis://127.0.0.1:${await freePort()}/0`;
  });

  function expectOneClearLine(out: { code: number | null; stdout: string; stderr: string }): void {
    expect(out.code).toBe(1);
    const lines = out.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`PostgreSQL is not reachable at 127.0.0.1:${pgPort}`);
    expect(lines[0]).toContain('DATABASE_URL=postgres://postgres:***@127.0.0.1:');
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(lines[0]).toContain('docker run -d -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:15');
    expect(lines[0]).toContain('apt-get install -y postgresql redis-server');
    expect(out.stderr + out.stdout).not.toMatch(/\n\s+at /);
  }

  it('db:migrate', async () => {
    expectOneClearLine(await runCli('src/database/migrate.ts', ['up'], { DATABASE_URL: deadPg, REDIS_URL: deadRedis }));
  });

  it('seed:demo', async () => {
    expectOneClearLine(await runCli('src/cli/seed-demo.ts', [], { DATABASE_URL: deadPg, REDIS_URL: deadRedis }));
  });

  it.each([
    ['keys list', 'src/cli/keys.ts', ['list']],
    ['users list', 'src/cli/users.ts', ['list']],
    ['fund:import', 'src/cli/fund-import.ts', ['--fund', 'acme', '--dir', '/tmp']],
    ['fund:nav', 'src/cli/fund-nav.ts', ['--fund', 'acme']],
  ])('%s (one line, no stack trace from closing a pool that never opened)', async (_name, entry, args) => {
    const out = await runCli(entry, args, { DATABASE_URL: deadPg, REDIS_URL: deadRedis });
    expectOneClearLine(out);
  });

  it.each([
    ['fund:import', 'src/cli/fund-import.ts', 'usage: npm run fund:import'],
    ['fund:nav', 'src/cli/fund-nav.ts', 'usage: npm run fund:nav'],
    ['fund:generate', 'src/cli/fund-generate.ts', 'usage: npm run fund:generate'],
    ['seed:demo', 'src/cli/seed-demo.ts', 'usage: npm run seed:demo'],
  ])('%s --help prints the usage and exits 0 without connecting', async (_name, entry, usage) => {
    const out = await runCli(entry, ['--help'], { DATABASE_URL: deadPg, REDIS_URL: deadRedis });
    expect([out.code, out.stdout, out.stderr]).toEqual([0, expect.stringContaining(usage), '']);
  });

  it('keys and users --help print the usage before connecting (exit 2, as a usage mistake)', async () => {
    for (const [entry, usage] of [
      ['src/cli/keys.ts', 'usage: keys create'],
      ['src/cli/users.ts', 'usage: users create'],
    ]) {
      const out = await runCli(entry, ['--help'], { DATABASE_URL: deadPg, REDIS_URL: deadRedis });
      expect([out.code, out.stderr]).toEqual([2, expect.stringContaining(usage)]);
      expect(out.stderr).not.toContain('not reachable');
    }
  });

  it('seed:demo refuses a count that is not a whole number before touching anything', async () => {
    const out = await runCli('src/cli/seed-demo.ts', ['--trades', 'abc'], {
      DATABASE_URL: deadPg,
      REDIS_URL: deadRedis,
    });
    expect([out.code, out.stderr.trim()]).toEqual([1, 'seed:demo failed: --trades must be a whole number, got "abc"']);
  });

  it('keys create refuses an expiry that is not a real date or a zoned timestamp', async () => {
    for (const expires of ['2030-02-31', '2030-01-01 10:00']) {
      const out = await runCli(
        'src/cli/keys.ts',
        ['create', '--email', 'nobody@example.com', '--scopes', 'fund:read', '--expires', expires],
        { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: deadRedis },
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toContain('--expires must be a date YYYY-MM-DD (the end of that day, UTC)');
    }
  });

  it('the server', async () => {
    expectOneClearLine(
      await runCli('src/main.ts', [], { DATABASE_URL: deadPg, REDIS_URL: deadRedis, PORT: '0', HOST: '127.0.0.1' }),
    );
  });

  it('the server with PostgreSQL up and Redis away starts degraded and says so in one JSON line', async () => {
    const out = await runCli(
      'src/main.ts',
      [],
      {
        DATABASE_URL: process.env.DATABASE_URL!,
        REDIS_URL: deadRedis,
        PORT: '0',
        HOST: '127.0.0.1',
        APP_ROLE: 'all',
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: '/nonexistent',
      },
      { untilLine: /listening on[\s\S]*redis unreachable|redis unreachable[\s\S]*listening on/ },
    );
    const lines = out.stdout.split('\n').filter((l) => l.trim() !== '');
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const redis = lines.filter((l) => l.includes('redis unreachable'));
    expect(redis).toHaveLength(1);
    expect(JSON.parse(redis[0]).msg).toContain('REDIS_URL');
    expect(JSON.parse(redis[0]).msg).toContain(
      'docker run -d -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:15',
    );
    expect(out.stderr).not.toContain('[ioredis] Unhandled error event');
  });
});
