import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { navInputsLockKey } from '../../src/database/sql-fragments';
import { EventOutbox } from '../../src/webhooks/event-outbox';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { type Books, monthEndAfter, seedBooks } from './books-fixture';

const balanced = (amount = '125.50') => ({
  entryDate: '2025-03-31',
  description: 'Reclassify legal fees',
  lines: [
    { accountCode: '5500', debit: amount },
    { accountCode: '5600', credit: amount, description: 'from other' },
  ],
});

describe('proposals: propose, follow, review (e2e)', () => {
  let app: TestApp;
  let books: Books;
  let agent: TestKey;
  let manager: TestKey;
  let publisher: TestKey;
  let otherFundManager: TestKey;
  let readOnly: TestKey;
  let dealingDate: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    const fund = await createFund(app);
    books = await seedBooks(app, fund.id);
    const other = await createFund(app);
    await seedBooks(app, other.id);
    agent = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose', 'proposals:review'],
      fund: fund.slug,
      account: uniqueName('agent'),
      plan: 'platform',
    });
    manager = await mintKey(app, {
      scopes: ['fund:read', 'proposals:review'],
      fund: fund.slug,
      account: uniqueName('manager'),
      plan: 'platform',
    });
    publisher = await mintKey(app, {
      scopes: ['nav:publish'],
      fund: fund.slug,
      account: uniqueName('publisher'),
      plan: 'platform',
    });
    otherFundManager = await mintKey(app, {
      scopes: ['fund:propose', 'proposals:review', 'nav:publish'],
      fund: other.slug,
      account: uniqueName('other'),
      plan: 'platform',
    });
    readOnly = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, plan: 'platform' });
    dealingDate = monthEndAfter(6);
  });
  afterAll(() => app.close());

  const propose = (path: string, body: unknown, key = agent.key) =>
    call(app, 'POST', `/api/v1/fund/proposals/${path}`, { key, body });
  const approve = (id: string, key = manager.key, body: unknown = { note: 'ok' }) =>
    call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, { key, body });
  const reject = (id: string, key = manager.key, body: unknown = { reason: 'no' }) =>
    call(app, 'POST', `/api/v1/admin/proposals/${id}/reject`, { key, body });
  const eventsFor = async (proposalId: string) =>
    dbOf(app).query<{ type: string; body: string }[]>(
      `SELECT type, body FROM webhook_events WHERE body::jsonb -> 'data' ->> 'proposalId' = $1 ORDER BY seq`,
      [proposalId],
    );
  /** The display name of the person behind an account (what proposedBy/decidedBy show reviewers). */
  const displayNameOf = async (accountId: string): Promise<string> =>
    (
      await dbOf(app).query(`SELECT u.display_name FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.id = $1`, [
        accountId,
      ])
    )[0].display_name;
  const entriesFor = (proposalId: string) =>
    dbOf(app).query(`SELECT id FROM journal_entries WHERE source_ref = $1`, [`proposal:${proposalId}`]);

  it('stages a journal entry: 201 with the proposal record, nothing executed', async () => {
    const res = await propose('journal-entry', balanced());
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(
      [
        'createdAt',
        'decidedAt',
        'decidedBy',
        'decisionNote',
        'executionRef',
        'id',
        'kind',
        'payload',
        'proposedBy',
        'status',
        'withdrawalNote',
        'withdrawnAt',
        'withdrawnBy',
      ].sort(),
    );
    expect(res.json).toMatchObject({
      kind: 'journal-entry',
      status: 'pending',
      decidedAt: null,
      decidedBy: null,
      decisionNote: null,
      executionRef: null,
      withdrawnAt: null,
      withdrawnBy: null,
      withdrawalNote: null,
      proposedBy: { accountId: agent.accountId, keyId: agent.id, displayName: await displayNameOf(agent.accountId) },
    });
    expect(res.json.proposedBy.displayName).toMatch(/^agent-/); // the person's name, for reviewers
    expect(res.json.payload.lines).toEqual([
      { accountCode: '5500', debit: '125.50', credit: '0.00', description: null },
      { accountCode: '5600', debit: '0.00', credit: '125.50', description: 'from other' },
    ]);
    expect(await entriesFor(res.json.id)).toHaveLength(0);
    const got = await call(app, 'GET', `/api/v1/fund/proposals/${res.json.id}`, { key: agent.key });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
  });

  it('refuses at proposal time what could not execute (422 naming the rule)', async () => {
    const unbalanced = await propose('journal-entry', {
      ...balanced(),
      lines: [
        { accountCode: '5500', debit: '100.00' },
        { accountCode: '5600', credit: '99.99' },
      ],
    });
    expect(unbalanced.status).toBe(422);
    expect(unbalanced.json.code).toBe('unbalanced_entry');
    expect(unbalanced.json.detail).toContain('unbalanced entry');

    const unknownAccount = await propose('journal-entry', {
      ...balanced(),
      lines: [
        { accountCode: '5500', debit: '1.00' },
        { accountCode: '9999', credit: '1.00' },
      ],
    });
    expect(unknownAccount.status).toBe(422);
    expect(unknownAccount.json.code).toBe('unprocessable');
    expect(unknownAccount.json.detail).toContain('unknown account: 9999');
    expect(unknownAccount.json.errors).toEqual([{ field: 'lines.1.accountCode', message: 'unknown account 9999' }]);

    // a control account the NAV engine keeps: capital moves by dealing, positions by trades
    const control = await propose('journal-entry', {
      ...balanced(),
      lines: [
        { accountCode: '1000', debit: '500.00' },
        { accountCode: '3000', credit: '500.00' },
      ],
    });
    expect(control.status).toBe(422);
    expect(control.json.detail).toContain('a manual entry may not post to a control account');
    expect(control.json.errors).toEqual([
      { field: 'lines.1.accountCode', message: 'account 3000 is kept by dealing (capital-activity proposals)' },
    ]);

    const capital = {
      investorId: books.investorId,
      type: 'subscription',
      shareClass: 'Class A',
      amount: '250000.00',
      dealingDate,
    };
    const offCalendar = await propose('capital-activity', { ...capital, dealingDate: `${dealingDate.slice(0, 8)}15` });
    expect(offCalendar.status).toBe(422);
    expect(offCalendar.json.code).toBe('unprocessable');
    expect(offCalendar.json.detail).toMatch(/not on the dealing calendar/);

    const unknownInvestor = await propose('capital-activity', {
      ...capital,
      investorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownInvestor.status).toBe(422);
    expect(unknownInvestor.json.code).toBe('unprocessable');
    expect(unknownInvestor.json.detail).toMatch(/unknown investor/);

    // only an active investor deals (a pending one has not cleared KYC; a redeemed one has left)
    for (const status of ['pending', 'redeemed']) {
      await dbOf(app).query(`UPDATE investors SET status = $2 WHERE id = $1`, [books.investorId, status]);
      try {
        const inactive = await propose('capital-activity', capital);
        expect([inactive.status, inactive.json.errors[0].field]).toEqual([422, 'investorId']);
        expect(inactive.json.detail).toContain(`is ${status}`);
      } finally {
        await dbOf(app).query(`UPDATE investors SET status = 'active' WHERE id = $1`, [books.investorId]);
      }
    }

    const unknownClass = await propose('capital-activity', { ...capital, shareClass: 'Class Q' });
    expect(unknownClass.status).toBe(422);
    expect(unknownClass.json.code).toBe('unprocessable');
    expect(unknownClass.json.detail).toMatch(/unknown share class/);

    const closedClass = await propose('capital-activity', { ...capital, shareClass: 'Class Z' });
    expect(closedClass.status).toBe(422);
    expect(closedClass.json.detail).toMatch(/closed to subscriptions/);

    const distributed = await propose('lp-report', { lpReportId: books.distributedReportId });
    expect(distributed.status).toBe(422);
    expect(distributed.json.code).toBe('unprocessable');
    expect(distributed.json.detail).toMatch(/report already distributed/);

    const sameExpense = await propose('expense', {
      category: 'legal',
      vendor: 'Law LLP',
      amount: '0.00',
      accrualDate: '2025-03-01',
      description: 'x',
    });
    expect(sameExpense.status).toBe(400);

    // An investor of another fund is unknown here.
    const count = await dbOf(app).query(
      `SELECT count(*)::int AS n FROM proposals WHERE fund_id = $1 AND status = 'pending'`,
      [books.fundId],
    );
    expect(count[0].n).toBe(1); // only the journal entry of the first test
  });

  it("a journal entry's record can be proposed again as it is: a line's description null is taken", async () => {
    const first = await propose('journal-entry', balanced('3.25'));
    expect(first.json.payload.lines[0].description).toBeNull();
    const again = await propose('journal-entry', first.json.payload);
    expect(again.status).toBe(201);
    expect(again.json.payload).toEqual(first.json.payload);
    const blank = await propose('journal-entry', {
      ...balanced(),
      lines: [
        { accountCode: '5500', debit: '1.00', description: ' ' },
        { accountCode: '5600', credit: '1.00' },
      ],
    });
    expect([blank.status, blank.json.errors]).toEqual([
      400,
      [{ field: 'lines.0.description', message: 'must not be blank' }],
    ]);
  });

  it('validates shapes with 400, naming every failing field', async () => {
    const res = await propose('journal-entry', {
      entryDate: '2025-02-30',
      lines: [{ accountCode: '5500', debit: 1 }],
      extra: true,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_parameter');
    const fields = res.json.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['entryDate', 'description', 'lines', 'lines.0.debit', 'extra']));

    const both = await propose('capital-activity', {
      investorId: books.investorId,
      type: 'redemption',
      shareClass: 'Class A',
      amount: '1.00',
      fraction: '0.5',
      dealingDate,
    });
    expect(both.status).toBe(400);
    expect(both.json.errors.map((e: { field: string }) => e.field)).toEqual(['amount', 'fraction']);

    const sided = await propose('journal-entry', {
      ...balanced(),
      lines: [{ accountCode: '5500', debit: '1.00', credit: '1.00' }, { accountCode: '5600' }],
    });
    expect(sided.status).toBe(400);
    expect(sided.json.errors.map((e: { field: string }) => e.field)).toEqual(['lines.0', 'lines.1']);

    const lp = await propose('lp-report', { periodStart: '2025-01-01' });
    expect(lp.status).toBe(400);
    expect(lp.json.code).toBe('missing_parameter');
  });

  it('needs fund:propose to propose, proposals:review to decide, nav:publish to publish', async () => {
    expect((await propose('journal-entry', balanced(), readOnly.key)).json.code).toBe('insufficient_scope');
    const p = await propose('journal-entry', balanced());
    const res = await approve(p.json.id, readOnly.key);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('insufficient_scope');
    expect(
      (await call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, { key: manager.key })).json
        .code,
    ).toBe('insufficient_scope');
  });

  it('maker-checker: the proposing account cannot approve or reject (403), a different one can', async () => {
    const p = await propose('journal-entry', balanced('10.00'));
    const self = await approve(p.json.id, agent.key);
    expect(self.status).toBe(403);
    expect(self.json.code).toBe('maker_checker_violation');
    const selfReject = await reject(p.json.id, agent.key);
    expect(selfReject.status).toBe(403);
    expect(selfReject.json.code).toBe('maker_checker_violation');
    // Another key of the same account is still the same human.
    const sameAccountOtherKey = await mintKey(app, {
      account: (await dbOf(app).query(`SELECT name FROM accounts WHERE id = $1`, [agent.accountId]))[0].name,
      fund: (await dbOf(app).query(`SELECT slug FROM funds WHERE id = $1`, [books.fundId]))[0].slug,
      scopes: ['proposals:review'],
      plan: 'platform',
    });
    const again = await approve(p.json.id, sameAccountOtherKey.key);
    expect(again.status).toBe(403);
    expect(again.json.code).toBe('maker_checker_violation');
    expect((await approve(p.json.id)).status).toBe(200);
  });

  it('approving a journal entry posts it once, records the decision and writes proposal.approved; deciding twice is 409', async () => {
    const p = await propose('journal-entry', balanced('77.70'));
    const res = await approve(p.json.id, manager.key, { note: 'checked against invoice' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'approved',
      decisionNote: 'checked against invoice',
      decidedBy: {
        accountId: manager.accountId,
        keyId: manager.id,
        displayName: await displayNameOf(manager.accountId),
      },
    });
    expect(res.json.decidedBy.displayName).toMatch(/^manager-/);
    expect(res.json.executionRef).toMatch(/^journal-entry:[0-9a-f-]{36}$/);
    const entryId = res.json.executionRef.split(':')[1];
    const lines = await dbOf(app).query(
      `SELECT account_code, debit::text, credit::text FROM journal_lines WHERE entry_id = $1 ORDER BY line_no`,
      [entryId],
    );
    expect(lines).toEqual([
      { account_code: '5500', debit: '77.70', credit: '0.00' },
      { account_code: '5600', debit: '0.00', credit: '77.70' },
    ]);
    const events = await eventsFor(p.json.id);
    expect(events.map((e) => e.type)).toEqual(['proposal.approved']);
    expect(JSON.parse(events[0].body)).toMatchObject({
      type: 'proposal.approved',
      fundId: books.fundId,
      data: { proposalId: p.json.id, executionRef: res.json.executionRef },
    });

    const twice = await approve(p.json.id);
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('invalid_state');
    const rejectAfter = await reject(p.json.id);
    expect(rejectAfter.status).toBe(409);
    expect(rejectAfter.json.code).toBe('invalid_state');
    expect(await entriesFor(p.json.id)).toHaveLength(1);
  });

  it('a booking dated into a valued day marks the NAV to be redone from it; closed periods and pre-inception dates are refused', async () => {
    const db = dbOf(app);
    const marker = async () =>
      (await db.query(`SELECT nav_restart_from::text AS d FROM funds WHERE id = $1`, [books.fundId]))[0].d;
    try {
      // the fixture's complete run is 2025-03-31: an entry dated 2025-03-15 makes the next run start there
      const valued = await propose('journal-entry', { ...balanced('12.00'), entryDate: '2025-03-15' });
      expect((await approve(valued.json.id)).status).toBe(200);
      expect(await marker()).toBe('2025-03-15');
      // after the last complete run: nothing to redo
      await db.query(`UPDATE funds SET nav_restart_from = NULL WHERE id = $1`, [books.fundId]);
      const later = await propose('expense', {
        category: 'legal',
        vendor: 'Counsel LLP',
        amount: '10',
        accrualDate: '2025-04-15',
        description: 'after the last run',
      });
      expect((await approve(later.json.id)).status).toBe(200);
      expect(await marker()).toBeNull();
      // the run of 2025-03-31 published: the books are closed through it, at staging and at approval
      const staged = await propose('journal-entry', { ...balanced('13.00'), entryDate: '2025-03-20' });
      await db.query(`UPDATE nav_runs SET published_at = now() WHERE id = $1`, [books.completeRunId]);
      const closed = await propose('journal-entry', { ...balanced('14.00'), entryDate: '2025-03-31' });
      expect([closed.status, closed.json.errors[0].field]).toEqual([422, 'entryDate']);
      expect(closed.json.detail).toContain('closed through 2025-03-31');
      const atApproval = await approve(staged.json.id);
      expect([atApproval.status, atApproval.json.errors[0].field]).toEqual([422, 'entryDate']);
      expect(await entriesFor(staged.json.id)).toHaveLength(0);
      expect((await propose('journal-entry', { ...balanced('15.00'), entryDate: '2025-04-01' })).status).toBe(201);
      await db.query(`UPDATE funds SET inception_date = '2025-01-01' WHERE id = $1`, [books.fundId]);
      const early = await propose('expense', {
        category: 'audit',
        vendor: 'Audit & Co',
        amount: '1',
        accrualDate: '2024-12-31',
        description: 'before inception',
      });
      expect([early.status, early.json.errors[0].field]).toEqual([422, 'accrualDate']);
      // nor on the inception day itself: it starts with no capital, so nothing booked on it can be allocated
      const onInception = await propose('expense', {
        category: 'audit',
        vendor: 'Audit & Co',
        amount: '1',
        accrualDate: '2025-01-01',
        description: 'on inception',
      });
      expect([onInception.status, onInception.json.errors[0].message]).toEqual([
        422,
        'must be after the inception 2025-01-01',
      ]);
    } finally {
      await db.query(`UPDATE funds SET nav_restart_from = NULL, inception_date = NULL WHERE id = $1`, [books.fundId]);
      await db.query(`UPDATE nav_runs SET published_at = NULL WHERE id = $1`, [books.completeRunId]);
    }
  });

  it('approving an expense books the expense (accrued by the NAV runs, not posted twice)', async () => {
    const p = await propose('expense', {
      category: 'audit',
      vendor: 'Audit & Co',
      amount: '4200',
      accrualDate: '2025-03-31',
      description: 'FY audit',
    });
    expect(p.status).toBe(201);
    expect(p.json.payload).toMatchObject({ amount: '4200.00', periodEnd: '2025-03-31' });
    const res = await approve(p.json.id);
    expect(res.status).toBe(200);
    const expenseId = res.json.executionRef.split(':')[1];
    const [expense] = await dbOf(app).query(
      `SELECT category, amount::text, status, external_id FROM expenses WHERE id = $1`,
      [expenseId],
    );
    expect(expense).toEqual({
      category: 'audit',
      amount: '4200.00',
      status: 'accrued',
      external_id: `proposal:${p.json.id}`,
    });
    // The books accrue it in their NAV runs from the expense row; approval posts nothing itself.
    expect(await entriesFor(p.json.id)).toHaveLength(0);
  });

  it('approving capital activity creates a pending request', async () => {
    const p = await propose('capital-activity', {
      investorId: books.investorId,
      type: 'subscription',
      shareClass: 'Class A',
      amount: '250000',
      dealingDate,
    });
    expect(p.status).toBe(201);
    expect(p.json.payload).toMatchObject({
      shareClass: 'Class A',
      shareClassId: books.shareClassId,
      amount: '250000.00',
      fraction: null,
    });
    const res = await approve(p.json.id);
    expect(res.status).toBe(200);
    const [row] = await dbOf(app).query(
      `SELECT type, status, requested_amount::text AS amount, dealing_date::text AS d FROM capital_activity WHERE id = $1`,
      [res.json.executionRef.split(':')[1]],
    );
    expect(row).toEqual({ type: 'subscription', status: 'pending', amount: '250000.00', d: dealingDate });

    // renamed between staging and approval (a re-import): approval books the class the checker saw, by its id
    const renamed = await propose('capital-activity', {
      investorId: books.investorId,
      type: 'subscription',
      shareClass: 'Class A',
      amount: '1000',
      dealingDate,
    });
    await dbOf(app).query(`UPDATE share_classes SET name = 'Class A (renamed)' WHERE id = $1`, [books.shareClassId]);
    try {
      const ok = await approve(renamed.json.id);
      expect(ok.status).toBe(200);
      const [booked] = await dbOf(app).query(`SELECT share_class_id AS id FROM capital_activity WHERE id = $1`, [
        ok.json.executionRef.split(':')[1],
      ]);
      expect(booked.id).toBe(books.shareClassId);
    } finally {
      await dbOf(app).query(`UPDATE share_classes SET name = 'Class A' WHERE id = $1`, [books.shareClassId]);
    }
  });

  it('a redemption needs units to redeem; a soft-closed class takes subscriptions from its holders only', async () => {
    // dealing dates past the 30-day redemption notice whatever today is: later ≥ 40 days, then the month end after it
    const later = monthEndAfter(40);
    const muchLater = monthEndAfter(72);
    const newInvestor = async () => {
      const id = randomUUID();
      await dbOf(app).query(
        `INSERT INTO investors (id, fund_id, external_id, display_name, investor_type, status, legal_name, email, postal_address, tax_id)
         VALUES ($1, $2, $3, 'Investor Two', 'individual', 'active', 'Two', 'two@example.com', '2 Street', 'TAX-2')`,
        [id, books.fundId, `INV-${id}`],
      );
      return id;
    };
    const propose2 = (investorId: string, type: string, dealingDate: string) =>
      propose('capital-activity', {
        investorId,
        type,
        shareClass: 'Class A',
        ...(type === 'redemption' ? { fraction: '0.5' } : { amount: '5000' }),
        dealingDate,
      });
    const noUnits = [{ field: 'investorId', message: 'holds no units of Class A on the dealing date' }];
    const newcomer = await newInvestor();
    const none = await propose2(newcomer, 'redemption', later);
    expect([none.status, none.json.errors]).toEqual([422, noUnits]);
    // a subscription pending for `later` (approved, not yet dealt): the same day deals redemptions first
    await dbOf(app).query(
      `INSERT INTO capital_activity (id, fund_id, external_id, investor_id, share_class_id, type, requested_amount, dealing_date, status, created_at)
       VALUES ($1, $2, $3, $4, $5, 'subscription', 5000, $6, 'pending', now())`,
      [randomUUID(), books.fundId, `CA-${newcomer}`, newcomer, books.shareClassId, later],
    );
    const sameDay = await propose2(newcomer, 'redemption', later);
    expect([sameDay.status, sameDay.json.errors]).toEqual([422, noUnits]);
    expect((await propose2(newcomer, 'redemption', muchLater)).status).toBe(201);

    await dbOf(app).query(`UPDATE share_classes SET status = 'soft_closed' WHERE id = $1`, [books.shareClassId]);
    try {
      const refused = await propose2(await newInvestor(), 'subscription', later);
      expect([refused.status, refused.json.errors]).toEqual([
        422,
        [{ field: 'shareClass', message: 'soft-closed to new investors' }],
      ]);
      expect(refused.json.detail).toContain('open to its existing investors only');
      expect((await propose2(newcomer, 'subscription', muchLater)).status).toBe(201); // a holder by then
    } finally {
      await dbOf(app).query(`UPDATE share_classes SET status = 'open' WHERE id = $1`, [books.shareClassId]);
    }
  });

  it('approving an LP report distributes it and emits report.distributed; a second distribution is refused at approval', async () => {
    const first = await propose('lp-report', { lpReportId: books.draftReportId });
    const second = await propose('lp-report', { lpReportId: books.draftReportId });
    expect([first.status, second.status]).toEqual([201, 201]);
    const res = await approve(first.json.id);
    expect(res.status).toBe(200);
    const [report] = await dbOf(app).query(`SELECT status, distributed_at FROM lp_reports WHERE id = $1`, [
      books.draftReportId,
    ]);
    expect(report.status).toBe('distributed');
    expect(report.distributed_at).not.toBeNull();
    const types = (
      await dbOf(app).query(
        `SELECT type, body FROM webhook_events WHERE fund_id = $1 AND type = 'report.distributed'`,
        [books.fundId],
      )
    ).map((e: { body: string }) => JSON.parse(e.body).data);
    expect(types).toEqual([
      expect.objectContaining({
        lpReportId: books.draftReportId,
        proposalId: first.json.id,
        periodStart: '2025-01-01',
        periodEnd: '2025-03-31',
      }),
    ]);

    const stale = await approve(second.json.id);
    expect(stale.status).toBe(422);
    expect(stale.json.detail).toMatch(/report already distributed/);
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${second.json.id}`, { key: agent.key })).json.status).toBe(
      'pending',
    );
    expect(await eventsFor(second.json.id)).toHaveLength(0);

    const fresh = await propose('lp-report', {
      periodStart: '2025-04-01',
      periodEnd: '2025-06-30',
      narrative: 'Q2: the fund returned 3.1% net.',
    });
    const ok = await approve(fresh.json.id);
    expect(ok.status).toBe(200);
    const [created] = await dbOf(app).query(`SELECT status, preview FROM lp_reports WHERE id = $1`, [
      ok.json.executionRef.split(':')[1],
    ]);
    expect(created).toEqual({ status: 'distributed', preview: 'Q2: the fund returned 3.1% net.' });
    const again = await propose('lp-report', {
      periodStart: '2025-04-01',
      periodEnd: '2025-06-30',
      narrative: 'again',
    });
    expect(again.status).toBe(422);
    expect(again.json.detail).toMatch(/report already distributed/);
  });

  it('one distributed report per period: two approvals at once distribute one; a draft for a distributed period is refused', async () => {
    const q3 = { periodStart: '2025-07-01', periodEnd: '2025-09-30', narrative: 'Q3' };
    const [a, b] = [await propose('lp-report', q3), await propose('lp-report', q3)];
    expect([a.status, b.status]).toEqual([201, 201]);
    const decided = await Promise.all([approve(a.json.id), approve(b.json.id)]);
    expect(decided.map((r) => r.status).sort()).toEqual([200, 422]);
    const reports = await dbOf(app).query(
      `SELECT id FROM lp_reports WHERE fund_id = $1 AND period_start = '2025-07-01' AND status = 'distributed'`,
      [books.fundId],
    );
    expect(reports).toHaveLength(1);
    const lateDraft = randomUUID();
    await dbOf(app).query(
      `INSERT INTO lp_reports (id, fund_id, external_id, period_start, period_end, status, preview)
       VALUES ($1, $2, $3, '2024-10-01', '2024-12-31', 'draft', 'Q4 again')`,
      [lateDraft, books.fundId, uniqueName('RPT')],
    );
    const again = await propose('lp-report', { lpReportId: lateDraft });
    expect(again.status).toBe(422);
    expect(again.json.errors).toEqual([
      { field: 'lpReportId', message: 'a report for this period was already distributed' },
    ]);
  });

  it('rejecting records the reason and writes proposal.rejected; a reason is required', async () => {
    const p = await propose('journal-entry', balanced('5.00'));
    const noReason = await reject(p.json.id, manager.key, {});
    expect(noReason.status).toBe(400);
    expect(noReason.json.code).toBe('missing_parameter');
    expect([...new Set(noReason.json.errors.map((e: { field: string }) => e.field))]).toEqual(['reason']);
    const res = await reject(p.json.id, manager.key, { reason: 'wrong period' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'rejected', decisionNote: 'wrong period', executionRef: null });
    expect((await eventsFor(p.json.id)).map((e) => e.type)).toEqual(['proposal.rejected']);
    expect(await entriesFor(p.json.id)).toHaveLength(0);
    expect((await approve(p.json.id)).json.code).toBe('invalid_state');
  });

  it('atomicity: an approval whose last step fails leaves no posting, no decision and no event', async () => {
    const p = await propose('journal-entry', balanced('31.41'));
    const outbox = app.get(EventOutbox);
    const spy = jest.spyOn(outbox, 'emit').mockRejectedValueOnce(new Error('outbox write failed'));
    try {
      const res = await approve(p.json.id);
      expect(res.status).toBe(500);
      expect(res.json.code).toBe('internal');
    } finally {
      spy.mockRestore();
    }
    expect(await entriesFor(p.json.id)).toHaveLength(0);
    expect(await eventsFor(p.json.id)).toHaveLength(0);
    const after = await call(app, 'GET', `/api/v1/fund/proposals/${p.json.id}`, { key: agent.key });
    expect(after.json).toMatchObject({ status: 'pending', decidedAt: null, decidedBy: null, executionRef: null });
    // And it can still be approved afterwards, exactly once.
    expect((await approve(p.json.id)).status).toBe(200);
    expect(await entriesFor(p.json.id)).toHaveLength(1);
  });

  it('re-validates at approval: an account removed since the proposal makes approval 422 and changes nothing', async () => {
    await dbOf(app).query(
      `INSERT INTO chart_of_accounts (fund_id, code, name, account_type, normal_balance) VALUES ($1, '4999', 'Temp', 'income', 'credit')`,
      [books.fundId],
    );
    const p = await propose('journal-entry', {
      ...balanced(),
      lines: [
        { accountCode: '1000', debit: '1.00' },
        { accountCode: '4999', credit: '1.00' },
      ],
    });
    expect(p.status).toBe(201);
    await dbOf(app).query(`DELETE FROM chart_of_accounts WHERE fund_id = $1 AND code = '4999'`, [books.fundId]);
    const res = await approve(p.json.id);
    expect(res.status).toBe(422);
    expect(res.json.detail).toContain('unknown account: 4999');
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${p.json.id}`, { key: agent.key })).json.status).toBe(
      'pending',
    );
  });

  it("serves only the key's fund: other fund ids are 404 everywhere", async () => {
    const p = await propose('journal-entry', balanced('1.00'));
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${p.json.id}`, { key: otherFundManager.key })).status).toBe(
      404,
    );
    const res = await approve(p.json.id, otherFundManager.key);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('not_found');
    expect((await reject(p.json.id, otherFundManager.key)).status).toBe(404);
    expect((await approve('not-a-uuid')).status).toBe(400); // a path id that is not a UUID is invalid_parameter
    const pub = await call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, {
      key: otherFundManager.key,
    });
    expect(pub.status).toBe(404);
    const list = await call(app, 'GET', '/api/v1/admin/proposals?status=pending', { key: otherFundManager.key });
    expect(list.json.items).toEqual([]);
  });

  it('lists proposals by status with keyset cursors', async () => {
    const pending = await call(app, 'GET', '/api/v1/admin/proposals?status=pending&limit=1', { key: manager.key });
    expect(pending.status).toBe(200);
    expect(pending.json.items).toHaveLength(1);
    expect(pending.json.hasMore).toBe(true);
    const seen = [pending.json.items[0].id];
    let cursor = pending.json.nextCursor;
    while (cursor) {
      const page = await call(
        app,
        'GET',
        `/api/v1/admin/proposals?status=pending&limit=1&cursor=${encodeURIComponent(cursor)}`,
        { key: manager.key },
      );
      expect(page.status).toBe(200);
      seen.push(...page.json.items.map((i: { id: string }) => i.id));
      cursor = page.json.nextCursor;
    }
    const all = await dbOf(app).query(
      `SELECT id FROM proposals WHERE fund_id = $1 AND status = 'pending' ORDER BY created_at DESC, id DESC`,
      [books.fundId],
    );
    expect(seen).toEqual(all.map((r: { id: string }) => r.id));
    const mine = await call(app, 'GET', '/api/v1/fund/proposals?status=approved', { key: agent.key });
    expect(mine.json.items.every((i: { status: string }) => i.status === 'approved')).toBe(true);
    expect((await call(app, 'GET', '/api/v1/fund/proposals?status=bogus', { key: agent.key })).status).toBe(400);
    expect((await call(app, 'GET', '/api/v1/fund/proposals?cursor=tampered.x', { key: agent.key })).json.code).toBe(
      'invalid_parameter',
    );
    expect((await call(app, 'GET', '/api/v1/fund/proposals?limit=0', { key: agent.key })).status).toBe(400);
  });

  it("a proposal that waits out the lock timeout behind an import's hold on the fund is a 409 to retry, not a 500", async () => {
    const impatient = await bootApp({ role: 'api' }, { DB_LOCK_TIMEOUT_MS: '300' });
    const importing = dbOf(app).createQueryRunner(); // an import holds the fund's row for its whole transaction
    await importing.connect();
    try {
      await importing.startTransaction();
      await importing.query(`SELECT 1 FROM funds WHERE id = $1 FOR UPDATE`, [books.fundId]);
      const res = await call(impatient, 'POST', '/api/v1/fund/proposals/expense', {
        key: agent.key,
        body: { category: 'legal', vendor: 'Busy LLP', amount: '1.00', accrualDate: '2025-04-15', description: 'x' },
      });
      expect([res.status, res.json.code, res.headers['retry-after']]).toEqual([409, 'invalid_state', '5']);
      expect(res.json.detail).toContain('nothing was written');
    } finally {
      await importing.rollbackTransaction();
      await importing.release();
      await impatient.close();
    }
  });

  it('an approval waits for a publication in flight, then refuses a booking dated inside the books it closed', async () => {
    const staged = await propose('expense', {
      category: 'legal',
      vendor: 'Late LLP',
      amount: '120.00',
      accrualDate: '2025-03-31',
      description: 'accrued while the NAV was being published',
    });
    expect(staged.status).toBe(201);
    // a publication of the 2025-03-31 run, in flight: it holds the fund's NAV-inputs lock
    const publication = dbOf(app).createQueryRunner();
    await publication.connect();
    try {
      await publication.startTransaction();
      await publication.query(`SELECT pg_advisory_xact_lock(${navInputsLockKey('$1')})`, [books.fundId]);
      const pending = approve(staged.json.id);
      const raced = await Promise.race([pending.then(() => 'answered'), sleep(400).then(() => 'waiting')]);
      expect(raced).toBe('waiting');
      await publication.query(`UPDATE nav_runs SET published_at = now() WHERE id = $1`, [books.completeRunId]);
      await publication.commitTransaction();
      const refused = await pending; // it checked the date only after the publication committed
      expect([refused.status, refused.json.errors?.[0]?.field]).toEqual([422, 'accrualDate']);
      expect(refused.json.detail).toContain('the books are closed through 2025-03-31');
    } finally {
      await publication.release();
      await dbOf(app).query(`UPDATE nav_runs SET published_at = NULL WHERE id = $1`, [books.completeRunId]);
    }
    await reject(staged.json.id);
  });

  it('publication waits for an approval holding the NAV inputs, and refuses the run that approval made stale', async () => {
    const publish = () =>
      call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, { key: publisher.key });
    // an approval of a booking dated 2025-03-31, in flight: it holds the fund's NAV-inputs lock
    const approval = dbOf(app).createQueryRunner();
    await approval.connect();
    try {
      await approval.startTransaction();
      await approval.query(`SELECT pg_advisory_xact_lock(${navInputsLockKey('$1')})`, [books.fundId]);
      const pending = publish();
      const raced = await Promise.race([pending.then(() => 'answered'), sleep(400).then(() => 'waiting')]);
      expect(raced).toBe('waiting');
      await approval.query(`UPDATE funds SET nav_restart_from = '2025-03-31' WHERE id = $1`, [books.fundId]);
      await approval.commitTransaction();
      const stale = await pending;
      expect([stale.status, stale.json.code]).toEqual([409, 'invalid_state']);
      expect(stale.json.detail).toContain('is stale: the NAV must be run again from 2025-03-31');
    } finally {
      await approval.release();
    }
    // the NAV run again through that date clears the marker; then it publishes
    await dbOf(app).query(`UPDATE funds SET nav_restart_from = NULL WHERE id = $1`, [books.fundId]);
  });

  it('publishes a complete NAV run once (nav.published); failed runs and republishing are 409', async () => {
    const res = await call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, {
      key: publisher.key,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      navRunId: books.completeRunId,
      valuationDate: '2025-03-31',
      status: 'complete',
      netAssetValue: '1234567.89',
    });
    const events = await dbOf(app).query(
      `SELECT body FROM webhook_events WHERE fund_id = $1 AND type = 'nav.published'`,
      [books.fundId],
    );
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].body).data).toMatchObject({
      navRunId: books.completeRunId,
      netAssetValue: '1234567.89',
    });
    const again = await call(app, 'POST', `/api/v1/admin/nav-runs/${books.completeRunId}/publish`, {
      key: publisher.key,
    });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('invalid_state');
    const failed = await call(app, 'POST', `/api/v1/admin/nav-runs/${books.failedRunId}/publish`, {
      key: publisher.key,
    });
    expect(failed.status).toBe(409);
    expect(failed.json.code).toBe('invalid_state');
  });
});
