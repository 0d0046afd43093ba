import { bootApp, call, type CallResult, createFund, dbOf, mintKey, type TestApp } from '../utils/app';
import { consoleCall, person, type Session } from '../identity/console';
import { isolatedDatabase } from '../webhooks/isolated-db';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { RetentionRepository } from '../../src/retention/retention.repository';
import { ActivityLogWriter } from '../../src/usage/activity-log.writer';
import { RETENTION_LIMITS, RetentionService, retentionCutoff } from '../../src/retention/retention.service';

const DAY_MS = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
/** A UTC day `offset` days from today, as YYYY-MM-DD. */
const day = (offset: number) => new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
/** An instant of that day, `ms` after its start. */
const at = (offset: number, ms: number) => new Date(today + offset * DAY_MS + ms).toISOString();
const H = 3_600_000;

/**
 * The retention sweep of activity_log (ACTIVITY_RETENTION_DAYS, 90 here) against a database of its
 * own: rows of whole UTC days older than 90 leave the log and become daily counts, and /usage —
 * for a key and for a console session, by day and by route — answers the same before, between and
 * after the sweep's batches.
 */
describe('activity retention (e2e)', () => {
  let app: TestApp;
  let config: AppConfig;
  let ada: { userId: string; accountId: string; email: string; session: Session };
  let fundSlug: string;
  let key: { id: string; key: string };
  let other: { id: string; accountId: string };
  const window = `from=${day(-130)}&to=${day(-1)}`;

  beforeAll(async () => {
    const databaseUrl = await isolatedDatabase('retention_activity');
    // role api: no scheduled sweep runs beside the ones the tests start
    app = await bootApp({ databaseUrl, role: 'api', activityRetentionDays: 90 });
    config = app.get<AppConfig>(APP_CONFIG);
    const fund = await createFund(app);
    fundSlug = fund.slug;
    ada = await person(app, fund.slug, 'viewer');
    key = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, account: ada.email, plan: 'developer' });
    other = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    const rows: [string, string | null, string | null, string, string, number][] = [];
    const add = (when: string, keyId: string | null, userId: string | null, route: string, status = 200, n = 1) => {
      for (let i = 0; i < n; i++) rows.push([when, keyId, userId, route.split(' ')[0], route.split(' ')[1], status]);
    };
    // in the sweep's order (occurred_at), 16 rows before the cutoff (the start of day -90):
    add(at(-120, 1 * H), key.id, ada.userId, 'GET /api/v1/me', 200, 2);
    add(at(-120, 3 * H), key.id, ada.userId, 'GET /api/v1/fund/overview', 404);
    add(at(-120, 4 * H), other.id, null, 'GET /api/v1/me', 200, 2); // another identity's key
    add(at(-100, 1 * H), null, ada.userId, 'GET /api/v1/console/session'); // console requests (no key)
    add(at(-100, 2 * H), null, ada.userId, 'POST /api/v1/admin/keys', 403);
    add(at(-100, 3 * H), null, null, 'POST /api/v1/calc/fee-calculator', 200, 3); // anonymous
    for (const [h, status] of [
      [1, 200],
      [2, 200],
      [3, 429],
      [4, 200],
      [5, 500],
    ] as const)
      add(at(-91, h * H), key.id, ada.userId, 'GET /api/v1/me', status);
    add(at(-90, -1), key.id, ada.userId, 'GET /api/v1/fund/overview'); // the last millisecond before the cutoff
    // kept:
    add(at(-90, 0), key.id, ada.userId, 'GET /api/v1/fund/overview'); // the cutoff itself
    add(at(-89, 2 * H), key.id, ada.userId, 'GET /api/v1/me', 500);
    add(at(-89, 3 * H), null, ada.userId, 'GET /api/v1/console/session');
    add(at(-1, 5 * H), key.id, ada.userId, 'GET /api/v1/me');
    add(at(-1, 6 * H), null, null, 'POST /api/v1/calc/fee-calculator');
    // The sweep walks the log by id (ids follow the order rows are written in): the setup's own
    // requests, written just now, must not come before the seeded history.
    await app.get(ActivityLogWriter).flush();
    await dbOf(app).query(`DELETE FROM activity_log`);
    await dbOf(app).query(
      `INSERT INTO activity_log (occurred_at, request_id, key_id, user_id, method, route, status, duration_ms)
       SELECT r.at, 'seed-' || r.n, r.key_id, r.user_id, r.method, r.route, r.status, 1
         FROM unnest($1::timestamptz[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::int[])
              WITH ORDINALITY AS r(at, key_id, user_id, method, route, status, n)`,
      [0, 1, 2, 3, 4, 5].map((c) => rows.map((r) => r[c])),
    );
  });
  afterAll(async () => {
    await app.close();
  });

  /** /usage for the key and for Ada's console session over the 130 days before today. */
  async function usage(): Promise<{ key: CallResult; session: CallResult }> {
    const byKey = await call(app, 'GET', `/api/v1/usage?${window}`, { key: key.key });
    const bySession = await consoleCall(app, 'GET', `/api/v1/usage?${window}`, ada.session, { fund: fundSlug });
    expect([byKey.status, bySession.status]).toEqual([200, 200]);
    return { key: byKey, session: bySession };
  }
  const figures = (u: CallResult) => ({
    totalRequests: u.json.totalRequests,
    totalErrors: u.json.totalErrors,
    days: u.json.days,
    routes: u.json.routes,
  });
  const oldRows = async () =>
    (await dbOf(app).query(`SELECT count(*)::int AS n FROM activity_log WHERE occurred_at < $1`, [at(-90, 0)]))[0].n;
  const daily = (offset: number, keyId: string | null, userId: string | null) =>
    dbOf(app).query(
      `SELECT method, route, requests::int, errors::int FROM activity_daily
        WHERE day = $1 AND key_id IS NOT DISTINCT FROM $2::uuid AND user_id IS NOT DISTINCT FROM $3::uuid ORDER BY route`,
      [day(offset), keyId, userId],
    );
  const rawOn = async (offset: number, keyId: string | null, userId: string | null) =>
    (
      await dbOf(app).query(
        `SELECT count(*)::int AS n FROM activity_log WHERE occurred_at >= $1 AND occurred_at < $2
            AND key_id IS NOT DISTINCT FROM $3::uuid AND user_id IS NOT DISTINCT FROM $4::uuid`,
        [at(offset, 0), at(offset + 1, 0), keyId, userId],
      )
    )[0].n;

  it('the seeded figures are what /usage shows before any sweep', async () => {
    const { key: k, session: s } = await usage();
    expect(figures(k).days).toEqual([
      { date: day(-120), requests: 3, errors: 1 },
      { date: day(-91), requests: 6, errors: 2 },
      { date: day(-90), requests: 1, errors: 0 },
      { date: day(-89), requests: 1, errors: 1 },
      { date: day(-1), requests: 1, errors: 0 },
    ]);
    // the session: Ada's key on the fund and her console requests
    expect(figures(s).totalRequests).toBe(12 + 3);
    expect(figures(s).totalErrors).toBe(4 + 1);
    expect(await oldRows()).toBe(16);
  });

  it('with ACTIVITY_RETENTION_DAYS=0 the sweep deletes nothing', async () => {
    expect(retentionCutoff(new Date(), 0)).toBeNull();
    const keep = new RetentionService({ ...config, activityRetentionDays: 0 }, app.get(RetentionRepository));
    const report = await keep.sweep();
    expect(report.activity).toEqual({ cutoff: null, batches: 0, more: false, moved: 0, anonymous: 0 });
    expect(await oldRows()).toBe(16);
    expect((await dbOf(app).query(`SELECT count(*)::int AS n FROM activity_daily`))[0].n).toBe(0);
  });

  it('moves old rows into daily counts in bounded runs; /usage is the same before, between and after runs', async () => {
    const before = await usage();
    const sweeper = app.get(RetentionService);
    const limits = { ...RETENTION_LIMITS, activityBatch: 3, activityBatches: 2 };

    // run 1: two batches of 3 — day -120's five rows and the first of Ada's console rows of day -100
    const first = await sweeper.sweep(new Date(), limits);
    expect(first.activity).toMatchObject({ cutoff: at(-90, 0), batches: 2, more: true, moved: 6, anonymous: 0 });
    // day -100 straddles the batch boundary: one console request counted, one still a row
    expect(await daily(-100, null, ada.userId)).toEqual([
      { method: 'GET', route: '/api/v1/console/session', requests: 1, errors: 0 },
    ]);
    expect(await rawOn(-100, null, ada.userId)).toBe(1);
    await expectSameUsage(before);

    // run 2: Ada's second console row, the three anonymous ones, and two of day -91's six rows
    const second = await sweeper.sweep(new Date(), limits);
    expect(second.activity).toMatchObject({ batches: 2, more: true, moved: 6, anonymous: 3 });
    expect(await daily(-91, key.id, ada.userId)).toEqual([
      { method: 'GET', route: '/api/v1/me', requests: 2, errors: 0 },
    ]);
    expect(await rawOn(-91, key.id, ada.userId)).toBe(4);
    await expectSameUsage(before);

    // run 3: the last four (a full batch, then a short one: done)
    const third = await sweeper.sweep(new Date(), limits);
    expect(third.activity).toMatchObject({ batches: 2, more: false, moved: 4, anonymous: 0 });
    expect(await oldRows()).toBe(0);
    await expectSameUsage(before);

    // day -91 was added to across runs and never counted twice
    expect(await daily(-91, key.id, ada.userId)).toEqual([
      { method: 'GET', route: '/api/v1/fund/overview', requests: 1, errors: 0 },
      { method: 'GET', route: '/api/v1/me', requests: 5, errors: 2 },
    ]);
    expect(await daily(-120, other.id, null)).toEqual([{ method: 'GET', route: '/api/v1/me', requests: 2, errors: 0 }]);
    // the anonymous rows left no count
    expect(await daily(-100, null, null)).toEqual([]);
    // nothing from the cutoff on moved: day -90's first instant, -89 and yesterday are still rows
    expect(await rawOn(-90, key.id, ada.userId)).toBe(1);
    expect(await rawOn(-89, key.id, ada.userId)).toBe(1);
    expect(await rawOn(-89, null, ada.userId)).toBe(1);
    expect(await rawOn(-1, key.id, ada.userId)).toBe(1);
    expect(await rawOn(-1, null, null)).toBe(1);

    // a further run finds nothing to do
    expect((await sweeper.sweep()).activity).toMatchObject({ batches: 1, more: false, moved: 0 });
    await expectSameUsage(before);
  });

  it('the activity listing covers the retention period only', async () => {
    const page = await call(app, 'GET', `/api/v1/admin/activity?keyId=${key.id}&from=${day(-130)}&to=${day(-1)}`, {
      key: (await mintKey(app, { scopes: ['fund:read', 'keys:manage'], fund: fundSlug })).key,
    });
    expect(page.status).toBe(200);
    const days = (page.json.items as { occurredAt: string }[]).map((i) => i.occurredAt.slice(0, 10));
    expect(days).toEqual([day(-1), day(-89), day(-90)]);
  });

  async function expectSameUsage(before: { key: CallResult; session: CallResult }): Promise<void> {
    const now = await usage();
    expect(figures(now.key)).toEqual(figures(before.key));
    expect(figures(now.session)).toEqual(figures(before.session));
  }
});
