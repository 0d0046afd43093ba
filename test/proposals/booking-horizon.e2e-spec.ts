import { addDays, todayUtc } from '../../src/common/validation/calendar-date';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { seedBooks } from './books-fixture';

/**
 * Proposals dated outside the fund's life: a journal entry or expense more than a year ahead
 * (2999 became the trial balance's default as-of date, and an expense to 2999 accrued over a
 * thousand years), an LP report from before inception or for a period that has not ended.
 */
describe('proposal dates within the fund’s life (e2e)', () => {
  let app: TestApp;
  let agent: TestKey;
  const inception = '2024-01-01';
  const soon = addDays(todayUtc(), 30);
  const tooFar = addDays(todayUtc(), 400);

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    await dbOf(app).query(`UPDATE funds SET inception_date = $2 WHERE id = $1`, [fund.id, inception]);
    agent = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose'],
      fund: fund.slug,
      account: uniqueName('agent'),
    });
  });
  afterAll(() => app.close());

  const propose = (kind: string, body: object) =>
    call(app, 'POST', `/api/v1/fund/proposals/${kind}`, { key: agent.key, body });
  const entry = (entryDate: string) => ({
    entryDate,
    description: 'Reclassify legal fees',
    lines: [
      { accountCode: '5500', debit: '10.00' },
      { accountCode: '5600', credit: '10.00' },
    ],
  });
  const expense = (accrualDate: string, periodEnd: string) => ({
    category: 'legal',
    vendor: 'Counsel LLP',
    amount: '1200.00',
    accrualDate,
    periodEnd,
    description: 'Annual retainer',
  });
  const refusedOn = (res: Awaited<ReturnType<typeof propose>>) => [
    res.status,
    res.json.code,
    res.json.errors?.[0]?.field,
  ];

  it('a journal entry or expense more than a year ahead is refused naming the date; within the year it is staged', async () => {
    expect(refusedOn(await propose('journal-entry', entry('2999-12-31')))).toEqual([422, 'unprocessable', 'entryDate']);
    expect(refusedOn(await propose('journal-entry', entry(tooFar)))).toEqual([422, 'unprocessable', 'entryDate']);
    expect((await propose('journal-entry', entry(soon))).status).toBe(201);
    expect(refusedOn(await propose('expense', expense('2999-01-01', '2999-01-01')))).toEqual([
      422,
      'unprocessable',
      'accrualDate',
    ]);
    expect(refusedOn(await propose('expense', expense(soon, '2999-12-31')))).toEqual([
      422,
      'unprocessable',
      'periodEnd',
    ]);
    expect((await propose('expense', expense(soon, addDays(soon, 90)))).status).toBe(201);
  });

  it('an LP report covers an ended part of the fund’s life', async () => {
    const report = (periodStart: string, periodEnd: string) =>
      propose('lp-report', { periodStart, periodEnd, narrative: 'Quarterly letter' });
    expect(refusedOn(await report('1900-01-01', '2024-03-31'))).toEqual([422, 'unprocessable', 'periodStart']);
    expect(refusedOn(await report('2024-01-01', '2999-12-31'))).toEqual([422, 'unprocessable', 'periodEnd']);
    expect(refusedOn(await report('2024-01-01', soon))).toEqual([422, 'unprocessable', 'periodEnd']);
    expect((await report('2024-01-01', '2024-03-31')).status).toBe(201);
  });
});
