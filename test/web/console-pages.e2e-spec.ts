import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { createFund, dbOf, uniqueName } from '../utils/app';
import { screenshot, useBrowserSuite, withScreenshotOnFailure } from '../utils/browser';
import { seedBooks, type Books } from '../proposals/books-fixture';
import {
  a11y,
  newPage,
  overflowsHorizontally,
  pageErrors,
  PASSWORD,
  person,
  signIn,
  type Person,
  CONSOLE_TEST_ENV,
} from './console-helpers';
import { UsersRepository } from '../../src/identity/users.repository';
import { KeysService } from '../../src/keys/keys.service';
import { base32Decode, hotp } from '../../src/identity/totp';

/**
 * Every console page at phone width (375 px) with axe-core, and the flows that start on them:
 * invitation → a new person with a fund, public sign-up → calculator keys, webhooks with a
 * one-time secret and delivered test events, and NAV publication.
 */
const PAGES: [string, string | RegExp][] = [
  ['/console/keys', /API keys/],
  ['/console/usage', 'Usage'],
  ['/console/activity', 'Activity'],
  ['/console/webhooks', 'Webhooks'],
  ['/console/proposals', 'Proposals'],
  ['/console/nav-runs', 'NAV runs'],
  ['/console/members', /Members of/],
  ['/console/account', 'Account'],
];

