import { bootApp, call, createFund, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { seedBooks } from './books-fixture';

const entry = (amount: string) => ({
  entryDate: '2025-04-15',
  description: `Legal fees ${amount}`,
  lines: [
    { accountCode: '5500', debit: amount },
    { accountCode: '5600', credit: amount },
  ],
});

/**
 * A fund:propose-only key follows its own proposals, not the fund's whole queue (investor ids,
 * amounts, rejection notes, reviewers' names): that needs fund:read or proposals:review too.
 */
describe('proposals: a propose-only key sees its own (e2e)', () => {
  let app: TestApp;
  let maker: TestKey;
  let makersOtherKey: TestKey;
  let otherMaker: TestKey;
  let reader: TestKey;
  let reviewer: TestKey;
  const mine: string[] = [];
  let theirs: string;

  const list = (key: string, query = '') => call(app, 'GET', `/api/v1/fund/proposals${query}`, { key });
  const ids = (res: { json: { items: { id: string }[] } }) => res.json.items.map((i) => i.id);

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    const account = uniqueName('maker');
    maker = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, account, plan: 'platform' });
    makersOtherKey = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, account, plan: 'platform' });
    otherMaker = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, plan: 'platform' });
    reader = await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: fund.slug, plan: 'platform' });
    reviewer = await mintKey(app, { scopes: ['fund:propose', 'proposals:review'], fund: fund.slug, plan: 'platform' });
    for (const [key, amount] of [
      [maker.key, '1.00'],
      [makersOtherKey.key, '2.00'],
    ]) {
      const res = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', { key, body: entry(amount) });
      expect(res.status).toBe(201);
      mine.unshift(res.json.id); // newest first
    }
    const res = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: otherMaker.key,
      body: entry('3.00'),
    });
    theirs = res.json.id;
  });
  afterAll(() => app.close());

  it("lists only the caller's own proposals (any of their keys), page by page", async () => {
    expect((await call(app, 'GET', '/api/v1/fund/overview', { key: maker.key })).status).toBe(403);
    expect(ids(await list(maker.key))).toEqual(mine);
    expect(ids(await list(makersOtherKey.key, '?status=pending'))).toEqual(mine);
    expect(ids(await list(otherMaker.key))).toEqual([theirs]);

    const first = await list(maker.key, '?limit=1');
    expect([ids(first), first.json.hasMore]).toEqual([[mine[0]], true]);
    const second = await list(maker.key, `?limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect([ids(second), second.json.hasMore, second.json.nextCursor]).toEqual([[mine[1]], false, null]);
  });

  it("another person's proposal is 404 to a propose-only key", async () => {
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${mine[1]}`, { key: maker.key })).status).toBe(200);
    const refused = await call(app, 'GET', `/api/v1/fund/proposals/${theirs}`, { key: maker.key });
    expect([refused.status, refused.json.code]).toEqual([404, 'not_found']);
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${mine[0]}`, { key: otherMaker.key })).status).toBe(404);
  });

  it('the OpenAPI descriptions say so, and still say who may call', async () => {
    const paths = (await call(app, 'GET', '/api/openapi.json')).json.paths;
    for (const op of [paths['/api/v1/fund/proposals'].get, paths['/api/v1/fund/proposals/{id}'].get]) {
      expect(op.description).toContain('With fund:propose alone, only your own proposals');
      expect(op.description).toContain('Needs an API key holding fund:propose.');
    }
  });

  it('fund:read or proposals:review beside fund:propose sees every proposal of the fund', async () => {
    for (const key of [reader.key, reviewer.key]) {
      expect(ids(await list(key))).toEqual(expect.arrayContaining([...mine, theirs]));
      expect((await call(app, 'GET', `/api/v1/fund/proposals/${theirs}`, { key })).status).toBe(200);
    }
  });
});
