import { randomBytes } from 'node:crypto';
import { SecretSealer } from '../../src/common/crypto/sealer';
import { SealWebhookSecrets1763800510000 } from '../../migrations/1763800510000-SealWebhookSecrets';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey } from '../utils/app';
import { isolatedDatabase } from '../webhooks/isolated-db';
import { startReceiver, verify } from '../webhooks/receiver';

/** Webhook signing secrets are sealed at rest (AES-256-GCM) and opened only to sign. */
describe('webhook signing secrets sealed at rest (e2e)', () => {
  let app: TestApp;
  let manager: TestKey;
  let fundId: string;
  const ring = `k2:${randomBytes(32).toString('base64')},k1:${randomBytes(32).toString('base64')}`;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await isolatedDatabase('seal'),
      WEBHOOK_RETRY_DELAYS: '100ms',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SECRETS_KEY: ring,
    };
    app = await bootApp({}, env);
    const fund = await createFund(app);
    fundId = fund.id;
    manager = await mintKey(app, { scopes: ['webhooks:manage'], fund: fund.slug, plan: 'platform' });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await app.close();
    await rx.close();
  });

  const stored = async (id: string) =>
    (
      await dbOf(app).query('SELECT signing_secret, previous_signing_secret FROM webhook_subscriptions WHERE id = $1', [
        id,
      ])
    )[0];

  function expectSealed(column: string, plaintext: string): void {
    expect(column).toMatch(/^v1\.k2\./); // sealed under the first key of the ring
    expect(column).not.toContain(plaintext);
    expect(column).not.toContain(plaintext.slice('whsec_'.length, 'whsec_'.length + 12));
    expect(app.get(SecretSealer).unseal(column)).toBe(plaintext);
  }

  it('the column never holds the plaintext, at creation and after rotation; deliveries still verify with both secrets', async () => {
    const created = await call(app, 'POST', '/api/v1/webhooks', {
      key: manager.key,
      body: { url: rx.url, eventTypes: ['nav.published'] },
    });
    expect(created.status).toBe(201);
    const first: string = created.json.signingSecret;
    expect(first).toMatch(/^whsec_/);
    expectSealed((await stored(created.json.id)).signing_secret, first);

    const rotated = await call(app, 'POST', `/api/v1/webhooks/${created.json.id}/rotate-secret`, { key: manager.key });
    expect(rotated.status).toBe(200);
    const second: string = rotated.json.signingSecret;
    const row = await stored(created.json.id);
    expectSealed(row.signing_secret, second);
    expectSealed(row.previous_signing_secret, first);

    expect((await call(app, 'POST', `/api/v1/webhooks/${created.json.id}/test`, { key: manager.key })).status).toBe(
      202,
    );
    await rx.waitFor(1);
    expect(verify(second, rx.received[0])).toMatchObject({ type: 'webhook.test' });
    expect(verify(first, rx.received[0])).toMatchObject({ type: 'webhook.test' }); // overlap window
    expect(rx.received[0].headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });

  it('the migration seals rows stored in plain text, and its down() opens them again', async () => {
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    const old = `whsec_${randomBytes(32).toString('base64')}`;
    const [row] = await dbOf(app).query(
      `INSERT INTO webhook_subscriptions (id, fund_id, url, event_types, signing_secret, previous_signing_secret, created_by_key_id)
       VALUES (gen_random_uuid(), $1, 'https://example.com/h', ARRAY['nav.published'], $2, $3, $4) RETURNING id`,
      [fundId, plain, old, manager.id],
    );
    const migration = new SealWebhookSecrets1763800510000();
    const previousEnv = process.env.SECRETS_KEY;
    process.env.SECRETS_KEY = ring;
    const runner = dbOf(app).createQueryRunner();
    try {
      await migration.up(runner);
      let after = await stored(row.id);
      expectSealed(after.signing_secret, plain);
      expectSealed(after.previous_signing_secret, old);
      const sealedOnce = after.signing_secret;
      await migration.up(runner); // idempotent: sealed values stay as they are
      expect((await stored(row.id)).signing_secret).toBe(sealedOnce);
      await migration.down(runner);
      after = await stored(row.id);
      expect(after).toEqual({ signing_secret: plain, previous_signing_secret: old });
      await migration.up(runner);
    } finally {
      await runner.release();
      if (previousEnv === undefined) delete process.env.SECRETS_KEY;
      else process.env.SECRETS_KEY = previousEnv;
    }
    const all = await dbOf(app).query(
      `SELECT signing_secret FROM webhook_subscriptions WHERE signing_secret LIKE 'whsec_%' OR previous_signing_secret LIKE 'whsec_%'`,
    );
    expect(all).toEqual([]);
  });
});