describe('console pages (headless Chromium, 375 px)', () => {
  const suite = useBrowserSuite({ webhookAllowPrivate: true, webhookRetryDelaysMs: [200, 200] }, CONSOLE_TEST_ENV);
  let fund: { id: string; slug: string };
  let books: Books;
  let admin: Person;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    fund = await createFund(suite.server.app);
    books = await seedBooks(suite.server.app, fund.id);
    admin = await person(suite.server.app, fund.slug, 'admin');
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    receiver?.close();
  });

  async function settle(page: Page, heading: string | RegExp): Promise<void> {
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Loading/ })
      .first()
      .waitFor({ state: 'detached' });
  }

  it('every signed-in page: axe-core clean, fits 375 px, no console errors', async () => {
    const page = await newPage(suite.browser, 375);
    const errors = pageErrors(page);
    await signIn(page, suite.server.baseUrl, admin.email);
    for (const [path, heading] of PAGES) {
      await withScreenshotOnFailure(page, `console-375${path}`, async () => {
        await page.goto(`${suite.server.baseUrl}${path}`);
        await settle(page, heading);
        expect({ path, violations: await a11y(page) }).toEqual({ path, violations: [] });
        expect({ path, overflow: await overflowsHorizontally(page) }).toEqual({ path, overflow: false });
        await screenshot(page, `console-375${path}`);
      });
    }
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('an admin invites a person; the link opens a sign-up for that fund, and the new viewer mints a read key', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    const inviteeEmail = `${uniqueName('invitee')}@console.test`;
    let link = '';
    await withScreenshotOnFailure(page, 'console-invite', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/members');
      await page.getByLabel('Email').fill(inviteeEmail);
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      link = (await page.getByTestId('invite-link').textContent())!.trim();
      expect(link).toMatch(/\/console\/invit(e|ations)\/[A-Za-z0-9_-]+$/);
      await page.getByText(`${inviteeEmail} as viewer`).waitFor();
    });
    expect(errors()).toEqual([]);

    const guest = await newPage(suite.browser, 375);
    const guestErrors = pageErrors(guest);
    await withScreenshotOnFailure(guest, 'console-invite-accept', async () => {
      await guest.goto(new URL(new URL(link).pathname, suite.server.baseUrl).toString());
      await guest.getByText(`as viewer, with the email ${inviteeEmail}`, { exact: false }).waitFor();
      expect(await a11y(guest)).toEqual([]);
      expect(await overflowsHorizontally(guest)).toBe(false);
      await screenshot(guest, 'console-375-invite');
      await guest.getByLabel('Display name').fill('Ivy Invitee');
      await guest.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await guest.getByRole('button', { name: 'Accept invitation' }).click();
      await guest.waitForURL(/\/console\/keys$/);
      expect(await guest.getByLabel('Fund', { exact: true }).inputValue()).toBe(fund.slug);
      // A viewer is offered fund:read only.
      expect(await guest.getByRole('checkbox').count()).toBe(1);
      await guest.getByLabel('Key name').fill('viewer key');
      await guest.getByRole('button', { name: 'Create key' }).click();
      const secret = (await guest.getByTestId('key-secret').textContent())!.trim();
      const me = await fetch(`${suite.server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
      expect(await me.json()).toMatchObject({ scopes: ['fund:read'], role: 'viewer', fund: { slug: fund.slug } });
    });
    expect(guestErrors()).toEqual([]);
    // The same link a second time: a clear refusal in the page.
    const again = await newPage(suite.browser);
    const againErrors = pageErrors(again, [401, 404, 409, 410]);
    await again.goto(new URL(new URL(link).pathname, suite.server.baseUrl).toString());
    await again.getByRole('alert').filter({ hasText: 'This invitation cannot be used.' }).waitFor();
    expect(againErrors()).toEqual([]);
    await Promise.all([page.context().close(), guest.context().close(), again.context().close()]);
  });

  it('an admin cancels a pending invitation from the members page; its link stops working', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    const email = `${uniqueName('cancelled')}@console.test`;
    await withScreenshotOnFailure(page, 'console-invitation-cancel', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/members');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Create invitation' }).click();
      const link = (await page.getByTestId('invite-link').textContent())!.trim();
      await page.getByText(`${email} as viewer`).waitFor();
      await screenshot(page, 'console-members-pending');
      await page.getByRole('button', { name: `Cancel the invitation for ${email}` }).click();
      await page.getByText(`The invitation for ${email} is cancelled; its link no longer works.`).waitFor();
      await page.getByText(`${email} as viewer`).waitFor({ state: 'detached' }); // the list reloads after the notice
      const token = new URL(link).pathname.split('/').pop()!;
      const preview = await fetch(`${suite.server.baseUrl}/api/v1/console/invitations/${token}`);
      expect(preview.status).toBe(410);
      // removing a member says what the removal ended
      const member = await person(suite.server.app, fund.slug, 'analyst');
      await page.reload();
      await page.getByRole('button', { name: `Remove ${member.email}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
      await page
        .getByText(`${member.email} was removed; 0 key(s) they held or minted on this fund are revoked.`)
        .waitFor();
      await screenshot(page, 'console-members-removed');
      // a service key names the person who minted it on the keys page
      const app = suite.server.app;
      await app.get(UsersRepository).createServiceAccount(fund.id, `${fund.slug}/reporting-bot`);
      const minter = await app.get(KeysService).minterForPerson({ email: admin.email }, fund.slug);
      await app.get(KeysService).mint(minter, {
        name: 'Reporting bot',
        account: 'reporting-bot',
        scopes: ['fund:read'],
        plan: 'free',
        expiresAt: null,
      });
      await page.goto(`${suite.server.baseUrl}/console/keys`);
      await page.getByText(`service: ${fund.slug}/reporting-bot, minted by`).waitFor();
      await screenshot(page, 'console-keys-service');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('public sign-up gives a person with no fund calculator-only keys', async () => {
    const page = await newPage(suite.browser, 375);
    const errors = pageErrors(page, [400, 401]);
    await withScreenshotOnFailure(page, 'console-sign-up', async () => {
      await page.goto(`${suite.server.baseUrl}/console/sign-up`);
      // the load event can come before React has drawn the form: axe would check an empty page
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      expect(await a11y(page)).toEqual([]);
      await page.getByLabel('Email').fill(`${uniqueName('dev')}@console.test`);
      await page.getByLabel('Display name').fill('Dee Veloper');
      // A refused field: its message sits next to it (aria-describedby) and in the message region.
      const password = page.getByLabel('Password', { exact: true });
      await password.fill('too short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').filter({ hasText: 'Could not create the account.' }).waitFor();
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await password.getAttribute('aria-describedby'))!.split(' ');
      await expect(page.locator(`[id="${describedBy[describedBy.length - 1]}"]`).textContent()).resolves.toMatch(
        /at least 12 characters/,
      );
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-375-sign-up');
      await password.fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: /calculator keys/ }).waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      await page.getByLabel('Key name').fill('calc key');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('key-secret').textContent())!.trim();
      const me = await (
        await fetch(`${suite.server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } })
      ).json();
      expect(me).toMatchObject({ fund: null, scopes: [], plan: 'free' });
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('webhooks: the secret is shown once, a test event is delivered and its attempt listed', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-webhooks', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('checkbox', { name: 'nav.published' }).check();
      await page.getByRole('button', { name: 'Create subscription' }).click();
      await expect(page.getByTestId('webhook-secret').textContent()).resolves.toMatch(/^whsec_/);
      const card = page.getByTestId('webhook').filter({ hasText: url });
      await card.getByRole('button', { name: 'Send test' }).click();
      await card.getByRole('status').filter({ hasText: 'Test event' }).waitFor();
      await card.getByRole('button', { name: 'Deliveries' }).click();
      for (let i = 0; i < 20 && !(await card.getByText('succeeded').count()); i++) {
        await new Promise((r) => setTimeout(r, 300));
        await card.getByRole('button', { name: 'Refresh deliveries' }).click();
      }
      await card.getByText('succeeded').waitFor();
      expect(received.some((b) => b.includes('webhook.test'))).toBe(true);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-webhooks');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('NAV runs: a complete run is published after confirmation, once', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-nav-runs', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/nav-runs');
      const row = page.getByTestId('nav-run-row').filter({ hasText: '2025-03-31' });
      await expect(row.textContent()).resolves.toContain('1,234,567.89');
      await row.getByRole('button', { name: 'Publish the NAV of 2025-03-31' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Publish NAV' }).click();
      await page.getByRole('status').filter({ hasText: 'Published the NAV of 2025-03-31' }).waitFor();
      await row.getByRole('button').waitFor({ state: 'detached' });
      const [run] = await dbOf(suite.server.app).query(`SELECT published_at FROM nav_runs WHERE id = $1`, [
        books.completeRunId,
      ]);
      expect(run.published_at).not.toBeNull();
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('account: two-factor set-up asks for the password; a wrong one is a field error, not the end of the session', async () => {
    const someone = await person(suite.server.app, fund.slug, 'viewer');
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-totp', async () => {
      await signIn(page, suite.server.baseUrl, someone.email, '/console/account');
      await settle(page, 'Account');
      const setUp = page.getByRole('form', { name: 'Set up two-factor' });
      await setUp.getByLabel('Your password').fill('not the password');
      await setUp.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await setUp.getByText('is not correct').waitFor();
      expect(page.url()).toMatch(/\/console\/account$/); // still signed in (a 401 invalid_credentials is the form's answer)
      await screenshot(page, 'console-totp-wrong-password');
      await setUp.getByLabel('Your password').fill(PASSWORD);
      await setUp.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      const code = hotp(base32Decode(secret), Math.floor(Date.now() / 30_000));
      await page.getByLabel('Code from the app').fill(code);
      await page.getByRole('button', { name: 'Turn on two-factor' }).click();
      await page.getByTestId('recovery-codes').waitFor();
      expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-totp-on');
      await page.getByRole('button', { name: 'I have stored them' }).click();
      await page.getByRole('form', { name: 'Turn off two-factor' }).getByLabel('Your password').waitFor();
      await screenshot(page, 'console-totp-off-form');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });
});
