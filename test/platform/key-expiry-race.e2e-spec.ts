import { KeysRepository } from '../../src/keys/keys.repository';
import { bootApp, createFund, dbOf, mintKey, type TestApp } from '../utils/app';

/**
 * A key's expiry sweep and a subscription being created with that key, at the same instant. The
 * creation's live-key check began its transaction while the key was live, then waited behind the
 * sweep's row lock while the key expired: once the sweep commits, the check must see the key
 * expired (clock_timestamp(), not the transaction's start), or the new subscription would outlive
 * its key's sweep forever.
 */
describe('key expiry sweep racing a subscription (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
  });
  afterAll(() => app.close());

  it('a live-key check that waited behind the sweep is refused once the sweep commits', async () => {
    const fund = await createFund(app);
    const key = await mintKey(app, {
      scopes: ['webhooks:manage'],
      fund: fund.slug,
      expiresAt: new Date(Date.now() + 1500),
    });
    const creation = dbOf(app).createQueryRunner();
    const sweep = dbOf(app).createQueryRunner();
    try {
      await creation.startTransaction();
      await creation.query('SELECT now()'); // the creation's transaction starts while the key is live
      await new Promise((r) => setTimeout(r, 1700)); // the key expires
      await sweep.startTransaction();
      // the sweep's row lock on this key alone (KeyExpiryJob's UPDATE marks every expired key of the shared
      // test database, which other test files' sweeps must find themselves)
      const swept = await sweep.query(
        `UPDATE api_keys SET expiry_swept_at = coalesce(expiry_swept_at, now()) WHERE id = $1 AND expires_at <= clock_timestamp() RETURNING id`,
        [key.id],
      );
      expect(swept[0].map((r: { id: string }) => r.id)).toEqual([key.id]);
      const check = app.get(KeysRepository).with(creation.manager).lockLiveKey(key.id); // waits for that row
      await new Promise((r) => setTimeout(r, 200));
      await sweep.commitTransaction();
      expect(await check).toBe(false);
    } finally {
      if (creation.isTransactionActive) await creation.rollbackTransaction();
      if (sweep.isTransactionActive) await sweep.rollbackTransaction();
      await creation.release();
      await sweep.release();
    }
  });
});
