import type { DocNode } from '../../src/common/openapi/document-node';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { seedBooks } from '../proposals/books-fixture';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp } from '../utils/app';

/**
 * Behaviour the interface document words loosely, said in the OpenAPI descriptions and shown true:
 * which trades /fund/trades lists, that nextDealingDate may be inside the notice period, and that an
 * over-sized redemption is dealt as a full one.
 */
describe('OpenAPI descriptions say what the service does (e2e)', () => {
  let app: TestApp;
  let doc: DocNode;
  let key: string;
  let investorId: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    doc = (await call(app, 'GET', '/api/openapi.json')).json;
    const fund = await createFund(app);
    const books = await seedBooks(app, fund.id);
    investorId = books.investorId;
    const db = dbOf(app);
    // daily dealing: the next dealing date is today, inside the 5-day subscription notice
    await db.query(`UPDATE funds SET dealing_frequency = 'daily' WHERE id = $1`, [fund.id]);
    await db.query(
      `WITH c AS (INSERT INTO connections (id, fund_id, code, name, venue, source_type, mode)
                  VALUES (gen_random_uuid(), $1, 'ex', 'Exchange', 'Kraken', 'exchange', 'live'),
                         (gen_random_uuid(), $1, 'ibkr', 'IBKR', 'Interactive Brokers', 'broker', 'live'),
                         (gen_random_uuid(), $1, 'paper', 'Paper', 'Paper venue', 'exchange', 'paper') RETURNING id, code),
            i AS (INSERT INTO instruments (id, fund_id, symbol, name, asset_class, currency)
                  VALUES (gen_random_uuid(), $1, 'SPY', 'SPDR S&P 500', 'equity', 'USD') RETURNING id)
       INSERT INTO trades (fund_id, external_id, executed_at, trade_date, connection_id, instrument_id, side, quantity, price, fee, fee_currency)
       SELECT $1, 'T-' || c.code, '2026-03-01T10:00:00Z', '2026-03-01', c.id, i.id, 'buy', 1, 500, 1, 'USD' FROM c, i`,
      [fund.id],
    );
    key = (await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: fund.slug, plan: 'platform' })).key;
  });
  afterAll(() => app.close());

  it('/fund/trades: exchange and broker executions of live connections, never paper; the description says so', async () => {
    const trades = await call(app, 'GET', '/api/v1/fund/trades', { key });
    expect(trades.json.items.map((t: { venue: string }) => t.venue).sort()).toEqual(['Interactive Brokers', 'Kraken']);
    const description: string = doc.paths['/api/v1/fund/trades'].get.description;
    expect(description).toContain('through brokers (e.g. Interactive Brokers, Goldman Sachs prime brokerage)');
    expect(description).toContain('Trades of paper-trading connections never appear');
    expect(description).toContain('Needs an API key holding fund:read.');
  });

  it('nextDealingDate may be inside the notice period (a subscription for it is 422); the description says so', async () => {
    const calendar = await call(app, 'GET', '/api/v1/fund/dealing-calendar', { key });
    const next = calendar.json.dealing.nextDealingDate;
    expect(next).toBe(new Date().toISOString().slice(0, 10));
    const proposed = await call(app, 'POST', '/api/v1/fund/proposals/capital-activity', {
      key,
      body: { investorId, type: 'subscription', shareClass: 'Class A', amount: '1000.00', dealingDate: next },
    });
    expect([proposed.status, proposed.json.errors?.[0]?.field]).toEqual([422, 'dealingDate']);
    const terms = doc.components.schemas.DealingTermsDto.properties.nextDealingDate.description;
    expect(terms).toContain('It may be inside the notice period');
  });

  it('a redemption above the holding is dealt as a full redemption: the propose route and its amount say so', () => {
    const op = doc.paths['/api/v1/fund/proposals/capital-activity'].post;
    expect(op.description).toContain('is dealt as a full redemption');
    expect(op.description).toContain('Needs an API key holding fund:propose.');
    expect(doc.components.schemas.CapitalActivityProposalDto.properties.amount.description).toContain(
      'is dealt as a full redemption',
    );
  });

  it("publishes this deployment's rate limits (RATE_LIMITS) as x-rate-limits, so the web tools state the caps in force", () => {
    expect(doc['x-rate-limits']).toEqual(app.get<AppConfig>(APP_CONFIG).rateLimits);
    expect(doc['x-rate-limits']['calc-daily']).toEqual({ free: 500, developer: 10_000, platform: 100_000 });
    expect(doc['x-rate-limits']['fund-minute'].free).toBe(100_000); // the test setup's RATE_LIMITS
  });
});
