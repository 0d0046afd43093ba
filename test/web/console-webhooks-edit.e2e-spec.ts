import { mintKey } from '../utils/app';
import { useBrowserSuite } from '../utils/browser';
import {
  a11y,
  atWidths,
  apiCall,
  colourOf,
  CONSOLE_TEST_ENV,
  ERROR_RED,
  focused,
  longNamedFund,
  lookAt,
  overflowsHorizontally,
  person,
  signIn,
} from './console-helpers';
import { settledValue } from './wait';

const RECEIVER = 'http://127.0.0.1:9';

/**
 * The second console pass on webhooks: a subscription's URL and event types edited in its card
 * (Create's labels, checks and error summary; the secret kept; focus back on Edit), the keyboard
 * kept after a delete, and group errors (Event types, Scopes) drawn red as every field error is.
 */
describe('console webhooks: edit, delete focus, group errors (headless Chromium)', () => {
  const suite = useBrowserSuite({ webhookAllowPrivate: true }, CONSOLE_TEST_ENV);

  /** A fund (long name) with an admin, their key, and subscriptions to `paths` of RECEIVER. */
  async function fundWithHooks(paths: string[]) {
    const fund = await longNamedFund(suite.server.app);
    const admin = await person(suite.server.app, fund.slug, 'admin');
    const key = await mintKey(suite.server.app, { fund: fund.slug, scopes: ['webhooks:manage'], account: admin.email });
    const ids: string[] = [];
    for (const path of paths) {
      const res = await apiCall(suite.server.baseUrl, key.key, 'POST', '/api/v1/webhooks', {
        url: `${RECEIVER}${path}`,
        eventTypes: ['nav.published'],
      });
      expect(res.status).toBe(201);
      ids.push(String(res.json!.id));
    }
    return { admin, key: key.key, ids };
  }

  it('Edit changes the URL and event types in the card: refused like Create, saved without a new secret, focus back on Edit', async () => {
    await atWidths(suite.browser, 'console-hook-edit', [401], async (page, width) => {
      const { admin, key, ids } = await fundWithHooks(['/old']);
      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      const card = page.getByTestId('webhook');
      await card.getByRole('button', { name: 'Edit' }).click();
      const form = card.getByRole('form', { name: `Edit the subscription to ${RECEIVER}/old` });
      await form.waitFor();
      expect(await settledValue(() => focused(page), 'Endpoint URL')).toBe('Endpoint URL');
      expect(await card.getByRole('button', { name: 'Send test' }).count()).toBe(0); // the card's actions wait
      expect(await form.getByLabel('Endpoint URL').inputValue()).toBe(`${RECEIVER}/old`);
      expect(await form.getByRole('checkbox', { name: 'nav.published' }).isChecked()).toBe(true);
      await lookAt(page, `webhooks-edit-${width}`);

      // Cancel: nothing changes, the keyboard is back on Edit
      await form.getByLabel('Endpoint URL').fill(`${RECEIVER}/never`);
      await form.getByRole('button', { name: 'Cancel' }).click();
      expect(await settledValue(() => focused(page), 'Edit')).toBe('Edit');
      expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe(`${RECEIVER}/old`);

      // refused as Create is: the summary takes focus, names the fields by label, the group error is red
      await card.getByRole('button', { name: 'Edit' }).click();
      await form.getByRole('checkbox', { name: 'nav.published' }).uncheck();
      await form.getByRole('button', { name: 'Save' }).click();
      const summary = form.getByRole('alert').filter({ hasText: 'The subscription was not saved.' });
      await summary.waitFor();
      const text = (await summary.textContent()) ?? '';
      expect(await settledValue(() => focused(page), text)).toBe(text);
      expect((await summary.locator('li').allTextContents()).map((t) => t.trim())).toEqual([
        'Event types: must name at least one event type',
      ]);
      expect(await colourOf(form.locator('fieldset .field-error'))).toBe(ERROR_RED);
      await summary.getByRole('link', { name: 'Event types' }).click();
      expect(await focused(page)).toBe('nav.published');
      await lookAt(page, `webhooks-edit-refused-${width}`);
      expect(await a11y(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);

      await form.getByLabel('Endpoint URL').fill(`${RECEIVER}/moved`);
      await form.getByRole('checkbox', { name: 'proposal.rejected' }).check();
      await form.getByRole('checkbox', { name: 'report.distributed' }).check();
      await form.getByRole('button', { name: 'Save' }).click();
      await card.getByRole('heading', { name: `${RECEIVER}/moved` }).waitFor();
      expect(await settledValue(() => focused(page), 'Edit')).toBe('Edit');
      await card.getByText('proposal.rejected, report.distributed', { exact: true }).waitFor();
      await card.getByRole('status').filter({ hasText: 'The signing secret is unchanged.' }).waitFor();
      expect(await card.getByTestId('webhook-secret').count()).toBe(0);
      await lookAt(page, `webhooks-edited-${width}`);
      expect(await a11y(page)).toEqual([]);

      const stored = await apiCall(suite.server.baseUrl, key, 'GET', `/api/v1/webhooks/${ids[0]}`);
      expect(stored.json).toMatchObject({
        url: `${RECEIVER}/moved`,
        eventTypes: ['proposal.rejected', 'report.distributed'],
        previousSecretExpiresAt: null, // no rotation
      });
    });
  });

  it('after a delete the keyboard is on the Subscriptions heading, which says what was deleted', async () => {
    await atWidths(suite.browser, 'console-hook-delete-focus', [401], async (page, width) => {
      const { admin } = await fundWithHooks(['/first', '/second']);
      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      const card = page.getByTestId('webhook').filter({ hasText: `${RECEIVER}/first` });
      await card.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete subscription' }).click();
      await card.waitFor({ state: 'detached' });
      expect(await settledValue(() => focused(page), 'Subscriptions')).toBe('Subscriptions');
      await page
        .getByRole('status')
        .filter({ hasText: `The subscription to ${RECEIVER}/first was deleted.` })
        .waitFor();
      expect(await page.getByTestId('webhook').count()).toBe(1);
      await lookAt(page, `webhooks-deleted-${width}`);
      expect(await a11y(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);
    });
  });

  it('a group error (Event types on Create, Scopes on a key) is red like every field error', async () => {
    const { admin } = await fundWithHooks([]);
    await atWidths(suite.browser, 'console-group-errors', [401, 400], async (page, width) => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      await page.getByRole('checkbox', { name: 'proposal.approved' }).uncheck();
      await page.getByRole('button', { name: 'Create subscription' }).click();
      const typesError = page.locator('fieldset .field-error');
      await typesError.waitFor();
      expect(await typesError.textContent()).toBe('must name at least one event type');
      expect(await colourOf(typesError)).toBe(ERROR_RED);
      expect(await colourOf(page.locator('.field .field-error').first())).toBe(ERROR_RED); // the URL's, for reference
      await lookAt(page, `webhooks-create-types-red-${width}`);

      await page.getByRole('link', { name: 'Keys' }).click();
      await page.getByRole('checkbox', { name: 'fund:read' }).uncheck();
      const scopesError = page.locator('fieldset .field-error');
      await scopesError.waitFor();
      expect(await scopesError.textContent()).toMatch(/^tick at least one/);
      expect(await colourOf(scopesError)).toBe(ERROR_RED);
      await lookAt(page, `keys-scopes-red-${width}`);
    });
  });
});
