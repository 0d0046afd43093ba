import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey } from '../utils/app';
import { seedBooks } from '../proposals/books-fixture';
import { expectProblem } from './helpers';

/** Answers whose status was right but whose message misled (the black-box probe's list). */
describe('one message that says what is wrong (e2e)', () => {
  let app: TestApp;
  let fund: { id: string; slug: string };

  beforeAll(async () => {
    app = await bootApp({}, { NAV_RUN_MAX_DAYS: '40' });
    fund = await createFund(app);
    await seedBooks(app, fund.id); // a complete NAV run on 2025-03-31
    await dbOf(app).query(`UPDATE funds SET inception_date = '2024-01-01' WHERE id = $1`, [fund.id]);
  });
  afterAll(() => app.close());

  describe('a query parameter', () => {
    let reader: TestKey;
    beforeAll(async () => {
      reader = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    });
    const trades = (query: string) => call(app, 'GET', `/api/v1/fund/trades?${query}`, { key: reader.key });

    it('given twice is "given more than once" (it was three range and type messages at once)', async () => {
      const res = await trades('limit=1&limit=2');
      expectProblem(res, 400, 'invalid_parameter');
      expect(res.json.errors).toEqual([{ field: 'limit', message: 'is given more than once' }]);
      expect(res.json.detail).toBe('limit: is given more than once');
      const unknown = await trades('limit=1&foo=1&foo=2');
      expect(unknown.json.errors).toEqual([{ field: 'foo', message: 'is not a known field' }]);
    });

    it('that is not an integer gets the type message only; a range message when it is one', async () => {
      const res = await trades('limit=abc');
      expectProblem(res, 400, 'invalid_parameter');
      expect(res.json.errors).toEqual([{ field: 'limit', message: 'must be an integer number' }]);
      expect((await trades('limit=0')).json.errors).toEqual([{ field: 'limit', message: 'must not be less than 1' }]);
      expect((await trades('limit=501')).json.errors).toEqual([
        { field: 'limit', message: 'must not be greater than 500' },
      ]);
    });
  });

  describe('a money amount', () => {
    let agent: TestKey;
    beforeAll(async () => {
      agent = await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: fund.slug });
    });
    const expense = (amount: string) =>
      call(app, 'POST', '/api/v1/fund/proposals/expense', {
        key: agent.key,
        body: { category: 'legal', vendor: 'Acme', amount, accrualDate: '2025-03-31', description: 'x' },
      });

    it('with more whole digits than the books hold is too large (it said "at most 2 decimals")', async () => {
      const res = await expense('99999999999999999.99');
      expectProblem(res, 400, 'invalid_parameter');
      expect(res.json.errors).toEqual([
        { field: 'amount', message: 'is too large: at most 16 whole digits (9999999999999999.99)' },
      ]);
      expect((await expense('1.001')).json.errors).toEqual([
        { field: 'amount', message: 'must be a decimal string with at most 2 decimals, e.g. "1250.00"' },
      ]);
    });
  });

  describe('a NAV run date', () => {
    let publisher: TestKey;
    beforeAll(async () => {
      publisher = await mintKey(app, { scopes: ['nav:publish'], fund: fund.slug });
    });

    it("before the fund's inception is unprocessable, naming the inception (it was range_too_large)", async () => {
      const res = await call(app, 'POST', '/api/v1/admin/nav-runs', {
        key: publisher.key,
        body: { valuationDate: '1900-01-01' },
      });
      expectProblem(res, 422, 'unprocessable');
      expect(res.json.detail).toBe("nothing to run for 1900-01-01: it is before the fund's inception 2024-01-01");
      expect(res.json.errors).toEqual([
        { field: 'valuationDate', message: 'must be on or after the fund inception 2024-01-01' },
      ]);
    });
  });

  describe('a body member named __proto__', () => {
    it('is valid JSON with a member name that is not allowed (it said "is not valid JSON")', async () => {
      for (const body of ['{"__proto__":{}}', '{"a":{"constructor":{"prototype":{}}}}']) {
        const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body });
        expectProblem(res, 400, 'invalid_request');
        expect(res.json.detail).toBe(
          'the body is valid JSON but has a member named __proto__ (or constructor.prototype), which is not allowed',
        );
        expect(res.json.errors).toEqual([
          { field: 'body', message: 'must not have a member named __proto__ or constructor.prototype' },
        ]);
      }
      const broken = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: '{"__proto__":' });
      expect(broken.json.errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
    });
  });
});
