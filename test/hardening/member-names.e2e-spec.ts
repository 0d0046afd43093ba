import { bootApp, call, createFund, mintKey, type TestApp, type TestKey } from '../utils/app';
import { seedBooks } from '../proposals/books-fixture';
import { expectProblem, journalEntry } from './helpers';

/** Names of Object.prototype's members, and `prototype`: class-transformer and Nest's pipe let them pass unseen. */
const NAMES = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  'toLocaleString',
  'prototype',
];
const unknown = (field: string) => ({ field, message: 'is not a known field' });

/**
 * Every unknown query parameter or body member is a 400 naming it, whatever its name: `?constructor=x`
 * on the trades listing was a 200, `{"toString":1}` to a calculator a 200 and in a proposal a 201.
 */
describe('unknown members named after Object.prototype members (e2e)', () => {
  let app: TestApp;
  let reader: TestKey;
  let agent: TestKey;

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    reader = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug });
    agent = await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: fund.slug });
  });
  afterAll(() => app.close());

  it.each(NAMES)('query parameter %s', async (name) => {
    const res = await call(app, 'GET', `/api/v1/fund/trades?limit=1&${name}=x`, { key: reader.key });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.json.errors).toEqual([unknown(name)]);
  });

  it.each(NAMES)('calculator body member %s', async (name) => {
    const res = await call(app, 'POST', '/api/v1/calc/operating-cost-calculator', { body: { [name]: 1 } });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.json.errors).toEqual([unknown(name)]);
  });

  it('in a proposal, at the top and in a journal line, listed with every other failing field', async () => {
    const res = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: agent.key,
      body: journalEntry(
        [
          { accountCode: '5500', debit: '1.00', toString: 'x' },
          { accountCode: '5600', credit: 'abc' },
        ],
        { valueOf: 1, bogus: 2 },
      ),
    });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.json.errors).toHaveLength(4);
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        unknown('bogus'),
        { field: 'lines.1.credit', message: expect.stringMatching(/^must be a decimal string/) },
        unknown('valueOf'),
        unknown('lines.0.toString'),
      ]),
    );
  });

  it('a known name is still fine next to them (no false alarm on an ordinary body)', async () => {
    const res = await call(app, 'POST', '/api/v1/calc/operating-cost-calculator', { body: {} });
    expect(res.status).toBe(200);
  });
});
