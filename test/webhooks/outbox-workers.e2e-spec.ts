import { outboxOver } from './outbox';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { seedBooks } from '../proposals/books-fixture';
import { isolatedDatabase } from './isolated-db';
import { eventually, startReceiver, verify } from './receiver';

/**
 * The outbox and the worker role. Redis "down" is simulated for the worker only (its Redis URL
 * points at a closed port); the machine's Redis keeps serving everyone else.
 */
describe('outbox dispatcher and delivery workers (e2e)', () => {
  let env: Record<string, string>;
  let api: TestApp;
  let fundId: string;
  let agent: TestKey;
  let manager: TestKey;
  const closeLater: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    env = {
      DATABASE_URL: await isolatedDatabase('whoutbox'),
      WEBHOOK_RETRY_DELAYS: '100ms,200ms',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    api = await bootApp({ role: 'api' }, env);
    const fund = await createFund(api);
    fundId = fund.id;
    await seedBooks(api, fund.id);
    agent = await mintKey(api, {
      scopes: ['fund:propose'],
      fund: fund.slug,
      account: uniqueName('agent'),
      plan: 'platform',
    });
    manager = await mintKey(api, {
      scopes: ['proposals:review', 'webhooks:manage'],
      fund: fund.slug,
      account: uniqueName('mgr'),
      plan: 'platform',
    });
  });
  afterAll(async () => {
    for (const c of closeLater.reverse()) await c();
    await api.close();
  });

  it('Redis unavailable during approval: the event waits in PostgreSQL and is delivered once Redis is back', async () => {
    const rx = await startReceiver();
    closeLater.push(rx.close);
    const sub = (
      await call(api, 'POST', '/api/v1/webhooks', {
        key: manager.key,
        body: { url: rx.url, eventTypes: ['proposal.approved'] },
      })
    ).json;
    const cutOff = await bootApp({ role: 'worker', redisUrl: 'redis://127.0.0.1:1/10' }, env);
    const staged = await call(api, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: agent.key,
      body: {
        entryDate: '2025-03-31',
        description: 'while redis is away',
        lines: [
          { accountCode: '5500', debit: '1.00' },
          { accountCode: '5600', credit: '1.00' },
        ],
      },
    });
    const approved = await call(api, 'POST', `/api/v1/admin/proposals/${staged.json.id}/approve`, {
      key: manager.key,
      body: {},
    });
    expect(approved.status).toBe(200);
    // The worker without Redis fans the event out to a delivery row but cannot enqueue it.
    await eventually(
      async () =>
        (await dbOf(api).query(`SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1`, [sub.id])).length > 0,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const [waiting] = await dbOf(api).query(
      `SELECT status, enqueued_at, attempt_count FROM webhook_deliveries WHERE subscription_id = $1`,
      [sub.id],
    );
    expect(waiting).toEqual({ status: 'pending', enqueued_at: null, attempt_count: 0 });
    expect(rx.received).toHaveLength(0);
    await cutOff.close();

    const worker = await bootApp({ role: 'worker' }, env);
    closeLater.push(() => worker.close());
    await rx.waitFor(1);
    expect(verify(sub.signingSecret, rx.received[0])).toMatchObject({
      type: 'proposal.approved',
      data: { proposalId: staged.json.id },
    });
    await call(api, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
  });

  it('a delivery whose BullMQ job was lost (Redis lost its data) is enqueued again by the sweeper', async () => {
    const rx = await startReceiver();
    closeLater.push(rx.close);
    const sub = (
      await call(api, 'POST', '/api/v1/webhooks', {
        key: manager.key,
        body: { url: rx.url, eventTypes: ['nav.published'] },
      })
    ).json;
    // As the dispatcher leaves it after step 2, but the job never reached (or no longer is in) Redis.
    // One transaction: a dispatcher woken by the commit's NOTIFY must never see the event undispatched.
    const eventId = await dbOf(api).transaction(async (m) => {
      const id = (await outboxOver(dbOf(api)).emit(m, fundId, 'nav.published', { lost: true })).id;
      await m.query(`UPDATE webhook_events SET dispatched_at = now() WHERE id = $1`, [id]);
      await m.query(
        `INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, enqueued_at) VALUES (gen_random_uuid(), $1, $2, $3, 'pending', now() - interval '2 minutes')`,
        [id, sub.id, fundId],
      );
      return id;
    });
    const worker = await bootApp({ role: 'worker' }, env);
    closeLater.push(() => worker.close());
    await rx.waitFor(1);
    expect(verify(sub.signingSecret, rx.received[0]).id).toBe(eventId);
    await call(api, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
  });

  it('several workers never make one attempt twice: every event arrives once per attempt', async () => {
    const firstSeen = new Set<string>();
    // Fail the first attempt of every event, accept the second.
    const rx = await startReceiver((r) => {
      const id = String(r.headers['webhook-id']);
      if (firstSeen.has(id)) return 204;
      firstSeen.add(id);
      return 500;
    });
    closeLater.push(rx.close);
    const sub = (
      await call(api, 'POST', '/api/v1/webhooks', {
        key: manager.key,
        body: { url: rx.url, eventTypes: ['nav.published'] },
      })
    ).json;
    const workers = await Promise.all([1, 2, 3].map(() => bootApp({ role: 'worker' }, env)));
    for (const w of workers) closeLater.push(() => w.close());
    const events = 60;
    await dbOf(api).transaction(async (m) => {
      for (let i = 0; i < events; i++) await outboxOver(dbOf(api)).emit(m, fundId, 'nav.published', { seq: i });
    });
    await rx.waitFor(events * 2, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.received).toHaveLength(events * 2);
    const perId = new Map<string, number>();
    for (const r of rx.received) {
      verify(sub.signingSecret, r);
      perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    }
    expect(perId.size).toBe(events);
    expect([...perId.values()].every((n) => n === 2)).toBe(true);
    const attempts = await dbOf(api).query(
      `SELECT d.status, count(a.*)::int AS n FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.subscription_id = $1 GROUP BY d.id, d.status`,
      [sub.id],
    );
    expect(attempts).toHaveLength(events);
    expect(attempts.every((a: { status: string; n: number }) => a.status === 'succeeded' && a.n === 2)).toBe(true);
  });
});
