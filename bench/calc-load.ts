/**
 * Closed-loop load for calculators: `connections` loops each sending the next request when the
 * previous answers, for `seconds`. Latencies are kept per status, so the p99 of answered (200)
 * calls is not flattered by fast 503s from the bounded queue, and the 503 share is reported.
 */
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

export async function calcLoad(url: string, body: string, connections: number, seconds: number): Promise<CalcLoad> {
  const end = Date.now() + seconds * 1000;
  const okMs: number[] = [];
  let shed = 0;
  let other = 0;
  const loop = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (res.status === 200) okMs.push(ms);
      else if (res.status === 503) {
        shed++;
        await new Promise((r) => setTimeout(r, 5)); // a real client would wait Retry-After; 5 ms keeps the pressure on
      } else other++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
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
