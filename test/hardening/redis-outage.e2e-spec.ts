import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { bootApp, call, type TestApp } from '../utils/app';
import { expectProblem } from './helpers';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server this test starts and stops. */
async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start');
}

function stopRedis(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fee = (app: TestApp, ip: string) => call(app, 'POST', '/api/v1/calc/fee-calculator', { body: {}, ip });

describe('Redis outage: fast 503 with Retry-After, one JSON log line per change, automatic recovery (e2e)', () => {
  let port: number;
  let redis: ChildProcess;
  let app: TestApp;
  const lines: string[] = [];
  const stderr: string[] = [];
  let stdoutSpy: jest.SpyInstance;
  let consoleSpy: jest.SpyInstance;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    stdoutSpy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    consoleSpy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      stderr.push(args.map(String).join(' '));
    });
    app = await bootApp({ redisUrl: `redis://127.0.0.1:${port}/0`, logLevel: 'info', role: 'api' });
  });
  afterAll(async () => {
    await app.close();
    if (redis.exitCode === null) await stopRedis(redis);
    stdoutSpy.mockRestore();
    consoleSpy.mockRestore();
  });

  it('answers normally while Redis is up', async () => {
    expect((await fee(app, '198.18.0.1')).status).toBe(200);
  });

  it('with Redis stopped: 503 unavailable + Retry-After within ~200 ms on a rate-limited route; readiness says redis', async () => {
    await stopRedis(redis);
    await sleep(300); // the client notices the closed socket
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const res = await fee(app, '198.18.0.2');
      const took = Date.now() - started;
      expectProblem(res, 503, 'unavailable');
      expect(res.headers['retry-after']).toBe('5');
      expect(took).toBeLessThan(600);
    }
    const ready = await call(app, 'GET', '/health/ready');
    expectProblem(ready, 503, 'unavailable');
    expect(ready.json.detail).toContain('redis');
    expect((await call(app, 'GET', '/health')).status).toBe(200); // liveness does not need Redis
  });

  it('logs the outage once, as JSON, through several reconnect attempts; no raw ioredis stack lines', async () => {
    await sleep(2500);
    const down = lines.filter((l) => l.includes('redis unreachable at'));
    expect(down).toHaveLength(1);
    const parsed = JSON.parse(down[0]);
    expect(parsed).toMatchObject({ level: 'warn', context: 'Redis' });
    expect(parsed.msg).toContain(`127.0.0.1:${port}`);
    expect(parsed.msg).toContain('docker run -d -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:15');
    expect(stderr.join('\n')).not.toContain('[ioredis] Unhandled error event');
    for (const l of lines.filter((x) => x.trim())) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('recovers by itself when Redis is back', async () => {
    redis = await startRedis(port);
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await sleep(250);
      status = (await fee(app, '198.18.0.3')).status;
    }
    expect(status).toBe(200);
    expect(lines.filter((l) => l.includes('redis reachable again'))).toHaveLength(1);
    expect((await call(app, 'GET', '/health/ready')).status).toBe(200);
  });

  it('a Redis that was never there: the first request is already a fast 503', async () => {
    const deadPort = await freePort();
    const broken = await bootApp({ redisUrl: `redis://127.0.0.1:${deadPort}/0`, role: 'api' });
    try {
      const started = Date.now();
      const res = await fee(broken, '198.18.0.4');
      expectProblem(res, 503, 'unavailable');
      expect(Date.now() - started).toBeLessThan(600);
    } finally {
      await broken.close();
    }
  });
});
