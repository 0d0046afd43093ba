import { Webhook } from 'standardwebhooks';
import {
  bootApp,
  call,
  createFund,
  dbOf,
  mintKey,
  type ResponseJson,
  type TestApp,
  type TestKey,
  uniqueName,
} from '../utils/app';
import { type Books, seedBooks } from '../proposals/books-fixture';
import { MAX_SUBSCRIPTIONS_PER_FUND } from '../../src/webhooks/webhooks.service';
import { KeysRepository } from '../../src/keys/keys.repository';
import { KeyExpiryJob } from '../../src/keys/key-expiry.job';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository';
import { isolatedDatabase } from './isolated-db';
import { eventually, startReceiver, verify } from './receiver';

const DELAYS = '100ms,200ms,300ms';

describe('webhooks: subscriptions and signed, retried deliveries (e2e, real receiver)', () => {
  let app: TestApp;
  let env: Record<string, string>;
  let books: Books;
  let otherBooks: Books;
  let agent: TestKey;
  let manager: TestKey;
  let otherManager: TestKey;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    env = {
      DATABASE_URL: await isolatedDatabase('wh'),
      WEBHOOK_RETRY_DELAYS: DELAYS,
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    app = await bootApp({}, env);
    const fund = await createFund(app);
    books = await seedBooks(app, fund.id);
    const other = await createFund(app);
    otherBooks = await seedBooks(app, other.id);
    agent = await mintKey(app, {
      scopes: ['fund:propose'],
      fund: fund.slug,
      account: uniqueName('agent'),
      plan: 'platform',
    });
    manager = await mintKey(app, {
      scopes: ['proposals:review', 'nav:publish', 'webhooks:manage'],
      fund: fund.slug,
      account: uniqueName('mgr'),
      plan: 'platform',
    });
    otherManager = await mintKey(app, {
      scopes: ['proposals:review', 'webhooks:manage', 'fund:propose'],
      fund: other.slug,
      account: uniqueName('omgr'),
      plan: 'platform',
    });
  });
  afterAll(async () => {
    await app.close();
    for (const r of receivers) await r.close();
  });

  const subscribe = async (url: string, eventTypes: string[], key = manager.key) => {
    const res = await call(app, 'POST', '/api/v1/webhooks', { key, body: { url, eventTypes, description: 'test' } });
    expect(res.status).toBe(201);
    return res.json as { id: string; signingSecret: string };
  };
  const stagedJournal = async (amount = '10.00') => {
    const res = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: agent.key,
      body: {
        entryDate: '2025-04-30', // after the fixture's run of 2025-03-31, which a test here publishes (closing the books)
        description: 'hook',
        lines: [
          { accountCode: '5500', debit: amount },
          { accountCode: '5600', credit: amount },
        ],
      },
    });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };
  const deliveriesOf = async (subscriptionId: string) => {
    const res = await call(app, 'GET', `/api/v1/webhooks/${subscriptionId}/deliveries`, { key: manager.key });
    expect(res.status).toBe(200);
    return res.json.items as ResponseJson[];
  };

  it('manages subscriptions; the whsec_ secret is shown once', async () => {
    const sub = await subscribe('http://127.0.0.1:9/never', ['nav.published']);
    expect(sub.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await call(app, 'GET', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
    expect(got.status).toBe(200);
    expect(got.body).not.toContain(sub.signingSecret);
    expect(got.json).toMatchObject({
      id: sub.id,
      eventTypes: ['nav.published'],
      enabled: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(got.json.signingSecret).toBeUndefined();
    const list = await call(app, 'GET', '/api/v1/webhooks', { key: manager.key });
    expect(list.body).not.toContain(sub.signingSecret);
    expect(list.json.items.map((s: { id: string }) => s.id)).toContain(sub.id);
    const patched = await call(app, 'PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: manager.key,
      body: { eventTypes: ['nav.published', 'proposal.rejected'], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ eventTypes: ['nav.published', 'proposal.rejected'], enabled: false });
    // an edit is refused in the same words as a creation (the console shows them beside the field)
    const emptied = await call(app, 'PATCH', `/api/v1/webhooks/${sub.id}`, {
      key: manager.key,
      body: { url: '', eventTypes: [] },
    });
    expect(emptied.status).toBe(400);
    expect(emptied.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'url', message: 'must be an http(s) URL of 1 to 2048 characters' },
        { field: 'eventTypes', message: 'must name at least one event type' },
      ]),
    );
    expect((await call(app, 'GET', `/api/v1/webhooks/${sub.id}`, { key: otherManager.key })).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: otherManager.key })).status).toBe(404);
    const del = await call(app, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
    expect(del.status).toBe(204);
    expect((await call(app, 'GET', `/api/v1/webhooks/${sub.id}`, { key: manager.key })).status).toBe(404);
    const bad = await call(app, 'POST', '/api/v1/webhooks', {
      key: manager.key,
      body: { url: 'ftp://x', eventTypes: ['nope'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { field: string }) => e.field)).toContain('eventTypes');
    const badScheme = await call(app, 'POST', '/api/v1/webhooks', {
      key: manager.key,
      body: { url: 'ftp://example.com/x', eventTypes: ['nav.published'] },
    });
    expect(badScheme.status).toBe(400);
    expect(badScheme.json.errors[0].field).toBe('url');
    // WEBHOOK_REQUIRE_HTTPS (on in production): fund events never go out in cleartext
    const strict = await bootApp({ webhookRequireHttps: true }, env);
    try {
      const cleartext = await call(strict, 'POST', '/api/v1/webhooks', {
        key: manager.key,
        body: { url: 'http://127.0.0.1:9/x', eventTypes: ['nav.published'] },
      });
      expect([cleartext.status, cleartext.json.errors[0].field]).toEqual([400, 'url']);
      expect(cleartext.json.errors[0].message).toContain('must use https');
    } finally {
      await strict.close();
    }
  });

  it('deleting a subscription cancels its pending deliveries at once, not when their jobs next run', async () => {
    const sub = await subscribe('http://127.0.0.1:9/deleted', ['nav.published']);
    const db = dbOf(app);
    // pending deliveries as the dispatcher leaves them between attempts (enqueued, waiting in BullMQ)
    const events = ['a', 'b', 'c'].map((x) => `evt_del_${x}_${Date.now()}`);
    for (const e of events) {
      await db.query(
        `INSERT INTO webhook_events (id, fund_id, type, body, dispatched_at) VALUES ($1, $2, 'nav.published', '{}', now())`,
        [e, books.fundId],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (id, event_id, subscription_id, fund_id, status, attempt_count, enqueued_at, job_id)
         VALUES (gen_random_uuid(), $1, $2, $3, 'pending', 1, now(), 'waiting')`,
        [e, sub.id, books.fundId],
      );
    }
    await db.query(`UPDATE webhook_deliveries SET status = 'succeeded', completed_at = now() WHERE event_id = $1`, [
      events[2],
    ]);
    expect((await call(app, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key })).status).toBe(204);
    const rows: { status: string; ended: boolean }[] = await db.query(
      `SELECT d.status, d.completed_at IS NOT NULL AS ended FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.subscription_id = $1 ORDER BY e.id`,
      [sub.id],
    );
    expect(rows).toEqual([
      { status: 'cancelled', ended: true },
      { status: 'cancelled', ended: true },
      { status: 'succeeded', ended: true },
    ]);
    // an attempt that was in flight when the subscription went records its outcome; the delivery stays cancelled
    const [inFlight] = await db.query(`SELECT id, generation FROM webhook_deliveries WHERE event_id = $1`, [events[0]]);
    await app.get(DeliveriesRepository).record([
      {
        id: inFlight.id,
        generation: inFlight.generation,
        attemptNo: 1,
        result: { statusCode: null, latencyMs: 15_000, error: 'timed out', responseSnippet: null },
        status: 'pending',
        gone: false,
        retryInMs: 100,
      },
    ]);
    const [after] = await db.query(
      `SELECT status, completed_at IS NOT NULL AS ended, next_attempt_at FROM webhook_deliveries WHERE id = $1`,
      [inFlight.id],
    );
    expect(after).toEqual({ status: 'cancelled', ended: true, next_attempt_at: null }); // and no retry is dated
  });

  it('revoking or expiring a key that redirected, re-keyed or re-enabled a subscription disables it, not only its creator', async () => {
    const f = await createFund(app);
    const holder = (name: string) =>
      mintKey(app, { scopes: ['webhooks:manage'], fund: f.slug, account: uniqueName(name), plan: 'platform' });
    const [a, b, c] = [await holder('a'), await holder('b'), await holder('c')];
    const create = async () =>
      (
        await call(app, 'POST', '/api/v1/webhooks', {
          key: a.key,
          body: { url: 'http://127.0.0.1:9/a', eventTypes: ['nav.published'] },
        })
      ).json.id as string;
    const state = async (id: string) => (await call(app, 'GET', `/api/v1/webhooks/${id}`, { key: a.key })).json;
    // B rotates the secret of A's subscription and points it at B's URL; revoking B disables it
    const redirected = await create();
    expect((await call(app, 'POST', `/api/v1/webhooks/${redirected}/rotate-secret`, { key: b.key })).status).toBe(200);
    const patched = await call(app, 'PATCH', `/api/v1/webhooks/${redirected}`, {
      key: b.key,
      body: { url: 'http://127.0.0.1:9/b' },
    });
    expect(patched.status).toBe(200);
    expect((await app.get(KeysRepository).revokeKeysAndDerived([b.id])).webhooks).toBe(1);
    expect(await state(redirected)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining('was revoked'),
    });
    // C re-enables a disabled subscription of A's; C's expiry disables it again
    const reenabled = await create();
    await call(app, 'PATCH', `/api/v1/webhooks/${reenabled}`, { key: a.key, body: { enabled: false } });
    await call(app, 'PATCH', `/api/v1/webhooks/${reenabled}`, { key: c.key, body: { enabled: true } });
    expect((await state(reenabled)).enabled).toBe(true);
    await dbOf(app).query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [c.id]);
    await app.get(KeyExpiryJob).sweep();
    expect(await state(reenabled)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining('expired'),
    });
    // A's untouched subscription stays on; every act is on record, the creator's first
    const untouched = await create();
    expect((await state(untouched)).enabled).toBe(true);
    // changes that change nothing (its own URL again, enabled while enabled) make nobody a holder
    const d = await holder('d');
    const noop = await call(app, 'PATCH', `/api/v1/webhooks/${untouched}`, {
      key: d.key,
      body: { url: 'http://127.0.0.1:9/a', enabled: true },
    });
    expect(noop.status).toBe(200);
    expect(
      await dbOf(app).query(`SELECT act FROM webhook_subscription_holders WHERE subscription_id = $1 AND key_id = $2`, [
        untouched,
        d.id,
      ]),
    ).toEqual([]);
    const acts = await dbOf(app).query(
      `SELECT act, key_id FROM webhook_subscription_holders WHERE subscription_id = $1 ORDER BY id`,
      [redirected],
    );
    expect(acts).toEqual([
      { act: 'created', key_id: a.id },
      { act: 'secret_rotated', key_id: b.id },
      { act: 'url_changed', key_id: b.id },
    ]);
    // the person behind a key that changed a subscription holds it too (member removal and demotion disable through this)
    const [{ user_id: personOfA }] = await dbOf(app).query(
      `SELECT created_by_user_id AS user_id FROM api_keys WHERE id = $1`,
      [a.id],
    );
    expect(personOfA).toBeTruthy();
    expect(await app.get(WebhooksRepository).disableHeldBy(f.id, personOfA, 'test: removed')).toBe(1); // untouched, the one still on
  });

  it('approve → proposal.approved reaches the subscriber, verified; other types and other funds get nothing', async () => {
    const rx = await receiver();
    const bystander = await receiver();
    const foreign = await receiver();
    const sub = await subscribe(rx.url, ['proposal.approved', 'proposal.rejected']);
    await subscribe(bystander.url, ['nav.published']);
    await subscribe(foreign.url, ['proposal.approved'], otherManager.key);
    const id = await stagedJournal('21.00');
    const approved = await call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, {
      key: manager.key,
      body: { note: 'fine' },
    });
    expect(approved.status).toBe(200);
    await rx.waitFor(1);
    const event = verify(sub.signingSecret, rx.received[0]);
    expect(event).toMatchObject({
      type: 'proposal.approved',
      fundId: books.fundId,
      data: { proposalId: id, note: 'fine', executionRef: approved.json.executionRef },
    });
    expect(rx.received[0].headers['webhook-id']).toBe(event.id);
    expect(rx.received[0].headers['content-type']).toBe('application/json');
    expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'fundId', 'id', 'type']);
    await new Promise((r) => setTimeout(r, 500));
    expect(bystander.received).toHaveLength(0);
    expect(foreign.received).toHaveLength(0);
    const [delivery] = await deliveriesOf(sub.id);
    expect(delivery).toMatchObject({
      eventId: event.id,
      eventType: 'proposal.approved',
      status: 'succeeded',
      attemptCount: 1,
    });
    expect(delivery.attempts[0]).toMatchObject({ attemptNo: 1, statusCode: 204, error: null });
    expect(typeof delivery.attempts[0].latencyMs).toBe('number');
  });

  it('reject → proposal.rejected', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    const id = await stagedJournal('22.00');
    expect(
      (
        await call(app, 'POST', `/api/v1/admin/proposals/${id}/reject`, {
          key: manager.key,
          body: { reason: 'duplicate' },
        })
      ).status,
    ).toBe(200);
    await rx.waitFor(1);
    expect(verify(sub.signingSecret, rx.received[0])).toMatchObject({
      type: 'proposal.rejected',
      data: { proposalId: id, reason: 'duplicate' },
    });
  });

  it('LP report approval → report.distributed (and proposal.approved)', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['report.distributed', 'proposal.approved']);
    const staged = await call(app, 'POST', '/api/v1/fund/proposals/lp-report', {
      key: agent.key,
      body: { lpReportId: books.draftReportId },
    });
    expect(staged.status).toBe(201);
    expect(
      (await call(app, 'POST', `/api/v1/admin/proposals/${staged.json.id}/approve`, { key: manager.key, body: {} }))
        .status,
    ).toBe(200);
    await rx.waitFor(2);
    const events = rx.received.map((r) => verify(sub.signingSecret, r));
    const report = events.find((e) => e.type === 'report.distributed')!;
    expect(report.data).toMatchObject({
      lpReportId: books.draftReportId,
      proposalId: staged.json.id,
      periodStart: '2025-01-01',
      periodEnd: '2025-03-31',
    });
    expect(events.map((e) => e.type).sort()).toEqual(['proposal.approved', 'report.distributed']);
  });

  it('NAV publication → nav.published', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['nav.published']);
    expect(
      (await call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, { key: manager.key })).status,
    ).toBe(200);
    await rx.waitFor(1);
    expect(verify(sub.signingSecret, rx.received[0])).toMatchObject({
      type: 'nav.published',
      data: { navRunId: books.completeRunId, valuationDate: '2025-03-31', netAssetValue: '1234567.89' },
    });
  });

  it('a receiver failing twice then succeeding gets the event on the third attempt, same webhook-id, every attempt recorded', async () => {
    const rx = await receiver((_r, i) => (i < 2 ? 500 : 200));
    const sub = await subscribe(rx.url, ['proposal.approved']);
    const id = await stagedJournal('23.00');
    expect(
      (await call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, { key: manager.key, body: {} })).status,
    ).toBe(200);
    await rx.waitFor(3);
    const ids = rx.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    expect(rx.received.map((r) => r.body)).toEqual([rx.received[0].body, rx.received[0].body, rx.received[0].body]);
    for (const r of rx.received) verify(sub.signingSecret, r);
    // The schedule is honoured: ≥100 ms, then ≥200 ms between attempts.
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(90);
    expect(rx.received[2].at - rx.received[1].at).toBeGreaterThanOrEqual(190);
    const delivery = await eventually(async () => {
      const [d] = await deliveriesOf(sub.id);
      return d?.status === 'succeeded' ? d : null;
    });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].responseSnippet).toBe('status 500');
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(3);
  });

  it('after the last attempt the delivery is failed, and a manual retry delivers it', async () => {
    const rx = await receiver(() => 503);
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    const id = await stagedJournal('24.00');
    await call(app, 'POST', `/api/v1/admin/proposals/${id}/reject`, { key: manager.key, body: { reason: 'x' } });
    await rx.waitFor(4); // first try + 3 scheduled retries
    const failed = await eventually(async () => {
      const [d] = await deliveriesOf(sub.id);
      return d?.status === 'failed' ? d : null;
    });
    expect(failed.attemptCount).toBe(4);
    const early = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/deliveries/${failed.id}/retry`, {
      key: otherManager.key,
    });
    expect(early.status).toBe(404);
    rx.setBehaviour(() => 204);
    const retry = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/deliveries/${failed.id}/retry`, {
      key: manager.key,
    });
    expect(retry.status).toBe(202);
    expect(retry.json.status).toBe('pending');
    await rx.waitFor(5);
    expect(rx.received[4].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
    const done = await eventually(async () => {
      const [d] = await deliveriesOf(sub.id);
      return d?.status === 'succeeded' ? d : null;
    });
    expect(done.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 503, 503, 503, 204]);
    const again = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/deliveries/${failed.id}/retry`, {
      key: manager.key,
    });
    expect(again.status).toBe(202); // a succeeded delivery can be sent again (see the resend test)
  });

  it('a subscription whose deliveries fail for good and that reached nothing for 3 days is disabled', async () => {
    const rx = await receiver(() => 204);
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    const db = dbOf(app);
    await db.query(`UPDATE webhook_subscriptions SET created_at = now() - interval '4 days' WHERE id = $1`, [sub.id]);
    const reject = async (amount: string) =>
      call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal(amount)}/reject`, {
        key: manager.key,
        body: { reason: 'x' },
      });
    await reject('27.00');
    await rx.waitFor(1); // delivered: a success within the 3 days
    rx.setBehaviour(() => 503);
    await reject('28.00');
    await rx.waitFor(5);
    await eventually(async () => ((await deliveriesOf(sub.id)).some((d) => d.status === 'failed') ? true : null));
    const state = async () => (await call(app, 'GET', `/api/v1/webhooks/${sub.id}`, { key: manager.key })).json;
    expect((await state()).enabled).toBe(true); // it reached the receiver a moment ago
    await db.query(
      `UPDATE webhook_deliveries SET completed_at = now() - interval '4 days' WHERE subscription_id = $1 AND status = 'succeeded'`,
      [sub.id],
    );
    await reject('29.00');
    const disabled = await eventually(async () => ((await state()).enabled === false ? await state() : null));
    expect(disabled.disabledReason).toContain('no delivery reached the receiver for 3 days');
  });

  it('410 Gone disables the subscription: no retry, no later deliveries', async () => {
    const rx = await receiver(() => 410);
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal('25.00')}/reject`, {
      key: manager.key,
      body: { reason: 'x' },
    });
    await rx.waitFor(1);
    const disabled = await eventually(async () => {
      const s = (await call(app, 'GET', `/api/v1/webhooks/${sub.id}`, { key: manager.key })).json;
      return s.enabled === false ? s : null;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal('26.00')}/reject`, {
      key: manager.key,
      body: { reason: 'y' },
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received).toHaveLength(1);
    const [d] = await deliveriesOf(sub.id);
    expect(d).toMatchObject({ status: 'cancelled', attemptCount: 1 });
    expect(d.attempts[0].statusCode).toBe(410);
    // a retry while the subscription is disabled would be cancelled at once: refused, saying why
    const retry = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/deliveries/${d.id}/retry`, { key: manager.key });
    expect([retry.status, retry.json.code]).toEqual([409, 'invalid_state']);
    expect(retry.json.detail).toContain('is disabled');
  });

  it('rotation: for 24 h both the new and the previous secret sign (two signatures, both valid)', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    const rotated = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/rotate-secret`, { key: manager.key });
    expect(rotated.status).toBe(200);
    expect(rotated.json.signingSecret).toMatch(/^whsec_/);
    expect(rotated.json.signingSecret).not.toBe(sub.signingSecret);
    const overlapHours = (Date.parse(rotated.json.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal('27.00')}/reject`, {
      key: manager.key,
      body: { reason: 'x' },
    });
    await rx.waitFor(1);
    const signatures = String(rx.received[0].headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    verify(rotated.json.signingSecret, rx.received[0]);
    verify(sub.signingSecret, rx.received[0]);
    // Each signature on its own is valid for exactly one of the secrets.
    const only = (sig: string, secret: string) => {
      try {
        new Webhook(secret).verify(rx.received[0].body, {
          'webhook-id': String(rx.received[0].headers['webhook-id']),
          'webhook-timestamp': String(rx.received[0].headers['webhook-timestamp']),
          'webhook-signature': sig,
        });
        return true;
      } catch {
        return false;
      }
    };
    expect([only(signatures[0], rotated.json.signingSecret), only(signatures[1], sub.signingSecret)]).toEqual([
      true,
      true,
    ]);
    expect(() => verify('whsec_' + Buffer.alloc(32, 1).toString('base64'), rx.received[0])).toThrow();
  });

  it('POST /{id}/test sends a signed webhook.test to that subscription only', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['nav.published']);
    const res = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/test`, { key: manager.key });
    expect(res.status).toBe(202);
    await rx.waitFor(1);
    expect(verify(sub.signingSecret, rx.received[0])).toMatchObject({
      id: res.json.eventId,
      type: 'webhook.test',
      fundId: books.fundId,
    });
  });

  it('a delivery the receiver accepted can be sent again (the integrator lost it after answering 2xx): same webhook-id and body, freshly signed', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['nav.published']);
    await call(app, 'POST', `/api/v1/webhooks/${sub.id}/test`, { key: manager.key });
    await rx.waitFor(1);
    const [done] = (await eventually(async () => {
      const list = await deliveriesOf(sub.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }))!;
    const again = await call(app, 'POST', `/api/v1/webhooks/${sub.id}/deliveries/${done.id}/retry`, {
      key: manager.key,
    });
    expect([again.status, again.json.status]).toEqual([202, 'pending']);
    await rx.waitFor(2);
    const [first, second] = rx.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(verify(sub.signingSecret, second)).toMatchObject({ type: 'webhook.test' });
    const [resent] = (await eventually(async () => {
      const list = await deliveriesOf(sub.id);
      return list[0]?.status === 'succeeded' && list[0].attempts.length === 2 ? list : null;
    }))!;
    expect(resent.attempts.map((a: ResponseJson) => a.statusCode)).toEqual([204, 204]);
    // one still pending (its next attempt scheduled) is not sent twice: 409
    const down = await subscribe('http://127.0.0.1:9/down', ['nav.published']);
    await call(app, 'POST', `/api/v1/webhooks/${down.id}/test`, { key: manager.key });
    const [waiting] = (await eventually(async () => {
      const list = await deliveriesOf(down.id);
      return list[0]?.status === 'pending' && list[0].attempts.length === 1 ? list : null;
    }))!;
    const twice = await call(app, 'POST', `/api/v1/webhooks/${down.id}/deliveries/${waiting.id}/retry`, {
      key: manager.key,
    });
    expect([twice.status, twice.json.code]).toEqual([409, 'invalid_state']);
    await call(app, 'DELETE', `/api/v1/webhooks/${down.id}`, { key: manager.key });
  });

  it('redirects are not followed (a 3xx is a failed attempt)', async () => {
    const target = await receiver();
    const http = await import('node:http');
    const hits: string[] = [];
    const redirecting = http.createServer((req, res) => {
      hits.push(String(req.headers['webhook-id']));
      res.writeHead(307, { location: target.url }).end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    try {
      const sub = await subscribe(`http://127.0.0.1:${(redirecting.address() as { port: number }).port}/moved`, [
        'proposal.rejected',
      ]);
      await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal('28.00')}/reject`, {
        key: manager.key,
        body: { reason: 'x' },
      });
      await eventually(async () => hits.length >= 2);
      expect(target.received).toHaveLength(0);
      const [d] = await deliveriesOf(sub.id);
      expect(d.attempts[0].statusCode).toBe(307);
      await call(app, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
    } finally {
      redirecting.closeAllConnections();
      redirecting.close();
    }
  });

  it('a receiver slower than WEBHOOK_TIMEOUT_MS is a failed attempt (timeout recorded)', async () => {
    const http = await import('node:http');
    const slow = http.createServer(() => undefined); // never answers
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const port = (slow.address() as { port: number }).port;
    try {
      const sub = await subscribe(`http://127.0.0.1:${port}/slow`, ['proposal.rejected']);
      await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal('29.00')}/reject`, {
        key: manager.key,
        body: { reason: 'x' },
      });
      const d = await eventually(async () => {
        const [x] = await deliveriesOf(sub.id);
        return x?.attempts?.[0]?.error ? x : null;
      }, 10_000);
      expect(d.attempts[0]).toMatchObject({ statusCode: null });
      expect(d.attempts[0].error).toMatch(/timed out after 1000 ms/);
      expect(d.attempts[0].latencyMs).toBeGreaterThanOrEqual(950);
      await call(app, 'DELETE', `/api/v1/webhooks/${sub.id}`, { key: manager.key });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('refuses private, loopback and link-local targets unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const strict = await bootApp({ role: 'api', webhookAllowPrivate: false }, env);
    try {
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://localhost/x',
      ]) {
        const res = await call(strict, 'POST', '/api/v1/webhooks', {
          key: manager.key,
          body: { url, eventTypes: ['nav.published'] },
        });
        expect({ url, status: res.status, code: res.json.code }).toEqual({ url, status: 422, code: 'unprocessable' });
      }
    } finally {
      await strict.close();
    }
  });

  it('the deliveries list pages with a cursor', async () => {
    const rx = await receiver();
    const sub = await subscribe(rx.url, ['proposal.rejected']);
    for (const a of ['30.00', '31.00', '32.00']) {
      await call(app, 'POST', `/api/v1/admin/proposals/${await stagedJournal(a)}/reject`, {
        key: manager.key,
        body: { reason: 'x' },
      });
    }
    await rx.waitFor(3);
    const first = await call(app, 'GET', `/api/v1/webhooks/${sub.id}/deliveries?limit=2`, { key: manager.key });
    expect(first.json.items).toHaveLength(2);
    expect(first.json.hasMore).toBe(true);
    const second = await call(
      app,
      'GET',
      `/api/v1/webhooks/${sub.id}/deliveries?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`,
      { key: manager.key },
    );
    expect(second.json.items).toHaveLength(1);
    expect(second.json.hasMore).toBe(false);
    const all = [...first.json.items, ...second.json.items].map((d: { id: string }) => d.id);
    expect(new Set(all).size).toBe(3);
    void otherBooks;
    void dbOf;
  });

  it(`a fund has at most ${MAX_SUBSCRIPTIONS_PER_FUND} subscriptions, counted under a lock (creates at once cannot overshoot)`, async () => {
    const capped = await createFund(app);
    const admin = await mintKey(app, { scopes: ['webhooks:manage'], fund: capped.slug, plan: 'platform' });
    const create = (i: number) =>
      call(app, 'POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url: `http://127.0.0.1:9/cap-${i}`, eventTypes: ['nav.published'] },
      });
    const answers = await Promise.all(Array.from({ length: MAX_SUBSCRIPTIONS_PER_FUND + 3 }, (_, i) => create(i)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_SUBSCRIPTIONS_PER_FUND);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect(answers.find((a) => a.status === 409)!.json.detail).toContain('delete one');
    const listed = await call(app, 'GET', '/api/v1/webhooks', { key: admin.key });
    expect(listed.json.items).toHaveLength(MAX_SUBSCRIPTIONS_PER_FUND);
    // deleting one makes room; another fund was never limited by this one
    await call(app, 'DELETE', `/api/v1/webhooks/${listed.json.items[0].id}`, { key: admin.key });
    expect((await create(99)).status).toBe(201);
    await subscribe('http://127.0.0.1:9/elsewhere', ['nav.published']);
  });
});
