import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { bullPrefix } from '../../src/webhooks/bull-connections';
import { outboxOver } from './outbox';
import { DELIVERY_QUEUE } from '../../src/webhooks/outbox-dispatcher';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { isolatedDatabase } from './isolated-db';
import { eventually, type Received, startReceiver, verify } from './receiver';

/**
 * Deliveries travel in batch jobs (one per subscription and batch): events committed together
 * reach each subscription in one job, claimed and recorded together; a failure of some attempts
 * retries only those, in the same job, with the same webhook-id, on the retry schedule.
 */
describe('batched webhook deliveries (e2e)', () => {
  let app: TestApp;
  let env: Record<string, string>;
  let fundId: string;
  let manager: TestKey;
  const closeLater: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    env = {
      DATABASE_URL: await isolatedDatabase('whbatch'),
      WEBHOOK_RETRY_DELAYS: '300ms,300ms',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    app = await bootApp({}, env);
    const fund = await createFund(app);
    fundId = fund.id;
    manager = await mintKey(app, {
      scopes: ['webhooks:manage'],
      fund: fund.slug,
      account: uniqueName('mgr'),
      plan: 'platform',
    });
  });
  afterAll(async () => {
    for (const c of closeLater.reverse()) await c();
    await app.close();
  });

  const subscribe = async (url: string, eventTypes: string[]) => {
    const res = await call(app, 'POST', '/api/v1/webhooks', { key: manager.key, body: { url, eventTypes } });
    expect(res.status).toBe(201);
    return res.json as { id: string; signingSecret: string };
  };
  const seqOf = (r: Received) => (JSON.parse(r.body) as { data: { seq: number } }).data.seq;
  const countById = (rs: Received[]) => {
    const n = new Map<string, number>();
    for (const r of rs) n.set(String(r.headers['webhook-id']), (n.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    return n;
  };

  it('one job per subscription: a target failing some attempts gets only those again; the other target is untouched', async () => {
    const events = 20;
    const seen = new Set<string>();
    // Odd events fail their first attempt; everything else is accepted.
    const flaky = await startReceiver((r) => {
      const id = String(r.headers['webhook-id']);
      const retried = seen.has(id);
      seen.add(id);
      return seqOf(r) % 2 === 1 && !retried ? 500 : 204;
    });
    const steady = await startReceiver();
    closeLater.push(flaky.close, steady.close);
    const flakySub = await subscribe(flaky.url, ['nav.published']);
    const steadySub = await subscribe(steady.url, ['nav.published']);

    await dbOf(app).transaction(async (m) => {
      for (let i = 0; i < events; i++) await outboxOver(dbOf(app)).emit(m, fundId, 'nav.published', { seq: i });
    });
    await Promise.all([flaky.waitFor(events + events / 2), steady.waitFor(events)]);
    await new Promise((r) => setTimeout(r, 1000)); // nothing more may arrive
    expect(steady.received).toHaveLength(events);
    expect(flaky.received).toHaveLength(events + events / 2);

    // Every request verifies; the retry carries the same webhook-id and the same bytes.
    for (const r of steady.received) verify(steadySub.signingSecret, r);
    for (const r of flaky.received) verify(flakySub.signingSecret, r);
    const flakyCounts = countById(flaky.received);
    expect(flakyCounts.size).toBe(events);
    for (const r of flaky.received) expect(flakyCounts.get(String(r.headers['webhook-id']))).toBe(seqOf(r) % 2 ? 2 : 1);
    for (const [id] of flakyCounts) {
      const bodies = new Set(flaky.received.filter((r) => r.headers['webhook-id'] === id).map((r) => r.body));
      expect(bodies.size).toBe(1);
    }
    expect([...countById(steady.received).values()].every((n) => n === 1)).toBe(true);

    // The retry waited for the schedule (300 ms) after the first pass.
    const firstPass = Math.max(...flaky.received.slice(0, events).map((r) => r.at));
    const retries = flaky.received.slice(events);
    expect(retries.every((r) => seqOf(r) % 2 === 1)).toBe(true);
    expect(Math.min(...retries.map((r) => r.at)) - firstPass).toBeGreaterThanOrEqual(250);

    // The events were committed together: each subscription's deliveries went in one job.
    const jobs = await dbOf(app).query(
      `SELECT subscription_id, count(DISTINCT job_id)::int AS jobs, count(*)::int AS deliveries
         FROM webhook_deliveries WHERE subscription_id = ANY ($1::uuid[]) GROUP BY subscription_id`,
      [[flakySub.id, steadySub.id]],
    );
    expect(jobs).toHaveLength(2);
    expect(jobs.every((j: { jobs: number; deliveries: number }) => j.jobs === 1 && j.deliveries === events)).toBe(true);

    // Every attempt is recorded: odd events 500 then 204, even events 204 once; all succeeded.
    const attempts: { seq: number; status: string; codes: number[] }[] = await eventually(async () => {
      const rows = await dbOf(app).query(
        `SELECT (e.body::json -> 'data' ->> 'seq')::int AS seq, d.status,
                array_agg(a.status_code ORDER BY a.attempt_no)::int[] AS codes
           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_attempts a ON a.delivery_id = d.id
          WHERE d.subscription_id = $1 GROUP BY d.id, e.body, d.status`,
        [flakySub.id],
      );
      return rows.every((r: { status: string }) => r.status === 'succeeded') ? rows : null;
    });
    expect(attempts).toHaveLength(events);
    for (const a of attempts) expect(a.codes).toEqual(a.seq % 2 ? [500, 204] : [204]);
    const steadyAttempts = await dbOf(app).query(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.subscription_id = $1 AND a.status_code = 204`,
      [steadySub.id],
    );
    expect(steadyAttempts[0].n).toBe(events);
  });

  it('a 410 in a batch ends that batch and disables its subscription; the last failed attempt marks the rest failed', async () => {
    const events = 6;
    // Event 0 answers 410 (the others in the same batch were already on their way).
    const gone = await startReceiver((r) => (seqOf(r) === 0 ? 410 : 204));
    const failing = await startReceiver(() => 503);
    closeLater.push(gone.close, failing.close);
    const goneSub = await subscribe(gone.url, ['proposal.rejected']);
    const failingSub = await subscribe(failing.url, ['proposal.rejected']);
    await dbOf(app).transaction(async (m) => {
      for (let i = 0; i < events; i++) await outboxOver(dbOf(app)).emit(m, fundId, 'proposal.rejected', { seq: i });
    });
    await failing.waitFor(events * 3); // first try + 2 scheduled retries, each for the whole batch
    type State = { subscription_id: string; status: string; attempt_count: number };
    const settled = await eventually(async () => {
      const rows: State[] = await dbOf(app).query(
        `SELECT subscription_id, status, attempt_count FROM webhook_deliveries WHERE subscription_id = ANY ($1::uuid[])`,
        [[goneSub.id, failingSub.id]],
      );
      return rows.length === events * 2 && rows.every((r) => r.status !== 'pending') ? rows : null;
    });
    const states = settled!;
    const failingRows = states.filter((r) => r.subscription_id === failingSub.id);
    expect(failingRows.every((r) => r.status === 'failed' && r.attempt_count === 3)).toBe(true);
    const goneRows = states.filter((r) => r.subscription_id === goneSub.id);
    expect(goneRows.every((r) => r.attempt_count === 1)).toBe(true);
    expect(goneRows.filter((r) => r.status === 'cancelled')).toHaveLength(1);
    expect(goneRows.filter((r) => r.status === 'succeeded')).toHaveLength(events - 1);
    const sub = await call(app, 'GET', `/api/v1/webhooks/${goneSub.id}`, { key: manager.key });
    expect(sub.json).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });
    await new Promise((r) => setTimeout(r, 800));
    expect(gone.received).toHaveLength(events);
    expect(failing.received).toHaveLength(events * 3);
  });

  it('the sweeper asks BullMQ about the job each delivery names: a lost batch is enqueued again, a waiting one is left alone', async () => {
    const rx = await startReceiver();
    closeLater.push(rx.close);
    const sub = await subscribe(rx.url, ['report.distributed']);
    // A batch job still waiting in Redis (a retry an hour away) for one delivery.
    const config = app.get<AppConfig>(APP_CONFIG);
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix: bullPrefix(config) });
    closeLater.push(async () => {
      await queue.remove('waiting-batch-g1');
      await queue.close();
      redis.disconnect();
    });
    const waitingId = randomUUID();
    await queue.add(
      'deliver',
      { deliveries: [{ id: waitingId, generation: 1 }] },
      { jobId: 'waiting-batch-g1', delay: 3_600_000 },
    );
    // As the dispatcher leaves a batch after step 2: three deliveries whose job is no longer in
    // Redis, one whose job is waiting. One transaction: a dispatcher woken by the commit must never
    // see the events undispatched.
    const ids = await dbOf(app).transaction(async (m) => {
      const out: string[] = [];
      for (let i = 0; i < 4; i++) {
        const id = (await outboxOver(dbOf(app)).emit(m, fundId, 'report.distributed', { lost: i })).id;
        await m.query(`UPDATE webhook_events SET dispatched_at = now() WHERE id = $1`, [id]);
        await m.query(
          `INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, enqueued_at, job_id)
           VALUES ($1, $2, $3, $4, 'pending', now() - interval '2 minutes', $5)`,
          [i === 3 ? waitingId : randomUUID(), id, sub.id, fundId, i === 3 ? 'waiting-batch-g1' : 'lost-batch-g1'],
        );
        out.push(id);
      }
      return out;
    });
    const worker = await bootApp({ role: 'worker' }, env); // sweeps on its first pass
    closeLater.push(() => worker.close());
    await rx.waitFor(3);
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received.map((r) => verify(sub.signingSecret, r).id).sort()).toEqual(ids.slice(0, 3).sort());
    const rows = await eventually(async () => {
      const r: { id: string; status: string; job_id: string }[] = await dbOf(app).query(
        `SELECT id, status, job_id FROM webhook_deliveries WHERE subscription_id = $1`,
        [sub.id],
      );
      return r.filter((d) => d.status === 'succeeded').length === 3 ? r : null;
    });
    const waiting = rows!.find((d) => d.id === waitingId);
    expect(waiting).toMatchObject({ status: 'pending', job_id: 'waiting-batch-g1' });
    expect(rows!.filter((d) => d.id !== waitingId).every((d) => d.job_id !== 'lost-batch-g1')).toBe(true);
  });
});
