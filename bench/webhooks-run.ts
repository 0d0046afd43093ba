import { readFileSync } from 'node:fs';
import { benchWebhooks } from './webhooks.bench';

/**
 * `node -r @swc-node/register bench/webhooks-run.ts [runs]`: the webhook rows of `npm run bench`
 * alone (BENCH_DATABASE_URL, BENCH_REDIS_URL, WEBHOOK_BENCH_PORT, WEBHOOK_BENCH_PACED events/s), each run with the load average
 * at its start. WEBHOOK_BENCH_PROFILE=file preloads that file into fundgate (e.g. an inspector CPU profiler).
 */
async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 1);
  if (process.env.WEBHOOK_BENCH_PROFILE) process.env.NODE_OPTIONS = `--require ${process.env.WEBHOOK_BENCH_PROFILE}`;
  for (let i = 0; i < runs; i++) {
    const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const r = await benchWebhooks({
      databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_bench_webhooks',
      redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10',
      port: Number(process.env.WEBHOOK_BENCH_PORT ?? 3911),
      pacedEventsPerSec: process.env.WEBHOOK_BENCH_PACED ? Number(process.env.WEBHOOK_BENCH_PACED) : undefined,
    });
    const ratio = (r.burst.deliveriesPerSec / r.baselinePerSec).toFixed(2);
    process.stdout.write(
      `run ${i + 1}: load ${loadavg} | burst ${r.burst.deliveriesPerSec}/s (p99 ${r.burst.p99DelayMs} ms, events committed in ${r.burst.committedInMs} ms) | ` +
        `baseline ${r.baselinePerSec}/s | ratio ${ratio} | paced p50/p99/max ${r.paced.p50DelayMs}/${r.paced.p99DelayMs}/${r.paced.maxDelayMs} ms | ` +
        `unique/verified/bad ${r.burst.deliveries}/${r.burst.verified}/${r.burst.failedVerification}, ${r.paced.deliveries}/${r.paced.verified}/${r.paced.failedVerification}\n`,
    );
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`webhooks bench failed: ${err.stack}\n`);
    process.exit(1);
  },
);
