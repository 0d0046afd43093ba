import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator } from 'playwright-core';
import { mintKey } from '../utils/app';
import { useBrowserSuite, withScreenshotOnFailure } from '../utils/browser';
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
 * The webhooks page after the console audit: a subscription's status follows its deliveries (a 410
 * disables it without a page reload), the deliveries fit 375 px and their attempts tables are
 * reachable by keyboard under unique names, attempt times read to the second, and a refused
 * subscription names the form's fields and takes the focus.
 */
describe('console webhooks (headless Chromium)', () => {
  // a delivery failing twice waits a minute for its third attempt: long enough to read its due time
  const suite = useBrowserSuite({ webhookAllowPrivate: true, webhookRetryDelaysMs: [200, 60_000] }, CONSOLE_TEST_ENV);
  let receiver: Server;
  let base = '';

  beforeAll(async () => {
    receiver = createServer((req, res) =>
      res.writeHead(req.url === '/gone' ? 410 : req.url === '/fail' ? 500 : 204).end(),
    );
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => receiver?.close());

  /** A fund (long name) with an admin and subscriptions to `paths` of the receiver. */
  async function fundWithHooks(paths: string[]) {
    const fund = await longNamedFund(suite.server.app);
    const admin = await person(suite.server.app, fund.slug, 'admin');
    const key = await mintKey(suite.server.app, { fund: fund.slug, scopes: ['webhooks:manage'], account: admin.email });
    for (const path of paths) {
      const res = await apiCall(suite.server.baseUrl, key.key, 'POST', '/api/v1/webhooks', {
        url: `${base}${path}`,
        eventTypes: ['nav.published'],
      });
      expect(res.status).toBe(201);
    }
    return { fund, admin };
  }

  /** Refreshes the card's deliveries until at least `count` show `status` (the worker answers within a second or two). */
  async function refreshUntil(card: Locator, status: string, count = 1): Promise<void> {
    const shown = () => card.locator('.proposal').filter({ hasText: status }).count();
    for (let i = 0; i < 50 && (await shown()) < count; i++) {
      await card.getByRole('button', { name: 'Refresh deliveries' }).click();
      await card
        .getByRole('status')
        .filter({ hasText: /^Loading deliveries/ })
        .waitFor({ state: 'detached' });
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await shown()).toBeGreaterThanOrEqual(count);
  }

  it('a 410 seen in Refresh deliveries disables the card at once (Re-enable offered), and again after Re-enable', async () => {
    const { admin } = await fundWithHooks(['/gone']);
    const page = await newPage(suite.browser, 1440);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-hook-gone', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      const card = page.getByTestId('webhook').filter({ hasText: `${base}/gone` });
      await card.getByRole('button', { name: 'Pause' }).waitFor();
      await card.getByRole('button', { name: 'Deliveries' }).click();
      for (const round of [1, 2]) {
        await card.getByRole('button', { name: 'Send test' }).click();
        await card.getByRole('status').filter({ hasText: 'queued' }).waitFor();
        await refreshUntil(card, 'cancelled', round);
        // no reload: the card's status follows the delivery's answer
        await card.getByText('disabled: the receiver answered 410 Gone').waitFor({ timeout: 5000 });
        expect(await card.getByRole('button', { name: 'Pause' }).count()).toBe(0);
        if (round === 1) {
          await lookAt(page, 'webhooks-410-disabled-1440');
          await card.getByRole('button', { name: 'Re-enable' }).click();
          await card.getByRole('button', { name: 'Pause' }).waitFor();
        }
      }
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('375 px: the bar, the cards and their deliveries fit; attempts tables are focusable regions with unique names; times to the second; a failing one says when it is tried next', async () => {
    const { admin } = await fundWithHooks(['/ok', '/also-ok', '/fail']);
    for (const width of [375, 1440]) {
      const page = await newPage(suite.browser, width);
      const errors = pageErrors(page);
      await withScreenshotOnFailure(page, `console-hooks-${width}`, async () => {
        await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
        for (const path of ['/ok', '/also-ok']) {
          const card = page.getByTestId('webhook').filter({ hasText: `${base}${path}` });
          await card.getByRole('button', { name: 'Send test' }).click();
          await card.getByRole('button', { name: 'Deliveries' }).click();
          await refreshUntil(card, 'succeeded');
        }
        const card = page.getByTestId('webhook').filter({ hasText: `${base}/ok` });
        const again = card.getByRole('button', { name: /^Send evt_\S+ again$/ }).first();
        const [cardBox, buttonBox] = [await card.boundingBox(), await again.boundingBox()];
        expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
        expect(await overflowsHorizontally(page)).toBe(false);
        // the attempts table of each delivery: a named region that takes focus (arrow keys scroll it)
        const region = card.getByRole('region', { name: new RegExp(`^Attempts of evt_\\S+ to ${base}/ok$`) }).first();
        await region.focus();
        expect(await focused(page)).toMatch(/^Attempts of evt_/);
        expect(await region.getByRole('cell', { name: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/ }).count()).toBe(1);
        expect(await page.getByRole('region', { name: `Deliveries to ${base}/ok` }).count()).toBe(1);
        expect(await page.getByRole('region', { name: `Deliveries to ${base}/also-ok` }).count()).toBe(1);
        if (width === 375) {
          // a delivery pending after a failed attempt: when the next one is due, to the second
          const failing = page.getByTestId('webhook').filter({ hasText: `${base}/fail` });
          await failing.getByRole('button', { name: 'Send test' }).click();
          await failing.getByRole('button', { name: 'Deliveries' }).click();
          await refreshUntil(failing, 'Next attempt due');
          expect(await failing.locator('.proposal').first().textContent()).toMatch(
            /pending.*Next attempt due \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
          );
          expect(await overflowsHorizontally(page)).toBe(false);
        }
        expect(await a11y(page)).toEqual([]);
        await lookAt(page, `webhooks-deliveries-${width}`);
      });
      expect(errors()).toEqual([]);
      await page.context().close();
    }
  });

  it('a refused subscription: the summary takes focus and names the fields by their labels, once each, linked to them', async () => {
    const { admin } = await fundWithHooks([]);
    for (const width of [375, 1440]) {
      const page = await newPage(suite.browser, width);
      const errors = pageErrors(page, [401, 400]);
      await withScreenshotOnFailure(page, `console-hook-refused-${width}`, async () => {
        await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
        await page.getByRole('checkbox', { name: 'proposal.approved' }).uncheck();
        const submit = page.getByRole('button', { name: 'Create subscription' });
        await submit.click();
        const summary = page.getByRole('alert').filter({ hasText: 'The subscription was not created.' });
        await summary.waitFor();
        expect(await settledValue(() => focused(page), await summary.textContent())).toBe(await summary.textContent());
        const items = (await summary.locator('li').allTextContents()).map((t) => t.trim());
        expect(items).toEqual([
          'Endpoint URL: must be an http(s) URL of 1 to 2048 characters',
          'Event types: must name at least one event type',
        ]);
        await summary.getByRole('link', { name: 'Endpoint URL' }).click();
        expect(await focused(page)).toBe('Endpoint URL');
        await lookAt(page, `webhooks-refused-${width}`);
        expect(await overflowsHorizontally(page)).toBe(false);
        expect(await a11y(page)).toEqual([]);
      });
      expect(errors()).toEqual([]);
      await page.context().close();
    }
  });
});
