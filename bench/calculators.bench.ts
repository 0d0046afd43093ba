/** The slice of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/**
 * Calculator load: `fee-calculator` at its longest horizon (100 years quarterly: 400 rows) and
 * `exposure-analysis` with a 5 000-row positions CSV, 10 connections for 5 s each. Target: p99
 * under 20 ms. The server must run with a calc-daily cap high enough for the load (RATE_LIMITS),
 * or `headers` must carry a key whose plan allows it; non-2xx answers are counted and reported.
 */
export const CALCULATOR_TARGET_P99_MS = 20;

export function positionsCsv(rows: number): string {
  const classes = ['crypto', 'equity', 'stablecoin', 'commodity', 'cash'];
  const lines = ['Asset,Value,Venue,Class'];
  for (let i = 0; i < rows; i++) {
    const value = ((i * 7919) % 2_000_000) - 300_000; // some shorts
    lines.push(
      `ASSET${i % 1200},${value}.${String(i % 100).padStart(2, '0')},Venue ${i % 17},${classes[i % classes.length]}`,
    );
  }
  return lines.join('\r\n');
}

interface EndpointResult {
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  non2xx: number;
  errors: number;
  withinTarget: boolean;
}

async function hit(
  url: string,
  body: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 10,
): Promise<EndpointResult> {
  const r = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    withinTarget: r.latency.p99 < CALCULATOR_TARGET_P99_MS && r.non2xx === 0 && r.errors === 0,
  };
}

export async function benchCalculators(
  baseUrl: string,
  opts: { headers?: Record<string, string>; seconds?: number } = {},
): Promise<Record<string, unknown>> {
  const headers = opts.headers ?? {};
  const seconds = opts.seconds ?? 5;
  const feeBody = JSON.stringify({ horizonYears: 100, crystallization: 'quarterly' });
  const exposureBody = JSON.stringify({ positionsCsv: positionsCsv(5000), inputMethod: 'upload' });
  // one warm-up call each so JIT compilation is not measured
  for (const [path, body] of [
    ['fee-calculator', feeBody],
    ['exposure-analysis', exposureBody],
  ]) {
    const res = await fetch(`${baseUrl}/api/v1/calc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    if (res.status !== 200)
      throw new Error(`warm-up ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
  const fee = await hit(`${baseUrl}/api/v1/calc/fee-calculator`, feeBody, headers, seconds);
  const exposure = await hit(`${baseUrl}/api/v1/calc/exposure-analysis`, exposureBody, headers, seconds);
  // one connection for 2 s: the time one request takes with no queue (10 connections on one
  // Node process queue behind each other, so their p99 is roughly ten of these)
  const feeAlone = await hit(`${baseUrl}/api/v1/calc/fee-calculator`, feeBody, headers, 2, 1);
  const exposureAlone = await hit(`${baseUrl}/api/v1/calc/exposure-analysis`, exposureBody, headers, 2, 1);
  return {
    targetP99Ms: CALCULATOR_TARGET_P99_MS,
    connections: 10,
    seconds,
    'fee-calculator (100 years, quarterly: 400 rows)': fee,
    [`exposure-analysis (5 000 rows, ${Buffer.byteLength(exposureBody)} bytes)`]: exposure,
    'one connection: fee-calculator p50/p99 ms': [feeAlone.latencyP50Ms, feeAlone.latencyP99Ms],
    'one connection: exposure-analysis p50/p99 ms': [exposureAlone.latencyP50Ms, exposureAlone.latencyP99Ms],
  };
}

if (require.main === module) {
  const base = process.argv[2] ?? 'http://127.0.0.1:3000';
  benchCalculators(base).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
