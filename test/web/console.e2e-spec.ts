import type { Page } from 'playwright-core';
import { createFund, dbOf, mintKey, type ResponseJson } from '../utils/app';
import { screenshot, useBrowserSuite, withScreenshotOnFailure } from '../utils/browser';
import { seedBooks } from '../proposals/books-fixture';
import { a11y, CONSOLE_TEST_ENV, newPage, pageErrors, person, signIn, type Person } from './console-helpers';
import { settledValue } from './wait';

/**
 * The developer console in headless Chromium against the real app: sign-in, minting a key in the
 * page and calling the API with it, revoking it, maker-checker between two people, the activity log,
 * and an ended session.
 */
describe('developer console (headless Chromium)', () => {
  const suite = useBrowserSuite({}, CONSOLE_TEST_ENV);
  let fund: { id: string; slug: string };
  let admin: Person;
  let manager: Person;
  let analyst: Person;

  beforeAll(async () => {
    fund = await createFund(suite.server.app);
    await seedBooks(suite.server.app, fund.id);
    [admin, manager, analyst] = [
      await person(suite.server.app, fund.slug, 'admin'),
      await person(suite.server.app, fund.slug, 'manager'),
      await person(suite.server.app, fund.slug, 'analyst'),
    ];
  });

  const me = (key: string) =>
    fetch(`${suite.server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });

  it('refuses a wrong password with a clear message, then signs in and lands on the keys page', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-sign-in', async () => {
      await page.goto(`${suite.server.baseUrl}/console/keys`);
      await page.waitForURL(/\/console\/sign-in\?next=%2Fkeys/);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectAlert(page, /Could not sign in/);
      expect(await a11y(page)).toEqual([]);
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/console\/keys$/);
      await page.getByRole('heading', { level: 1, name: /API keys/ }).waitFor();
      expect(await page.getByLabel('Fund', { exact: true }).inputValue()).toBe(fund.slug);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('mints a key in the page, which calls /api/v1/me; revoking it in the page makes it and the keys minted with it answer 401', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-keys', async () => {
      await signIn(page, suite.server.baseUrl, admin.email);
      await page.getByLabel('Key name').fill('Browser test key');
      // Only the admin role's scopes are offered; fund:read is ticked by default.
      expect(await page.getByRole('checkbox').count()).toBe(6);
      await page.getByRole('checkbox', { name: 'fund:propose' }).check();
      await page.getByRole('checkbox', { name: 'keys:manage' }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('key-secret').textContent())!.trim();
      expect(secret).toMatch(/^svc_dk_/);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-keys-created');

      const res = await me(secret);
      expect(res.status).toBe(200);
      const body: ResponseJson = await res.json();
      expect(body).toMatchObject({
        via: 'key',
        name: 'Browser test key',
        fund: { slug: fund.slug },
        userId: admin.userId,
      });
      expect([...body.scopes].sort()).toEqual(['fund:propose', 'fund:read', 'keys:manage']);
      const child = await fetch(`${suite.server.baseUrl}/api/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Minted by the browser key', scopes: ['fund:read'] }),
      });
      const childSecret = ((await child.json()) as { token: string }).token;
      await page.reload();

      const row = page.getByTestId('key-row').filter({ hasText: 'Browser test key' });
      await expect(row.textContent()).resolves.toContain(body.displayPrefix);
      await row.getByRole('button', { name: /Revoke/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      // the notice itself: another status (e.g. "Loading connected apps…", still loading) may be on the page
      const revokedNotice = page.getByRole('status').filter({ hasText: 'Revoked Browser test key' });
      await revokedNotice.waitFor();
      expect(await revokedNotice.textContent()).toContain('The key minted with it is revoked too.');
      await row.getByText('revoked').waitFor();
      await screenshot(page, 'console-keys-revoked');
      expect(await untilStatus(() => me(secret), 401)).toBe(401);
      expect(await untilStatus(() => me(childSecret), 401)).toBe(401);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('a manager approves in the page a journal entry an analyst staged with a key, and sees it in the activity log', async () => {
    const key = await mintKey(suite.server.app, {
      account: analyst.email,
      fund: fund.slug,
      scopes: ['fund:read', 'fund:propose'],
    });
    const staged = await fetch(`${suite.server.baseUrl}/api/v1/fund/proposals/journal-entry`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        entryDate: '2025-03-31',
        description: 'Browser-reviewed reclass',
        lines: [
          { accountCode: '5500', debit: '1250.00', description: 'legal' },
          { accountCode: '5600', credit: '1250.00' },
        ],
      }),
    });
    expect(staged.status).toBe(201);
    const proposalId = ((await staged.json()) as { id: string }).id;

    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-proposals', async () => {
      await signIn(page, suite.server.baseUrl, manager.email, '/console/proposals');
      const row = page.getByTestId('proposal-row').filter({ hasText: 'Browser-reviewed reclass' });
      await row.waitFor();
      // The payload is rendered for a person: the journal lines as a table with balanced totals.
      await expect(row.getByRole('table').textContent()).resolves.toMatch(/5500.*legal.*1,250\.00.*5600.*1,250\.00/s);
      await expect(row.textContent()).resolves.toContain('(balanced)');
      expect(await a11y(page)).toEqual([]);
      await row.getByRole('button', { name: 'Approve' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Note (optional)').fill('checked against the invoice');
      await dialog.getByRole('button', { name: 'Approve proposal' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Journal entry approved/ })
        .waitFor();
      await row.waitFor({ state: 'detached' });
      await page.getByTestId('decided-row').filter({ hasText: 'checked against the invoice' }).waitFor();

      await page.getByRole('link', { name: 'Activity' }).click();
      const approval = page
        .getByTestId('activity-row')
        .filter({ hasText: `/api/v1/admin/proposals/${proposalId}/approve` });
      await approval
        .or(page.getByTestId('activity-row').filter({ hasText: '/api/v1/admin/proposals/:id/approve' }))
        .first()
        .waitFor();
      expect(await a11y(page)).toEqual([]);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it("filters the activity log by a connected app: the Key filter lists the fund's apps, and their rows are named", async () => {
    const key = await mintKey(suite.server.app, { account: analyst.email, fund: fund.slug, scopes: ['fund:read'] });
    const db = dbOf(suite.server.app);
    const clientId = `browser-agent-${key.id}`;
    await db.query(
      `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, token_endpoint_auth_method)
       VALUES ($1, 'registered', 'Browser Agent', ARRAY['http://127.0.0.1/cb'], 'none')`,
      [clientId],
    );
    await db.query(
      `INSERT INTO oauth_grants (client_id, user_id, fund_id, key_id, scopes, resource)
       VALUES ($1, $2, $3, $4, ARRAY['fund:read'], 'http://127.0.0.1/api/mcp')`,
      [clientId, analyst.userId, fund.id, key.id],
    );
    expect((await me(key.key)).status).toBe(200); // the app's one request

    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-activity-apps', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/activity');
      const filter = page.getByLabel('Key', { exact: true });
      const option = filter.locator('optgroup[label="Connected apps"] option', { hasText: 'Browser Agent' });
      await option.waitFor({ state: 'attached' });
      await filter.selectOption(key.id);
      await page.getByRole('button', { name: 'Filter' }).click();
      const rows = page.getByTestId('activity-row');
      // the unfiltered page holds the admin's console requests too: wait for the filtered one
      expect(await settledValue(() => rows.count(), 1)).toBe(1);
      await expect(rows.first().textContent()).resolves.toContain('/api/v1/me');
      await expect(rows.first().textContent()).resolves.toContain('Browser Agent (connected app)');
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-activity-apps');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('explains a maker-checker refusal: the admin cannot approve what their own key staged', async () => {
    const key = await mintKey(suite.server.app, { account: admin.email, fund: fund.slug, scopes: ['fund:propose'] });
    const staged = await fetch(`${suite.server.baseUrl}/api/v1/fund/proposals/expense`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        category: 'audit',
        vendor: 'Self Review LLP',
        amount: '900.00',
        accrualDate: '2025-03-31',
        description: 'own proposal',
      }),
    });
    expect(staged.status).toBe(201);
    const page = await newPage(suite.browser);
    const errors = pageErrors(page, [401, 403]);
    await withScreenshotOnFailure(page, 'console-maker-checker', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/proposals');
      const row = page.getByTestId('proposal-row').filter({ hasText: 'Self Review LLP' });
      await row.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve proposal' }).click();
      const alert = page.getByRole('dialog').getByRole('alert');
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toMatch(/Maker-checker: a proposal is approved by a different person/);
      await screenshot(page, 'console-maker-checker');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(row.count()).resolves.toBe(1);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('a person withdraws in the page a proposal they staged with their key: it moves to Decided as withdrawn', async () => {
    const stage = async (account: string, description: string) => {
      const key = await mintKey(suite.server.app, { account, fund: fund.slug, scopes: ['fund:read', 'fund:propose'] });
      const res = await fetch(`${suite.server.baseUrl}/api/v1/fund/proposals/journal-entry`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          entryDate: '2025-03-31',
          description,
          lines: [
            { accountCode: '5500', debit: '75.00' },
            { accountCode: '5600', credit: '75.00' },
          ],
        }),
      });
      expect(res.status).toBe(201);
      return { key, id: ((await res.json()) as { id: string }).id };
    };
    const mine = await stage(manager.email, 'Accrual staged in the wrong month');
    await stage(analyst.email, 'An analyst entry to review');

    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-proposals-withdraw', async () => {
      await signIn(page, suite.server.baseUrl, manager.email, '/console/proposals');
      const own = page.getByTestId('proposal-row').filter({ hasText: 'Accrual staged in the wrong month' });
      const theirs = page.getByTestId('proposal-row').filter({ hasText: 'An analyst entry to review' });
      await own.waitFor();
      await theirs.waitFor();
      expect(await theirs.getByRole('button', { name: 'Withdraw' }).count()).toBe(0); // a reviewer, not its maker
      expect(await theirs.getByRole('button', { name: 'Approve' }).count()).toBe(1);
      await own.getByRole('button', { name: 'Withdraw' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Withdraw this journal entry?' }).waitFor();
      await dialog.getByLabel('Note (optional)').fill('booked in April instead');
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-proposals-withdraw-dialog');
      await dialog.getByRole('button', { name: 'Withdraw proposal' }).click();
      await page.getByRole('status').filter({ hasText: 'Journal entry withdrawn.' }).waitFor();
      await own.waitFor({ state: 'detached' });
      const decided = page.getByTestId('decided-row').filter({ hasText: 'booked in April instead' });
      await decided.waitFor();
      expect(await decided.textContent()).toMatch(/withdrawn.*you.*Withdrawn by you.*booked in April instead/);
      expect(await theirs.count()).toBe(1);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-proposals-withdrawn');
    });
    expect(errors()).toEqual([]);
    await page.context().close();

    const record = (await (
      await fetch(`${suite.server.baseUrl}/api/v1/fund/proposals/${mine.id}`, {
        headers: { authorization: `Bearer ${mine.key.key}` },
      })
    ).json()) as ResponseJson;
    expect(record).toMatchObject({
      status: 'withdrawn',
      decidedBy: null,
      withdrawnBy: { keyId: null, userId: manager.userId },
      withdrawalNote: 'booked in April instead',
    });

    // another reviewer reads it in the Decided list by the maker's name
    const other = await newPage(suite.browser);
    const otherErrors = pageErrors(other);
    await withScreenshotOnFailure(other, 'console-proposals-withdrawn-other', async () => {
      await signIn(other, suite.server.baseUrl, admin.email, '/console/proposals');
      const row = other.getByTestId('decided-row').filter({ hasText: 'booked in April instead' });
      await row.waitFor();
      expect(await row.textContent()).toContain(`Withdrawn by ${manager.email}`);
    });
    expect(otherErrors()).toEqual([]);
    await other.context().close();
  });

  it('sends a person whose session ended back to sign-in with a message', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-expired', async () => {
      await signIn(page, suite.server.baseUrl, manager.email, '/console/account');
      await page.context().clearCookies();
      await page.getByRole('link', { name: 'Keys' }).click();
      await page.waitForURL(/\/console\/sign-in/);
      await page.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('"Sign out everywhere" on the account page ends the person\'s other sessions too', async () => {
    const [first, second] = [await newPage(suite.browser), await newPage(suite.browser)];
    const errors = [pageErrors(first), pageErrors(second)];
    await withScreenshotOnFailure(second, 'console-sign-out-everywhere', async () => {
      await signIn(first, suite.server.baseUrl, analyst.email, '/console/keys');
      await signIn(second, suite.server.baseUrl, analyst.email, '/console/account');
      expect(await a11y(second)).toEqual([]);
      await second.getByRole('button', { name: 'Sign out everywhere' }).click();
      await second.waitForURL(/\/console\/sign-in/);
      await second.getByRole('status').filter({ hasText: 'You are signed out on every device.' }).waitFor();
      await first.getByRole('link', { name: 'Usage' }).click();
      await first.waitForURL(/\/console\/sign-in/);
      await first.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
    });
    expect(errors.flatMap((e) => e())).toEqual([]);
    await Promise.all([first.context().close(), second.context().close()]);
  });

  it('a fund with more keys than a page shows the newest 100, then the rest on "Show more keys"', async () => {
    const big = await createFund(suite.server.app);
    const owner = await person(suite.server.app, big.slug, 'admin');
    for (let i = 0; i < 102; i++) await mintKey(suite.server.app, { scopes: ['fund:read'], fund: big.slug });
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-keys-more', async () => {
      await signIn(page, suite.server.baseUrl, owner.email);
      const rows = page.getByTestId('key-row');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(100);
      const shown = await page.getByText(/100 of \d+ shown/).textContent();
      const total = Number(/of (\d+)/.exec(shown!)![1]);
      expect(total).toBeGreaterThanOrEqual(102);
      await screenshot(page, 'console-keys-more');
      await page.getByRole('button', { name: 'Show more keys' }).click();
      await page.getByRole('button', { name: 'Show more keys' }).waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(total);
      expect(await a11y(page)).toEqual([]);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });
});

async function expectAlert(page: Page, text: RegExp): Promise<void> {
  const alert = page.getByRole('alert').filter({ hasText: text });
  await alert.waitFor();
}

/** Polls until the answer has `status` (revocation reaches every instance within 5 s). */
async function untilStatus(request: () => Promise<Response>, status: number, ms = 7000): Promise<number> {
  const end = Date.now() + ms;
  let last = 0;
  while (Date.now() < end) {
    last = (await request()).status;
    if (last === status) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  return last;
}
