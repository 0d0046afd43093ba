import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';

/** A trade's fee in the fund's base currency is money (at least 2 decimals, never rounded); a fee in an asset stays a quantity. */
describe('trades: the fee as money or quantity (e2e)', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    const fund = await createFund(app);
    await dbOf(app).query(
      `WITH f AS (UPDATE funds SET base_currency = 'USD' WHERE id = $1 RETURNING id),
            c AS (INSERT INTO connections (id, fund_id, code, name, venue, source_type, mode)
                  VALUES (gen_random_uuid(), $1, 'ex', 'Exchange', 'Ex', 'exchange', 'live') RETURNING id),
            i AS (INSERT INTO instruments (id, fund_id, symbol, name, asset_class, currency)
                  VALUES (gen_random_uuid(), $1, 'BTC', 'Bitcoin', 'crypto', 'USD') RETURNING id)
       INSERT INTO trades (fund_id, external_id, executed_at, trade_date, connection_id, instrument_id, side, quantity, price, fee, fee_currency)
       SELECT $1, t.ext, t.at::timestamptz, t.at::date, c.id, i.id, 'buy', 1, 60000, t.fee, t.cur
         FROM c, i, (VALUES ('T1', '2026-03-01T10:00:00Z', 3::numeric, 'USD'),
                            ('T2', '2026-03-02T10:00:00Z', 22.5, 'USD'),
                            ('T3', '2026-03-03T10:00:00Z', 0.0005, 'BTC'),
                            ('T4', '2026-03-04T10:00:00Z', 2, 'BTC'),
                            ('T5', '2026-03-05T10:00:00Z', 0.0040, 'USD'),
                            ('T6', '2026-03-06T10:00:00Z', 1.2345, 'USD')) AS t(ext, at, fee, cur)`,
      [fund.id],
    );
    key = (await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'platform' })).key;
  });
  afterAll(() => app.close());

  it('base-currency fees have at least 2 decimals and keep sub-cent digits as booked; crypto fees keep their quantity form', async () => {
    const res = await call(app, 'GET', '/api/v1/fund/trades', { key });
    expect(res.status).toBe(200);
    expect(res.json.items.map((t: { fee: string; feeCurrency: string }) => [t.fee, t.feeCurrency])).toEqual([
      ['1.2345', 'USD'], // the NAV books the whole fee: rounding it to 1.23 would not tie to the books
      ['0.004', 'USD'],
      ['2', 'BTC'],
      ['0.0005', 'BTC'],
      ['22.50', 'USD'],
      ['3.00', 'USD'],
    ]);
  });
});
