import { randomUUID } from 'node:crypto';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey } from '../utils/app';
import { isolatedDatabase } from '../webhooks/isolated-db';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { RetentionRepository } from '../../src/retention/retention.repository';
import { RETENTION_LIMITS, RetentionService } from '../../src/retention/retention.service';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';

const DAY_MS = 86_400_000;
const H = 3_600_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
/** An instant `ms` after the start of the UTC day `offset` days from today. */
const at = (offset: number, ms = 0) => new Date(today + offset * DAY_MS + ms).toISOString();

/**
 * The retention sweep of the webhook tables (WEBHOOK_RETENTION_DAYS, 30 here) against a database of
 * its own: ended deliveries whose last change is before the cutoff go with their attempts, then the
 * dispatched events no delivery references; pending deliveries, recent ones, undispatched events and
 * the subscription holders stay, and the retry route answers 404 for a delivery that went.
 */
describe('webhook retention (e2e)', () => {
  let app: TestApp;
  let config: AppConfig;
  let manager: TestKey;
  let fundId: string;
  let sub: string;
  let sub2: string;
  const d: Record<string, string> = {};

  beforeAll(async () => {
    const databaseUrl = await isolatedDatabase('retention_webhooks');
    // role api: neither the outbox dispatcher nor a scheduled sweep runs beside the tests'
    app = await bootApp({ databaseUrl, role: 'api', webhookRetentionDays: 30 });
    config = app.get<AppConfig>(APP_CONFIG);
    const fund = await createFund(app);
    fundId = fund.id;
    manager = await mintKey(app, { scopes: ['webhooks:manage'], fund: fund.slug, plan: 'developer' });
    const subscribe = async () => {
      const res = await call(app, 'POST', '/api/v1/webhooks', {
        key: manager.key,
        body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['nav.published'] },
      });
      expect(res.status).toBe(201);
      return res.json.id as string;
    };
    sub = await subscribe();
    sub2 = await subscribe();
    // events e1…e9: created 40 days ago (an hour apart, in this order), but e7 (yesterday), e8 (5 days ago), e9 (31 days ago)
    const events: [string, string, boolean][] = [
      ['e1', at(-40, 1 * H), true],
      ['e2', at(-40, 2 * H), true],
      ['e3', at(-40, 3 * H), true],
      ['e4', at(-40, 4 * H), true],
      ['e5', at(-40, 5 * H), false], // still in the outbox
      ['e6', at(-40, 6 * H), true], // no subscription took it
      ['e7', at(-1), true],
      ['e8', at(-5), true],
      ['e9', at(-31), true],
    ];
    for (const [id, created, dispatched] of events)
      await dbOf(app).query(
        `INSERT INTO webhook_events (id, fund_id, type, body, created_at, dispatched_at)
         VALUES ($1, $2, 'nav.published', '{}', $3, CASE WHEN $4 THEN $3::timestamptz + interval '1 second' END)`,
        [id, fundId, created, dispatched],
      );
    // deliveries: [name, event, subscription, status, completed, attempts]
    const deliveries: [string, string, string, string, string | null, number][] = [
      ['d1', 'e1', sub, 'succeeded', at(-39), 1],
      ['d2', 'e2', sub, 'failed', at(-35), 8],
      ['d2b', 'e2', sub2, 'cancelled', at(-31), 0],
      ['d3', 'e3', sub, 'failed', at(-38), 8],
      ['d3b', 'e3', sub2, 'succeeded', at(-2), 9], // sent again two days ago: its event stays
      ['d4', 'e4', sub, 'pending', null, 3], // still being retried
      ['d7', 'e7', sub, 'succeeded', at(-1), 1],
      ['d9', 'e9', sub, 'succeeded', at(-30), 1], // the cutoff itself: kept
      ['d9b', 'e9', sub2, 'failed', at(-30, -1), 1], // a millisecond before it
    ];
    for (const [name, event, subscription, status, completed, attempts] of deliveries) {
      d[name] = randomUUID();
      await dbOf(app).query(
        `INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, attempt_count, created_at, last_attempt_at, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
        [d[name], event, subscription, fundId, status, attempts, at(-40, 7 * H), completed],
      );
      await dbOf(app).query(
        `INSERT INTO webhook_attempts (delivery_id, attempt_no, attempted_at, status_code)
         SELECT $1, n, $2, 500 FROM generate_series(1, $3::int) n`,
        [d[name], at(-40, 7 * H), attempts],
      );
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const ids = async (sql: string) => (await dbOf(app).query<{ id: string }[]>(sql)).map((r) => r.id).sort();
  const names = (...n: string[]) => n.map((x) => d[x]).sort();
  const state = async () => ({
    deliveries: await ids(`SELECT id FROM webhook_deliveries`),
    attempts: (await dbOf(app).query(`SELECT count(*)::int AS n FROM webhook_attempts`))[0].n,
    events: await ids(`SELECT id FROM webhook_events`),
    holders: await dbOf(app).query(`SELECT subscription_id, key_id, act FROM webhook_subscription_holders ORDER BY id`),
    subscriptions: await ids(`SELECT id FROM webhook_subscriptions`),
  });

  it('with WEBHOOK_RETENTION_DAYS=0 the sweep deletes nothing', async () => {
    const before = await state();
    expect(before.deliveries).toHaveLength(9);
    expect(before.attempts).toBe(32);
    const keep = new RetentionService({ ...config, webhookRetentionDays: 0 }, app.get(RetentionRepository));
    expect((await keep.sweep()).webhooks).toEqual({
      cutoff: null,
      batches: 0,
      more: false,
      deliveries: 0,
      attempts: 0,
      events: 0,
    });
    expect(await state()).toEqual(before);
  });

  it('deletes old ended deliveries with their attempts, then orphaned old events, in bounded runs', async () => {
    const before = await state();
    const sweeper = app.get(RetentionService);
    const limits = { ...RETENTION_LIMITS, webhookBatch: 2, webhookBatches: 1 };
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push((await sweeper.sweep(new Date(), limits)).webhooks);
    expect(runs).toEqual([
      // d1 and d3 (the two oldest), then e1 (freed by d1) and e6 (never delivered): both batches full
      { cutoff: at(-30), batches: 2, more: true, deliveries: 2, attempts: 9, events: 2 },
      // d2 and d2b, then e2 (freed by them)
      { cutoff: at(-30), batches: 2, more: true, deliveries: 2, attempts: 8, events: 1 },
      // d9b; e9 keeps d9 (ended at the cutoff itself)
      { cutoff: at(-30), batches: 2, more: false, deliveries: 1, attempts: 1, events: 0 },
    ]);
    const after = await state();
    expect(after.deliveries).toEqual(names('d3b', 'd4', 'd7', 'd9'));
    expect(after.attempts).toBe(32 - 18); // d3b's 9, d4's 3, d7's and d9's 1 each
    // e3 is still referenced (d3b), e4 by a pending delivery, e5 is undispatched, e7 and e8 are recent
    expect(after.events).toEqual(['e3', 'e4', 'e5', 'e7', 'e8', 'e9']);
    expect(after.holders).toEqual(before.holders);
    expect(after.holders).toHaveLength(2);
    expect(after.subscriptions).toEqual(before.subscriptions);
    const attemptsOfPending = await dbOf(app).query(
      `SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1`,
      [d.d4],
    );
    expect(attemptsOfPending[0].n).toBe(3);
    // nothing left to do
    const again = (await sweeper.sweep()).webhooks;
    expect(again).toMatchObject({ deliveries: 0, attempts: 0, events: 0, more: false });
  });

  it('the deliveries listing and the retry route answer for what is left; a deleted delivery is a 404 naming retention', async () => {
    const listed = await call(app, 'GET', `/api/v1/webhooks/${sub}/deliveries`, { key: manager.key });
    expect(listed.status).toBe(200);
    expect((listed.json.items as { id: string }[]).map((i) => i.id).sort()).toEqual(names('d4', 'd7', 'd9'));
    const gone = await call(app, 'POST', `/api/v1/webhooks/${sub}/deliveries/${d.d1}/retry`, { key: manager.key });
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('not_found');
    expect(gone.json.detail).toBe(
      `delivery ${d.d1} was not found; ended deliveries are deleted 30 days after they end (WEBHOOK_RETENTION_DAYS)`,
    );
    const kept = await call(app, 'POST', `/api/v1/webhooks/${sub}/deliveries/${d.d7}/retry`, { key: manager.key });
    expect(kept.status).toBe(202);
    expect(kept.json.status).toBe('pending');
  });

  it('a retry that read the delivery just before the sweep deleted it answers 404, not 409', async () => {
    const repo = app.get(WebhooksRepository);
    const requeue = repo.requeueDelivery.bind(repo);
    // the sweep commits between the retry's read and its update (d9 ended at the cutoff: a cutoff 1 ms later takes it)
    jest.spyOn(repo, 'requeueDelivery').mockImplementationOnce(async (subscriptionId, deliveryId) => {
      expect(await app.get(RetentionRepository).deleteEndedDeliveries(new Date(at(-30, 1)), 10)).toEqual({
        deliveries: 1,
        attempts: 1,
      });
      return requeue(subscriptionId, deliveryId);
    });
    const raced = await call(app, 'POST', `/api/v1/webhooks/${sub}/deliveries/${d.d9}/retry`, { key: manager.key });
    expect([raced.status, raced.json.code]).toEqual([404, 'not_found']);
  });
});
