import { dbOf, mintKey } from '../utils/app';
import { useBrowserSuite, withScreenshotOnFailure } from '../utils/browser';
import { UsersRepository } from '../../src/identity/users.repository';
import {
  a11y,
  apiCall,
  CONSOLE_TEST_ENV,
  focused,
  longNamedFund,
  lookAt,
  newPage,
  overflowsHorizontally,
  pageErrors,
  person,
  signIn,
} from './console-helpers';
import { settledValue } from './wait';

/**
 * The keys page after the console audit: it fits 375 px with a long fund name, a refused key names
 * the form's fields once each and takes the focus, a fund key needs a scope (the page says so before
 * sending, the API refuses it), focus lands on the message after a revoke, and the shared demo key's
 * row says what is true of it.
 */
describe('console keys (headless Chromium)', () => {
  const suite = useBrowserSuite({}, CONSOLE_TEST_ENV);

  it('the API refuses a key bound to a fund with no scope (400 naming scopes), and stores nothing', async () => {
    const fund = await longNamedFund(suite.server.app);
    const admin = await mintKey(suite.server.app, { fund: fund.slug, scopes: ['keys:manage', 'fund:read'] });
    const refused = await apiCall(suite.server.baseUrl, admin.key, 'POST', '/api/v1/admin/keys', {
      name: 'nothing',
      scopes: [],
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'invalid_parameter', errors: [{ field: 'scopes' }] });
    const count = await dbOf(suite.server.app).query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'nothing'`);
    expect(count[0].n).toBe(0);
  });

  it('a refused key: the summary takes focus, names the fields by their labels once each, links them; no scope is said before sending', async () => {
    const fund = await longNamedFund(suite.server.app);
    const admin = await person(suite.server.app, fund.slug, 'admin');
    for (const width of [375, 1440]) {
      const page = await newPage(suite.browser, width);
      const errors = pageErrors(page, [401, 400]);
      await withScreenshotOnFailure(page, `console-keys-refused-${width}`, async () => {
        await signIn(page, suite.server.baseUrl, admin.email, '/console/keys');
        expect(await overflowsHorizontally(page)).toBe(false); // the fund switcher shrinks
        await lookAt(page, `keys-top-${width}`);
        const summary = page.getByRole('alert').filter({ hasText: 'The key was not created.' });
        await page.getByLabel('Key name').fill('   ');
        await page.getByRole('button', { name: 'Create key' }).click();
        await summary.waitFor();
        const text = (await summary.textContent()) ?? '';
        expect(await settledValue(() => focused(page), text)).toBe(text);
        expect((await summary.locator('li').allTextContents()).map((t) => t.trim())).toEqual([
          'Key name: must not be blank',
        ]);
        await summary.getByRole('link', { name: 'Key name' }).click();
        expect(await focused(page)).toBe('Key name');
        await lookAt(page, `keys-refused-${width}`);

        // no scope on a fund key: said at once, and the form does not send it
        await page.getByLabel('Key name').fill('No scopes');
        await page.getByRole('checkbox', { name: 'fund:read' }).uncheck();
        await page.getByText('tick at least one: a key bound to this fund with no scope could do nothing').waitFor();
        await page.getByRole('button', { name: 'Create key' }).click();
        expect((await summary.locator('li').allTextContents()).map((t) => t.trim())).toEqual([
          expect.stringMatching(/^Scopes: tick at least one/),
        ]);
        expect(await settledValue(() => focused(page), (await summary.textContent()) ?? '')).toBe(
          await summary.textContent(),
        );
        expect(await page.getByTestId('key-row').filter({ hasText: 'No scopes' }).count()).toBe(0);
        await lookAt(page, `keys-no-scope-${width}`);
        expect(await overflowsHorizontally(page)).toBe(false);
        expect(await a11y(page)).toEqual([]);
      });
      expect(errors()).toEqual([]);
      await page.context().close();
    }
  });

  it('after Revoke key, focus is on the message (the Revoke button is gone); the table has a Created column', async () => {
    const fund = await longNamedFund(suite.server.app);
    const admin = await person(suite.server.app, fund.slug, 'admin');
    const page = await newPage(suite.browser, 1440);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-keys-revoke-focus', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/keys');
      await page.getByLabel('Key name').fill('Short-lived');
      await page.getByRole('button', { name: 'Create key' }).click();
      const row = page.getByTestId('key-row').filter({ hasText: 'Short-lived' });
      await row.waitFor();
      expect(await page.getByRole('columnheader', { name: 'Created' }).count()).toBe(1);
      await row.getByRole('button', { name: /Revoke/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
      await row.getByText('revoked').waitFor();
      expect(await settledValue(() => focused(page).then((f) => f.startsWith('Revoked Short-lived')), true)).toBe(true);
      await lookAt(page, 'keys-revoked-1440');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it("the shared demo key's row says it is managed by seed:demo and cannot be revoked or replaced here (no Owner offers it)", async () => {
    const fund = await longNamedFund(suite.server.app);
    const admin = await person(suite.server.app, fund.slug, 'admin');
    const app = suite.server.app;
    const demoIdentity = `${fund.slug}/demo`;
    await app.get(UsersRepository).createServiceAccount(fund.id, demoIdentity);
    const demo = await mintKey(app, { fund: fund.slug, scopes: ['fund:read'], account: admin.email });
    // as seed:demo leaves it: the public service identity, no minter recorded
    await dbOf(app).query(
      `UPDATE api_keys SET account_id = (SELECT id FROM accounts WHERE name = $1), created_by_user_id = NULL,
         created_by_key_id = NULL, is_demo = true, name = 'Shared demo key' WHERE id = $2`,
      [demoIdentity, demo.id],
    );
    for (const width of [375, 1440]) {
      const page = await newPage(suite.browser, width);
      const errors = pageErrors(page);
      await withScreenshotOnFailure(page, `console-keys-demo-${width}`, async () => {
        await signIn(page, suite.server.baseUrl, admin.email, '/console/keys');
        const row = page.getByTestId('key-row').filter({ hasText: 'Shared demo key' });
        await row.waitFor();
        const text = (await row.textContent()) ?? '';
        expect(text).toContain('managed by seed:demo; it cannot be revoked or replaced here');
        expect(text).not.toContain('replace it (Create a key, Owner: this service)');
        expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
        expect(await page.getByLabel('Owner').count()).toBe(0); // its identity is never offered
        await row.scrollIntoViewIfNeeded();
        await lookAt(page, `keys-demo-${width}`);
        expect(await overflowsHorizontally(page)).toBe(false);
      });
      expect(errors()).toEqual([]);
      await page.context().close();
    }
  });
});
