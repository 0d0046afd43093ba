import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDataSource } from '../src/database/data-source';
import { migrate } from '../src/database/migrate';
import { DeliveriesRepository } from '../src/webhooks/deliveries.repository';
import { EventOutbox } from '../src/webhooks/event-outbox';
import { TEST_EVENT_TYPE } from '../src/webhooks/event-types';
import { newSigningSecret } from '../src/webhooks/signing';
import { newFundWithSubscriptions, startFundgate, startVerifyingReceiver } from './webhooks.bench';

/**
 * `node -r @swc-node/register bench/webhooks-tarpit.ts`: can one fund starve another's deliveries?
 * Fund A has TARPIT_SUBS (20) subscriptions on a receiver that accepts TCP and never answers, and
 * sends TARPIT_RATE (10) test events/s (`POST …/test`, 600/min), to each subscription in turn; fund B has one subscription on a
 * normal receiver and emits 2 events/s. Answers fund B's commit→receipt delay (p50/p99/max) over
 * DURATION_S (30) seconds, and how long the process took to exit on SIGTERM afterwards (SIGKILL after
 * KILL_AFTER_S, 60).
 * Env: BENCH_DATABASE_URL, BENCH_REDIS_URL, WEBHOOK_BENCH_PORT (as bench/webhooks-run.ts).
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_bench_webhooks';
  const port = Number(process.env.WEBHOOK_BENCH_PORT ?? 3911);
  const tarpitSubs = Number(process.env.TARPIT_SUBS ?? 20);
  const tarpitRate = Number(process.env.TARPIT_RATE ?? 10);
  const durationS = Number(process.env.DURATION_S ?? 30);
  await migrate(databaseUrl, 'up');

  let received = 0;
  let held = 0;
  let peak = 0;
  const tarpit = http.createServer((req) => {
    // reads the request, never answers
    received++;
    peak = Math.max(peak, ++held);
    req.socket.once('close', () => held--);
  });
  await new Promise<void>((r) => tarpit.listen(0, '127.0.0.1', r));
  const tarpitUrl = `http://127.0.0.1:${(tarpit.address() as AddressInfo).port}/hook`;
  const secret = newSigningSecret();
  const normal = await startVerifyingReceiver([secret]);

  const db = createDataSource(databaseUrl, 8);
  await db.initialize();
  const outbox = new EventOutbox(new DeliveriesRepository(db));
  const fundA = await newFundWithSubscriptions(
    db,
    Array.from({ length: tarpitSubs }, (_, s) => `${tarpitUrl}?s=${s}`),
    Array.from({ length: tarpitSubs }, () => newSigningSecret()),
  );
  const fundB = await newFundWithSubscriptions(db, [normal.target(0)], [secret]);
  const app = await startFundgate(databaseUrl, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10', port);

  const committedAt = new Map<string, number>();
  const delays: number[] = [];
  normal.state.onReceipt = (id, _sub, at) => {
    const c = committedAt.get(id);
    if (c !== undefined && committedAt.delete(id)) delays.push(at - c);
  };
  // fund A's events are test events (`POST …/test`), one subscription after the other
  const tarpitSubIds = (
    await db.query(`SELECT id FROM webhook_subscriptions WHERE fund_id = $1 ORDER BY id`, [fundA])
  ).map((r: { id: string }) => r.id);
  const emit = (fundId: string, every: number, track: boolean) => async () => {
    const start = Date.now();
    for (let i = 0; Date.now() - start < durationS * 1000; i++) {
      const due = start + i * every;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const e = await db.transaction((m) =>
        track
          ? outbox.emit(m, fundId, 'nav.published', { i })
          : outbox.emit(m, fundId, TEST_EVENT_TYPE, { i }, tarpitSubIds[i % tarpitSubIds.length]),
      );
      if (track) committedAt.set(e.id, Date.now());
    }
  };
  await Promise.all([emit(fundA, 1000 / tarpitRate, false)(), emit(fundB, 500, true)()]);
  await new Promise((r) => setTimeout(r, 20_000)); // the last of B's deliveries, if they are coming
  const lost = committedAt.size;
  const t0 = Date.now();
  const killAfterMs = Number(process.env.KILL_AFTER_S ?? 60) * 1000;
  await new Promise<void>((resolve) => {
    if (app.exitCode !== null) return resolve();
    app.once('exit', () => resolve());
    app.kill('SIGTERM');
    setTimeout(() => app.kill('SIGKILL'), killAfterMs).unref();
  });
  const exitMs = Date.now() - t0;
  delays.sort((a, b) => a - b);
  const pct = (p: number) => delays[Math.min(delays.length - 1, Math.ceil((p / 100) * delays.length) - 1)];
  process.stdout.write(
    `fund B: ${delays.length} delivered, ${lost} not within 20 s of the end | commit→receipt p50 ${pct(50)} ms, p90 ${pct(90)} ms, ` +
      `p99 ${pct(99)} ms, max ${delays[delays.length - 1]} ms | tarpit got ${received} POSTs, held ${peak} at once | exit after SIGTERM ${exitMs} ms` +
      `${exitMs >= killAfterMs ? ' (SIGKILLed)' : ''}\n`,
  );
  await db.destroy();
  normal.close();
  tarpit.closeAllConnections();
  tarpit.close();
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`tarpit scenario failed: ${err.stack}\n`);
    process.exit(1);
  },
);
