import { bootApp, call, type TestApp } from '../utils/app';
import { DEMO_SLUG, fundKey, seedFundsOnce } from './fixtures';

jest.setTimeout(240_000);

describe('fund read API parameters (e2e)', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await bootApp();
    await seedFundsOnce(app);
    key = await fundKey(app, DEMO_SLUG);
  });
  afterAll(() => app.close());

  const expectProblem = async (url: string, status: number, code: string, fields: string[] = []) => {
    const res = await call(app, 'GET', url, { key });
    expect({ url, status: res.status, code: res.json?.code }).toEqual({ url, status, code });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const f of fields)
      expect({ url, fields: (res.json.errors ?? []).map((e: { field: string }) => e.field) }).toEqual({
        url,
        fields: expect.arrayContaining([f]),
      });
    return res.json;
  };

  it('required parameters missing → 400 missing_parameter naming them all', async () => {
    await expectProblem('/api/v1/fund/pnl/attribution', 400, 'missing_parameter', ['date']);
    await expectProblem('/api/v1/fund/ledger/journal-entries', 400, 'missing_parameter', ['from', 'to']);
    await expectProblem('/api/v1/fund/ledger/journal-entries?from=2026-10-01', 400, 'missing_parameter', ['to']);
    await expectProblem('/api/v1/fund/ledger/gl-detail', 400, 'missing_parameter', ['accountCode']);
    await expectProblem('/api/v1/fund/risk/stress-test', 400, 'missing_parameter', ['preset']);
  });

  it('bad dates → 400 invalid_parameter naming the field', async () => {
    await expectProblem('/api/v1/fund/pnl/attribution?date=2026-02-30', 400, 'invalid_parameter', ['date']);
    await expectProblem('/api/v1/fund/pnl/attribution?date=yesterday', 400, 'invalid_parameter', ['date']);
    await expectProblem('/api/v1/fund/trial-balance?asOf=2026-13-01', 400, 'invalid_parameter', ['asOf']);
    await expectProblem('/api/v1/fund/trades?from=2026-1-1', 400, 'invalid_parameter', ['from']);
    await expectProblem('/api/v1/fund/nav/history?to=31-10-2026', 400, 'invalid_parameter', ['to']);
    await expectProblem('/api/v1/fund/ledger/gl-detail?accountCode=1000&from=nope', 400, 'invalid_parameter', ['from']);
  });

  it('from after to → 400 on every windowed endpoint', async () => {
    await expectProblem('/api/v1/fund/ledger/journal-entries?from=2026-10-02&to=2026-10-01', 400, 'invalid_parameter', [
      'from',
    ]);
    await expectProblem('/api/v1/fund/trades?from=2026-10-02&to=2026-10-01', 400, 'invalid_parameter', ['from']);
    await expectProblem(
      '/api/v1/fund/ledger/gl-detail?accountCode=1000&from=2026-10-02&to=2026-10-01',
      400,
      'invalid_parameter',
      ['from'],
    );
    await expectProblem('/api/v1/fund/nav/history?from=2026-10-02&to=2026-10-01', 400, 'invalid_parameter', ['from']);
  });

  it('journal window over 92 days → 400 window_too_large; exactly 92 days is fine', async () => {
    await expectProblem('/api/v1/fund/ledger/journal-entries?from=2026-01-01&to=2026-04-04', 400, 'window_too_large');
    const ok = await call(app, 'GET', '/api/v1/fund/ledger/journal-entries?from=2026-01-01&to=2026-04-03&limit=1', {
      key,
    });
    expect(ok.status).toBe(200);
  });

  it('enums and integer bounds → 400, never clamped', async () => {
    for (const [url, field] of [
      ['/api/v1/fund/risk/var?confidence=0.9', 'confidence'],
      ['/api/v1/fund/risk/var?horizonDays=5', 'horizonDays'],
      ['/api/v1/fund/risk/var?horizonDays=one', 'horizonDays'],
      ['/api/v1/fund/risk/var?method=historical', 'method'],
      ['/api/v1/fund/risk/var?windowDays=29', 'windowDays'],
      ['/api/v1/fund/risk/var?windowDays=1001', 'windowDays'],
      ['/api/v1/fund/risk/var?windowDays=2.5', 'windowDays'],
      ['/api/v1/fund/exposure/series?days=0', 'days'],
      ['/api/v1/fund/exposure/series?days=1096', 'days'],
      ['/api/v1/fund/exposure/series?days=abc', 'days'],
      ['/api/v1/fund/expenses?limit=0', 'limit'],
      ['/api/v1/fund/expenses?limit=1001', 'limit'],
      ['/api/v1/fund/investors?limit=-1', 'limit'],
      ['/api/v1/fund/lp-reports?limit=x', 'limit'],
      ['/api/v1/fund/nav/reconciliation?limit=1001', 'limit'],
      ['/api/v1/fund/trades?limit=501', 'limit'],
      ['/api/v1/fund/trades?side=hold', 'side'],
      ['/api/v1/fund/capital-activity?status=approved', 'status'],
      ['/api/v1/fund/ledger/journal-entries?from=2026-10-01&to=2026-10-02&limit=5000', 'limit'],
    ]) {
      await expectProblem(url, 400, 'invalid_parameter', [field]);
    }
    expect((await call(app, 'GET', '/api/v1/fund/trades?limit=500', { key })).status).toBe(200);
    expect((await call(app, 'GET', '/api/v1/fund/exposure/series?days=1095', { key })).status).toBe(200);
  });

  it('lists every failing field at once', async () => {
    const body = await expectProblem(
      '/api/v1/fund/risk/var?confidence=2&method=x&windowDays=5',
      400,
      'invalid_parameter',
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['confidence', 'method', 'windowDays']),
    );
  });

  it('unknown query parameters → 400, also on parameter-less endpoints', async () => {
    await expectProblem('/api/v1/fund/overview?fundId=00000000-0000-0000-0000-000000000000', 400, 'invalid_parameter', [
      'fundId',
    ]);
    await expectProblem('/api/v1/fund/positions?verbose=1', 400, 'invalid_parameter', ['verbose']);
    await expectProblem('/api/v1/fund/trades?page=2', 400, 'invalid_parameter', ['page']);
  });

  it('a tampered or foreign cursor → 400 naming cursor', async () => {
    const first = await call(app, 'GET', '/api/v1/fund/trades?limit=2', { key });
    const cursor: string = first.json.nextCursor;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: '1' }),
    ).toString('base64url');
    await expectProblem(`/api/v1/fund/trades?cursor=${forged}.${mac}`, 400, 'invalid_parameter', ['cursor']);
    await expectProblem(`/api/v1/fund/trades?cursor=${payload}.${mac.slice(0, -2)}xx`, 400, 'invalid_parameter', [
      'cursor',
    ]);
    await expectProblem('/api/v1/fund/trades?cursor=garbage', 400, 'invalid_parameter', ['cursor']);
  });

  it('blank text → 400 invalid_parameter naming it (not a lookup of a blank name)', async () => {
    const empty = await expectProblem('/api/v1/fund/performance?shareClass=', 400, 'invalid_parameter', ['shareClass']);
    expect(empty.errors).toEqual([{ field: 'shareClass', message: 'must not be blank' }]);
    await expectProblem('/api/v1/fund/performance?shareClass=%20%09', 400, 'invalid_parameter', ['shareClass']);
  });

  it('unknown ids → 404', async () => {
    await expectProblem('/api/v1/fund/ledger/gl-detail?accountCode=9999', 404, 'not_found');
    await expectProblem('/api/v1/fund/ledger/gl-detail?accountCode=9999&cursor=garbage', 404, 'not_found'); // the account before the cursor
    await expectProblem('/api/v1/fund/ledger/gl-detail?accountCode=1000&cursor=garbage', 400, 'invalid_parameter', [
      'cursor',
    ]);
    await expectProblem('/api/v1/fund/risk/stress-test?preset=dotcom-2000', 404, 'not_found');
    await expectProblem('/api/v1/fund/performance?shareClass=Class%20Z', 404, 'not_found');
  });
});
