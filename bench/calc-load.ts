import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
/**
 * Closed-loop load for calculators: `connections` loops each sending the next request when the
 * previous answers, for `seconds`. Latencies are kept per status, so the p99 of answered (200)
 * calls is not flattered by fast 503s from the bounded queue, and the 503 share is reported.
 * After a 503 a loop waits what Retry-After says, as the API contract asks of clients (the pool
 * stays saturated: the loops that were not refused keep it busy); `retryAfter: 'ignore'` retries
 * after 5 ms instead — a client that ignores the contract, measured as well but not the bar.
 */
export type RetryAfterPolicy = 'honour' | 'ignore';

export interface CalcLoad {
  ok: number;
  shed: number;
  other: number;
  p50Ms: number;
  p99Ms: number;
  perSec: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One POST over a keep-alive socket; answers the status and Retry-After once the whole answer is read. */
function post(agent: Agent, url: URL, body: Buffer): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The client is node:http with one keep-alive socket per loop and the body encoded once: the load
 * generator shares the machine's two cores with the service, so it should cost as little as it can
 * (fetch re-encoded the 194 KB body and ran undici's stream machinery on every call).
 */
export async function calcLoad(
  url: string,
  body: string,
  connections: number,
  seconds: number,
  retryAfter: RetryAfterPolicy = 'honour',
): Promise<CalcLoad> {
  const end = Date.now() + seconds * 1000;
  const target = new URL(url);
  const payload = Buffer.from(body);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const okMs: number[] = [];
  let shed = 0;
  let other = 0;
  const loop = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await post(agent, target, payload);
      const ms = performance.now() - t0;
      if (res.status === 200) okMs.push(ms);
      else if (res.status === 503) {
        shed++;
        const waitMs = retryAfter === 'ignore' ? 5 : Number(res.retryAfter ?? 1) * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(waitMs, end - Date.now()))));
      } else other++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  okMs.sort((a, b) => a - b);
  return {
    ok: okMs.length,
    shed,
    other,
    p50Ms: Math.round(percentile(okMs, 50) * 10) / 10,
    p99Ms: Math.round(percentile(okMs, 99) * 10) / 10,
    perSec: Math.round(okMs.length / seconds),
  };
}

/**
 * The same load from a child process, so the hammer does not share an event loop (or a core's time
 * slices) with the client that measures fund-read latency beside it. `started` resolves once the
 * child's loops are running (its module load takes about a second).
 */
export function calcLoadInChild(
  url: string,
  body: string,
  connections: number,
  seconds: number,
  retryAfter: RetryAfterPolicy = 'honour',
): { started: Promise<void>; result: Promise<CalcLoad> } {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((r) => (markStarted = r));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (out.startsWith(STARTED)) markStarted();
  });
  const result = new Promise<CalcLoad>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.slice(STARTED.length)) as CalcLoad)
        : reject(new Error(`calc load child exited ${code}`)),
    );
  });
  child.stdin.end(JSON.stringify({ url, body, connections, seconds, retryAfter }));
  return { started, result };
}

const STARTED = 'started\n';

if (require.main === module) {
  let input = '';
  process.stdin.setEncoding('utf8').on('data', (d: string) => (input += d));
  process.stdin.on('end', () => {
    const { url, body, connections, seconds, retryAfter } = JSON.parse(input) as {
      url: string;
      body: string;
      connections: number;
      seconds: number;
      retryAfter: RetryAfterPolicy;
    };
    process.stdout.write(STARTED);
    void calcLoad(url, body, connections, seconds, retryAfter).then((r) => process.stdout.write(JSON.stringify(r)));
  });
}
