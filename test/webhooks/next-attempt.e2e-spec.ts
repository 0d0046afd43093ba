import { bootApp, call, createFund, dbOf, mintKey, type ResponseJson, type TestApp, uniqueName } from '../utils/app';
import { isolatedDatabase } from './isolated-db';
import { eventually, startReceiver } from './receiver';

/** The schedule here: the retry comes 2 s after the first failure, 1 min after the second. */
const FIRST_MS = 2_000;
const SECOND_MS = 60_000;
/** From the attempt's start to its outcome being recorded (a local receiver answers in milliseconds) on a busy machine. */
const TOLERANCE_MS = 1_500;

describe('webhooks: a pending delivery says when its next attempt is due (nextAttemptAt, e2e)', () => {
  let app: TestApp;
  let key: string;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await isolatedDatabase('next'),
      WEBHOOK_RETRY_DELAYS: '2s,1m',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    app = await bootApp({}, env);
    const fund = await createFund(app);
    key = (
      await mintKey(app, { scopes: ['webhooks:manage'], fund: fund.slug, account: uniqueName('mgr'), plan: 'platform' })
    ).key;
  });
  afterAll(async () => {
    await app.close();
    for (const r of receivers) await r.close();
  });

  /** A subscription to a receiver answering `statuses[i]` to its i-th request (the last one from then on), and a test event sent to it. */
  async function testEventTo(...statuses: number[]) {
    const rx = await startReceiver((_r, i) => statuses[Math.min(i, statuses.length - 1)]);
    receivers.push(rx);
    const sub = await call(app, 'POST', '/api/v1/webhooks', {
      key,
      body: { url: rx.url, eventTypes: ['nav.published'] },
    });
    expect(sub.status).toBe(201);
    expect((await call(app, 'POST', `/api/v1/webhooks/${sub.json.id}/test`, { key })).status).toBe(202);
    return { rx, id: sub.json.id as string };
  }

  /** The subscription's one delivery once `ready` holds for it. */
  function deliveryWhen(id: string, ready: (d: ResponseJson) => boolean): Promise<ResponseJson> {
    return eventually(async () => {
      const res = await call(app, 'GET', `/api/v1/webhooks/${id}/deliveries`, { key });
      expect(res.status).toBe(200);
      const [d] = res.json.items as ResponseJson[];
      return d && ready(d) ? d : null;
    });
  }

  const recorded = (n: number) => (d: ResponseJson) => d.attempts.length === n && d.attempts[n - 1].statusCode !== null;
  const dueAfter = (d: ResponseJson) => Date.parse(d.nextAttemptAt) - Date.parse(d.attempts.at(-1).attemptedAt);

  it('after a 500 the delivery is pending and due the first step later; the retry comes then, and a success clears it', async () => {
    const { rx, id } = await testEventTo(500, 204);
    const pending = await deliveryWhen(id, recorded(1));
    expect(pending).toMatchObject({ status: 'pending', attemptCount: 1, completedAt: null });
    expect(pending.attempts[0].statusCode).toBe(500);
    expect(pending.nextAttemptAt).toEqual(new Date(pending.nextAttemptAt).toISOString());
    expect(dueAfter(pending)).toBeGreaterThanOrEqual(FIRST_MS);
    expect(dueAfter(pending)).toBeLessThan(FIRST_MS + TOLERANCE_MS);

    await rx.waitFor(2);
    // not before the time shown (the database's clock and this process's are the same host's)
    expect(rx.received[1].at).toBeGreaterThanOrEqual(Date.parse(pending.nextAttemptAt) - 50);
    const done = await deliveryWhen(id, (d) => d.status === 'succeeded');
    expect(done.nextAttemptAt).toBeNull();
    expect(done.attempts.map((a: ResponseJson) => a.statusCode)).toEqual([500, 204]);
  });

  it('after a second failure it is due the second step later; cancelling it (the subscription deleted) clears it', async () => {
    const { id } = await testEventTo(500);
    const pending = await deliveryWhen(id, recorded(2));
    expect(pending.status).toBe('pending');
    expect(dueAfter(pending)).toBeGreaterThanOrEqual(SECOND_MS);
    expect(dueAfter(pending)).toBeLessThan(SECOND_MS + TOLERANCE_MS);

    expect((await call(app, 'DELETE', `/api/v1/webhooks/${id}`, { key })).status).toBe(204);
    // a deleted subscription's deliveries are no longer listed: read the row
    const rows = await dbOf(app).query(
      `SELECT status, next_attempt_at FROM webhook_deliveries WHERE subscription_id = $1`,
      [id],
    );
    expect(rows).toEqual([{ status: 'cancelled', next_attempt_at: null }]);
  });
});
