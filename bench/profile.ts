import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createDataSource } from '../src/database/data-source';
import { mintPlatformKey } from './bench-keys';
import { load, RUNTIME_FLAGS } from './harness';

/**
 * `node -r @swc-node/register bench/profile.ts <path> [seconds] [fund slug] [mcp tool]`: mints a platform key, starts fundgate with
 * --cpu-prof (BENCH_DATABASE_URL / BENCH_REDIS_URL), loads <url> with autocannon, stops it and
 * prints the heaviest functions by self time and the share of time per package. The raw
 * .cpuprofile stays in bench/profiles/ (open it in Chrome DevTools).
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
}

const PORT = 3911;
const DIR = join(__dirname, 'profiles');

function where(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/src/'))
    return (
      'fundgate ' +
      url
        .slice(url.indexOf('/src/') + 1)
        .split('/')
        .slice(0, 2)
        .join('/')
    );
  return url === '' ? '(native/gc/idle)' : url.startsWith('node:') ? 'node core' : url;
}

export function summarize(file: string): string[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = p.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const idle = p.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const busy = total - idle;
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const n of p.nodes) {
    if (!n.hitCount || n.callFrame.functionName === '(idle)') continue;
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + n.hitCount);
    const pkg = where(n.callFrame.url);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + n.hitCount);
  }
  const pct = (v: number) => `${((100 * v) / busy).toFixed(1)}%`;
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  return [
    `busy ${((100 * busy) / total).toFixed(0)}% of samples; self time by package:`,
    ...top(byPkg, 14).map(([k, v]) => `  ${pct(v).padStart(6)}  ${k}`),
    'heaviest functions (self time):',
    ...top(byFn, 25).map(([k, v]) => `  ${pct(v).padStart(6)}  ${k}`),
  ];
}

async function main(): Promise<void> {
  const [path, seconds, fund, tool] = process.argv.slice(2);
  const db = createDataSource(process.env.BENCH_DATABASE_URL!, 2);
  await db.initialize();
  const bearer = (await mintPlatformKey(db, process.env.BENCH_DATABASE_URL!, ['fund:read'], fund ?? null)).key;
  await db.destroy();
  mkdirSync(DIR, { recursive: true });
  const before = new Set(readdirSync(DIR));
  const child = spawn(
    process.execPath,
    [
      ...RUNTIME_FLAGS,
      '--cpu-prof',
      `--cpu-prof-dir=${DIR}`,
      '-r',
      '@swc-node/register',
      join(__dirname, '..', 'src', 'main.ts'),
    ],
    {
      env: {
        ...process.env,
        RATE_LIMITS: JSON.stringify({ 'fund-minute': { platform: 100_000_000 } }),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: process.env.BENCH_DATABASE_URL,
        REDIS_URL: process.env.BENCH_REDIS_URL,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const target = `http://127.0.0.1:${PORT}${path}`;
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`http://127.0.0.1:${PORT}/health`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  const post = tool
    ? {
        method: 'POST' as const,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
      }
    : {};
  if (tool)
    Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  await load(target, { seconds: 2, headers, ...post });
  const r = await load(target, { seconds: Number(seconds ?? 10), headers, ...post });
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
  const file = readdirSync(DIR).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
  process.stdout.write(`${r.requestsPerSec} req/s, p99 ${r.latencyP99Ms} ms\n`);
  if (file) process.stdout.write(`${join(DIR, file)}\n${summarize(join(DIR, file)).join('\n')}\n`);
}

if (require.main === module) void main();
