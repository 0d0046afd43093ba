import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface LoadResult {
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  /** p99 to 0.01 ms from every answer's own time (only with `precise`): autocannon's own percentiles are whole milliseconds. */
  latencyP99PreciseMs?: number;
}

export async function load(
  url: string,
  opts: {
    connections?: number;
    seconds?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
    precise?: boolean;
  } = {},
): Promise<LoadResult> {
  const times: number[] = [];
  const run = autocannon({
    url,
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
  });
  if (opts.precise) run.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const r = await run;
  times.sort((a, b) => a - b);
  return {
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    ...(opts.precise && times.length > 0
      ? { latencyP99PreciseMs: Math.round(times[Math.ceil(0.99 * times.length) - 1] * 100) / 100 }
      : {}),
  };
}

/**
 * Node flags of every measured server process — fundgate and the baselines alike — as `npm start`
 * and the Docker image run fundgate (a 32 MB young generation).
 */
export const RUNTIME_FLAGS = ['--max-semi-space-size=32'];

/** Starts a TypeScript entry point as a child process and waits until it answers `readyUrl`. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...RUNTIME_FLAGS, '-r', '@swc-node/register', join(__dirname, '..', entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    try {
      const res = await fetch(readyUrl);
      if (res.status < 500) return child;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`${entry} did not become ready at ${readyUrl}`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

export function ratio(a: number, b: number): number {
  return b === 0 ? 0 : Math.round((a / b) * 1000) / 1000;
}
