import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { bootApp, createFund, dbOf, ensurePerson, mintKey, uniqueName, type TestApp } from '../utils/app';
import {
  launchBrowser,
  screenshot,
  settledText,
  useBrowserSuite,
  withScreenshotOnFailure,
  type WebServer,
} from '../utils/browser';
import { freePort, LocalClientServer } from '../oauth/oauth-client';
import { seedBooks } from '../proposals/books-fixture';
import { base32Decode, hotp } from '../../src/identity/totp';
import { UsersRepository } from '../../src/identity/users.repository';
import { navInputsLockKey } from '../../src/database/sql-fragments';
import {
  a11y,
  apiCall,
  CONSOLE_TEST_ENV,
  newPage,
  pageErrors,
  PASSWORD,
  person,
  signIn,
  type Person,
} from './console-helpers';
import { settledValue } from './wait';

/**
 * The console audit's findings, each in the browser: invitations for someone else, the proposals
 * queue and history, the session after one's own role changes or a step-up in another tab, keys,
 * webhook delivery pages, OAuth consent, sign-up availability and accessibility details.
 */

/** The label of the focused control (its <label>, else aria-label), or the focused element's text. */
function focusedLabel(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(
    `(() => { const e = document.activeElement; if (!e) return null;
       return e.labels?.[0]?.textContent ?? e.getAttribute('aria-label') ?? e.textContent; })()`,
  );
}

/** Turns on two-factor on the account page (open in `page`); answers its secret and recovery codes. */
async function enrolTotp(page: Page): Promise<{ secret: string; recovery: string[] }> {
  const setUp = page.getByRole('form', { name: 'Set up two-factor' });
  await setUp.getByLabel('Your password').fill(PASSWORD);
  await setUp.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(hotp(base32Decode(secret), Math.floor(Date.now() / 30_000)));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await page.getByTestId('recovery-codes').locator('li').first().waitFor();
  const recovery = (await page.getByTestId('recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
  await page.getByRole('button', { name: 'I have stored them' }).click();
  return { secret, recovery };
}

const api = (server: WebServer, key: string, method: string, path: string, body?: unknown) =>
  apiCall(server.baseUrl, key, method, path, body);

/** sRGB contrast ratio of a CSS rgb()/rgba() colour against white. */
function contrastOnWhite(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['255', '255', '255']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (l + 0.05);
}

describe('console audit fixes (headless Chromium)', () => {
  const suite = useBrowserSuite({ webhookAllowPrivate: true }, CONSOLE_TEST_ENV);
  let fund: { id: string; slug: string };
  let admin: Person;

  beforeAll(async () => {
    fund = await createFund(suite.server.app);
    await seedBooks(suite.server.app, fund.id);
    admin = await person(suite.server.app, fund.slug, 'admin');
  });

  it('an invitation opened while signed in as someone else names the invitee and offers "Sign out, then accept"', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    const inviteeEmail = `${uniqueName('invitee')}@console.test`;
    await withScreenshotOnFailure(page, 'console-invite-other', async () => {
      await signIn(page, suite.server.baseUrl, admin.email, '/console/members');
      await page.getByLabel('Email').fill(inviteeEmail);
      await page.getByRole('button', { name: 'Create invitation' }).click();
      const link = (await page.getByTestId('invite-link').textContent())!.trim();
      await page.goto(new URL(new URL(link).pathname, suite.server.baseUrl).toString());
      const notice = page.getByTestId('invite-other-person');
      expect(await settledText(notice, /This invitation is for/)).toContain(
        `This invitation is for ${inviteeEmail}, and you are signed in as ${admin.email}`,
      );
      expect(await page.getByLabel('Display name').count()).toBe(0); // no form the server would refuse (403)
      expect(await page.getByText('creates a separate account').count()).toBe(0);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-invite-other-person');
      await page.getByRole('button', { name: 'Sign out, then accept' }).click();
      await page.getByText(`You are signed out. Accept the invitation as ${inviteeEmail} below.`).waitFor();
      await page.getByLabel('Display name').fill('Otto Other');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await screenshot(page, 'console-invite-after-sign-out');
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await page.waitForURL(/\/console\/keys$/);
      expect(await page.locator('.signed-in-as').textContent()).toBe('Otto Other');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('proposals: the decided history uses the status filter, the pending queue pages, a 409 reloads it, the stager is named', async () => {
    const own = await createFund(suite.server.app);
    await seedBooks(suite.server.app, own.id);
    const manager = await person(suite.server.app, own.slug, 'manager');
    const stager = await mintKey(suite.server.app, {
      account: `Stella Stager ${uniqueName('s')}`,
      fund: own.slug,
      scopes: ['fund:read', 'fund:propose'],
    });
    const reviewer = await mintKey(suite.server.app, { fund: own.slug, scopes: ['proposals:review'] });
    const stage = async (description: string) => {
      const res = await api(suite.server, stager.key, 'POST', '/api/v1/fund/proposals/journal-entry', {
        entryDate: '2025-03-31',
        description,
        lines: [
          { accountCode: '5500', debit: '10.00' },
          { accountCode: '5600', credit: '10.00' },
        ],
      });
      expect(res.status).toBe(201);
      return res.json!.id as string;
    };
    const oldest = await stage('decided long ago');
    expect(
      (await api(suite.server, reviewer.key, 'POST', `/api/v1/admin/proposals/${oldest}/reject`, { reason: 'dup' }))
        .status,
    ).toBe(200);
    const template = await stage('pending 0');
    // 50 more, newer (the propose route's rate limit would stop a loop of API calls)
    await dbOf(suite.server.app).query(
      `INSERT INTO proposals (id, fund_id, kind, status, payload, proposed_by_account_id, proposed_by_key_id, created_at)
       SELECT gen_random_uuid(), fund_id, kind, 'pending', payload, proposed_by_account_id, proposed_by_key_id,
              clock_timestamp() + make_interval(secs => n)
         FROM proposals, generate_series(1, 50) AS n WHERE id = $1`,
      [template],
    );

    const page = await newPage(suite.browser);
    const errors = pageErrors(page, [401, 409]);
    await withScreenshotOnFailure(page, 'console-proposals-paged', async () => {
      await signIn(page, suite.server.baseUrl, manager.email, '/console/proposals');
      const decided = page.getByTestId('decided-row');
      await decided.first().waitFor();
      expect(await decided.count()).toBe(1);
      expect(await decided.first().textContent()).toMatch(/Stella Stager.*rejected|rejected.*Stella Stager/);
      const rows = page.getByTestId('proposal-row');
      await rows.nth(49).waitFor();
      expect(await rows.count()).toBe(50);
      expect(await rows.first().textContent()).toContain('by Stella Stager');
      await page.getByRole('button', { name: 'Show more pending' }).click();
      await page.getByRole('button', { name: 'Show more pending' }).waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(51);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-proposals-paged');

      // decided elsewhere while the dialog is open: 409, and the queue is reloaded without it
      const first = rows.first();
      const id = await first.getAttribute('aria-labelledby');
      await first.getByRole('button', { name: 'Approve' }).click();
      const proposalId = id!.replace(/^proposal-/, '');
      expect(
        (await api(suite.server, reviewer.key, 'POST', `/api/v1/admin/proposals/${proposalId}/reject`, { reason: 'x' }))
          .status,
      ).toBe(200);
      await page.getByRole('dialog').getByRole('button', { name: 'Approve proposal' }).click();
      await page.getByRole('dialog').getByText('It was decided elsewhere').waitFor();
      await page.locator(`[aria-labelledby="${id}"]`).waitFor({ state: 'detached' });
      await screenshot(page, 'console-proposals-409');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect(await rows.count()).toBe(50);
      await decided.nth(1).waitFor();
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('members: an admin who demotes or removes themselves gets a refreshed session (pages and funds)', async () => {
    const own = await createFund(suite.server.app);
    const [first, second] = [
      await person(suite.server.app, own.slug, 'admin'),
      await person(suite.server.app, own.slug, 'admin'),
    ];
    await person(suite.server.app, own.slug, 'admin'); // the fund keeps an admin when the second leaves
    await ensurePerson(suite.server.app, second.email, 'developer', fund.slug, 'viewer');
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-members-self', async () => {
      await signIn(page, suite.server.baseUrl, first.email, '/console/members');
      const row = page.getByTestId('member-row').filter({ hasText: '(you)' });
      await row.getByRole('combobox').selectOption('viewer');
      await row.getByRole('button', { name: 'Save role' }).click();
      await page.getByRole('link', { name: 'Members' }).waitFor({ state: 'detached' });
      await page.getByText('Your role on this fund (viewer) does not include the admin role').waitFor();
      // the page that made the change is gone: the message outlives it
      await page
        .getByRole('status')
        .filter({ hasText: `You are now viewer on Fund ${own.slug}.` })
        .waitFor({ timeout: 5000 });
      await screenshot(page, 'console-members-self-demoted');
      await page.context().clearCookies();

      await signIn(page, suite.server.baseUrl, second.email, '/console/members');
      await page.getByLabel('Fund', { exact: true }).selectOption(own.slug);
      await page.getByRole('button', { name: `Remove ${second.email}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
      await page
        .getByLabel('Fund', { exact: true })
        .locator(`option[value="${own.slug}"]`)
        .waitFor({ state: 'detached' });
      expect(await page.getByLabel('Fund', { exact: true }).inputValue()).toBe(fund.slug);
      await page
        .getByRole('status')
        .filter({ hasText: `You left Fund ${own.slug};` })
        .waitFor({ timeout: 5000 });
      await screenshot(page, 'console-members-self-removed');
      // it belongs to where it was said: another page does not repeat it
      await page.getByRole('link', { name: 'Keys' }).click();
      await page.getByRole('heading', { name: /API keys/ }).waitFor();
      expect(await page.getByText('You left').count()).toBe(0);
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('a session refresh (TOTP set-up) keeps the fund of this tab although another tab chose another; sign-in then focuses the code field', async () => {
    const other = await createFund(suite.server.app);
    const someone = await person(suite.server.app, fund.slug, 'analyst');
    await ensurePerson(suite.server.app, someone.email, 'developer', other.slug, 'viewer');
    const tabA = await newPage(suite.browser);
    const errors = pageErrors(tabA);
    await withScreenshotOnFailure(tabA, 'console-fund-per-tab', async () => {
      await signIn(tabA, suite.server.baseUrl, someone.email, '/console/keys');
      await tabA.getByLabel('Fund', { exact: true }).selectOption(fund.slug);
      const tabB = await tabA.context().newPage();
      await tabB.goto(`${suite.server.baseUrl}/console/keys`);
      await tabB.getByLabel('Fund', { exact: true }).selectOption(other.slug);
      await tabB.close();
      await tabA.getByRole('link', { name: 'Account' }).click();
      const { secret } = await enrolTotp(tabA); // refreshes the session (no page load)
      await tabA.getByRole('form', { name: 'Turn off two-factor' }).waitFor();
      expect(await tabA.getByLabel('Fund', { exact: true }).inputValue()).toBe(fund.slug);

      const fresh = await newPage(suite.browser);
      await fresh.goto(`${suite.server.baseUrl}/console/sign-in`);
      await fresh.getByLabel('Email').fill(someone.email);
      await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.getByLabel('Authentication code').waitFor();
      expect(await settledValue(() => focusedLabel(fresh), 'Authentication code')).toBe('Authentication code');
      await fresh.keyboard.type(hotp(base32Decode(secret), Math.floor(Date.now() / 30_000) + 1));
      await fresh.keyboard.press('Enter');
      await fresh.locator('.console-nav').waitFor();
      await fresh.context().close();
    });
    expect(errors()).toEqual([]);
    await tabA.context().close();
  });

  it('keys: the revoke message counts disabled webhooks, the demo key has no Revoke, a service key is minted in the console', async () => {
    const own = await createFund(suite.server.app);
    const owner = await person(suite.server.app, own.slug, 'admin');
    const app = suite.server.app;
    await app.get(UsersRepository).createServiceAccount(own.id, `${own.slug}/legacy-bot`);
    const legacy = await mintKey(app, { fund: own.slug, scopes: ['fund:read'], account: owner.email });
    await dbOf(app).query(
      `UPDATE api_keys SET account_id = (SELECT id FROM accounts WHERE name = $1), created_by_user_id = NULL, created_by_key_id = NULL, name = 'Legacy bot key' WHERE id = $2`,
      [`${own.slug}/legacy-bot`, legacy.id],
    );
    const demo = await mintKey(app, { fund: own.slug, scopes: ['fund:read'], account: owner.email });
    await dbOf(app).query(`UPDATE api_keys SET is_demo = true, name = 'Demo key' WHERE id = $1`, [demo.id]);
    const hooks = await mintKey(app, { fund: own.slug, scopes: ['webhooks:manage'], account: owner.email });
    await dbOf(app).query(`UPDATE api_keys SET name = 'Hook key' WHERE id = $1`, [hooks.id]);
    for (const n of [1, 2]) {
      const res = await api(suite.server, hooks.key, 'POST', '/api/v1/webhooks', {
        url: `http://127.0.0.1:9/hook-${n}`,
        eventTypes: ['nav.published'],
      });
      expect(res.status).toBe(201);
    }

    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-keys-audit', async () => {
      await signIn(page, suite.server.baseUrl, owner.email, '/console/keys');
      const demoRow = page.getByTestId('key-row').filter({ hasText: 'Demo key' });
      await demoRow.waitFor();
      expect(await demoRow.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
      const legacyRow = page.getByTestId('key-row').filter({ hasText: 'Legacy bot key' });
      expect(await legacyRow.textContent()).toContain(
        'minted before fundgate recorded by whom: replace it (Create a key, Owner: this service), then revoke this one',
      );
      // the advice can be followed here: a key minted into the service identity
      await page.getByLabel('Key name').fill('Bot replacement');
      expect(await page.getByRole('checkbox', { name: 'proposals:review' }).count()).toBe(1); // an admin's own key
      await page.getByLabel('Owner').selectOption(`${own.slug}/legacy-bot`);
      // what is true of a service key: bounded by the minter's role, revoked when they leave, never a checker
      expect(await page.getByRole('checkbox', { name: 'proposals:review' }).count()).toBe(0);
      expect(await page.locator('#create-key-title + p').textContent()).toBe(
        `The key belongs to the service identity ${own.slug}/legacy-bot, bound to Fund ${own.slug}, minted by you: it can hold only the scopes of your role (admin), never proposals:review, and it is revoked if you leave the fund.`,
      );
      const ownerHelp = await page.getByLabel('Owner').evaluate((e) => e.getAttribute('aria-describedby'));
      const helpText = (await page.locator(`[id="${ownerHelp}"]`).textContent()) ?? '';
      expect(helpText).not.toContain('keeps working when people change');
      expect(helpText).toContain(
        'never does more than your current role allows, and if you leave the fund it is revoked',
      );
      await screenshot(page, 'console-keys-service-owner');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByTestId('key-secret').waitFor();
      // the one-time secret is announced
      expect(await settledValue(() => focusedLabel(page), 'Secret of “Bot replacement”')).toBe(
        'Secret of “Bot replacement”',
      );
      await page
        .getByTestId('key-row')
        .filter({ hasText: 'Bot replacement' })
        .getByText(`service: ${own.slug}/legacy-bot, minted by`)
        .waitFor();
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-keys-audit');

      // a second key minted while the first secret shows: focus moves to the new secret too
      await page.getByLabel('Owner').selectOption('');
      await page.getByLabel('Key name').fill('Second key');
      await page.getByRole('button', { name: 'Create key' }).click();
      expect(await settledValue(() => focusedLabel(page), 'Secret of “Second key”')).toBe('Secret of “Second key”');

      const hookRow = page.getByTestId('key-row').filter({ hasText: 'Hook key' });
      await hookRow.getByRole('button', { name: /Revoke/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Revoked Hook key' });
      await status.waitFor();
      expect(await status.textContent()).toContain('2 webhook subscriptions were disabled');
      await screenshot(page, 'console-keys-revoked-webhooks');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('webhooks: after rotating a secret, focus is on the one-time secret (the dialog closes first)', async () => {
    const own = await createFund(suite.server.app);
    const owner = await person(suite.server.app, own.slug, 'admin');
    const key = await mintKey(suite.server.app, { fund: own.slug, scopes: ['webhooks:manage'], account: owner.email });
    const url = 'http://127.0.0.1:9/rotate-focus';
    expect(
      (await api(suite.server, key.key, 'POST', '/api/v1/webhooks', { url, eventTypes: ['nav.published'] })).status,
    ).toBe(201);
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-rotate-focus', async () => {
      await signIn(page, suite.server.baseUrl, owner.email, '/console/webhooks');
      const card = page.getByTestId('webhook').filter({ hasText: url });
      let previous = '';
      for (const round of [1, 2]) {
        // round 2: a second rotation while the first secret shows is a new secret: focus moves to it again
        await card.getByRole('button', { name: 'Rotate secret' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
        const secret = card.getByTestId('webhook-secret');
        await (previous ? secret.filter({ hasNotText: previous }) : secret).waitFor();
        previous = (await secret.textContent()) ?? '';
        expect(await settledValue(() => focusedLabel(page), 'New signing secret')).toBe('New signing secret');
        expect([round, await page.getByRole('dialog').count()]).toEqual([round, 0]);
      }
      await screenshot(page, 'console-rotate-focus');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('proposals: a 409 while a NAV run, import or approval holds the fund shows the server’s detail and says it is still pending', async () => {
    const own = await createFund(suite.server.app);
    await seedBooks(suite.server.app, own.id);
    const manager = await person(suite.server.app, own.slug, 'manager');
    const stager = await mintKey(suite.server.app, { fund: own.slug, scopes: ['fund:read', 'fund:propose'] });
    const staged = await api(suite.server, stager.key, 'POST', '/api/v1/fund/proposals/journal-entry', {
      entryDate: '2025-03-31',
      description: 'waits for a NAV run',
      lines: [
        { accountCode: '5500', debit: '10.00' },
        { accountCode: '5600', credit: '10.00' },
      ],
    });
    expect(staged.status).toBe(201);
    const page = await newPage(suite.browser);
    const errors = pageErrors(page, [401, 409]);
    const run = dbOf(suite.server.app).createQueryRunner(); // a NAV run of the fund, holding its inputs
    await run.connect();
    try {
      await withScreenshotOnFailure(page, 'console-proposals-busy', async () => {
        await signIn(page, suite.server.baseUrl, manager.email, '/console/proposals');
        const row = page.locator(`[aria-labelledby="proposal-${staged.json!.id as string}"]`);
        await row.getByRole('button', { name: 'Approve' }).click();
        await run.startTransaction();
        await run.query(`SELECT pg_advisory_xact_lock(${navInputsLockKey('$1')})`, [own.id]);
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: 'Approve proposal' }).click();
        await dialog.getByText('It is still pending: nothing was decided.').waitFor({ timeout: 15_000 });
        expect(await dialog.getByRole('alert').textContent()).toContain(
          'A NAV run, an import or an approval of this fund is in progress; approve again when it has finished',
        );
        expect(await dialog.getByText('decided elsewhere').count()).toBe(0);
        await screenshot(page, 'console-proposals-busy');
        await run.rollbackTransaction(); // the run has finished: approving again works
        await dialog.getByRole('button', { name: 'Approve proposal' }).click();
        await page.getByRole('status').filter({ hasText: 'Journal entry approved' }).waitFor();
        await row.waitFor({ state: 'detached' });
      });
    } finally {
      if (run.isTransactionActive) await run.rollbackTransaction();
      await run.release();
    }
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('webhook deliveries: Retry on a cancelled one too (not while the subscription is paused); Older, Newer and Newest walk a cursor trail, a double click on Older steps one page', async () => {
    const own = await createFund(suite.server.app);
    const owner = await person(suite.server.app, own.slug, 'admin');
    const receiver: Server = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const key = await mintKey(suite.server.app, { fund: own.slug, scopes: ['webhooks:manage'], account: owner.email });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sub = await api(suite.server, key.key, 'POST', '/api/v1/webhooks', { url, eventTypes: ['nav.published'] });
    const subId = sub.json!.id as string;
    for (let i = 0; i < 23; i++)
      expect((await api(suite.server, key.key, 'POST', `/api/v1/webhooks/${subId}/test`)).status).toBeLessThan(300);
    const db = dbOf(suite.server.app);
    const unsettled = async (): Promise<number> =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 AND status <> 'succeeded'`,
          [subId],
        )
      )[0].n;
    // every delivery answered (204): no worker writes to them any more, so the status set below stays
    expect(await settledValue(unsettled, 0, 20_000)).toBe(0);
    // the newest delivery was cancelled (as when its subscription is disabled mid-flight)
    await db.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', completed_at = now() WHERE id =
         (SELECT id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1)`,
      [subId],
    );
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    try {
      await withScreenshotOnFailure(page, 'console-deliveries', async () => {
        await signIn(page, suite.server.baseUrl, owner.email, '/console/webhooks');
        const card = page.getByTestId('webhook').filter({ hasText: url });
        await card.getByRole('button', { name: 'Deliveries' }).click();
        const cancelled = card.locator('.proposal').filter({ hasText: 'cancelled' });
        await cancelled.waitFor();
        // a delivery the receiver accepted can be sent again (lost on its side); a cancelled one retried
        const succeeded = card.locator('.proposal').filter({ hasText: 'succeeded' });
        await succeeded
          .first()
          .getByRole('button', { name: /^Send evt_\S+ again$/ })
          .waitFor();
        expect(await succeeded.getByRole('button', { name: /Retry delivery of/ }).count()).toBe(0);
        await cancelled.getByRole('button', { name: /Retry delivery of/ }).click();
        await card.getByRole('status').filter({ hasText: 'queued again' }).waitFor();
        const pageNo = card.getByText(/^Page \d$/);
        expect(await pageNo.textContent()).toBe('Page 1');
        await card.getByRole('button', { name: 'Older deliveries' }).click();
        expect(await settledText(pageNo, /Page 2/)).toBe('Page 2');
        // while page 2 loads, the list still shows page 1 (20) under "Loading": wait for the page itself
        expect(await settledValue(() => card.locator('.proposal').count(), 3)).toBe(3);
        await screenshot(page, 'console-deliveries-page-2');
        await card.getByRole('button', { name: 'Newer' }).click();
        expect(await settledText(pageNo, /Page 1/)).toBe('Page 1');
        await card.getByRole('button', { name: 'Older deliveries' }).click();
        expect(await settledText(pageNo, /Page 2/)).toBe('Page 2');
        await card.getByRole('button', { name: 'Refresh deliveries' }).click(); // the newest page, where new ones arrive
        expect(await settledText(pageNo, /Page 1/)).toBe('Page 1');
        await card.getByRole('button', { name: 'Older deliveries' }).click();
        await card.getByRole('button', { name: 'Newest' }).click();
        expect(await settledText(pageNo, /Page 1/)).toBe('Page 1');

        // a double click on Older steps one page (the page shown while the next loads has the same cursor)
        await card.getByRole('button', { name: 'Older deliveries' }).dblclick();
        expect(await settledText(pageNo, /Page 2/)).toBe('Page 2');
        // page 1's 20 stay listed while page 2 loads (a wait for a third row passed on them): wait for page
        // 2's own 3, then read the label again (a second push would have made it 'Page 3')
        expect(await settledValue(() => card.locator('.proposal').count(), 3)).toBe(3);
        expect(await pageNo.textContent()).toBe('Page 2');
        await card.getByRole('button', { name: 'Newer' }).click();
        expect(await settledText(pageNo, /Page 1/)).toBe('Page 1');
        // axe on page 1 as loaded, not on page 2's rows under "Loading"
        expect(await settledValue(() => card.locator('.proposal').count(), 20)).toBe(20);
        expect(await a11y(page)).toEqual([]);

        // a paused subscription's deliveries are not sent, so the API refuses their retry (409): no Retry
        // on a cancelled nav.published delivery; test events are still sent, and still offered
        expect(await settledValue(unsettled, 0, 20_000)).toBe(0); // the retried one too
        await db.query(
          `UPDATE webhook_events SET type = 'nav.published' WHERE id =
             (SELECT event_id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at DESC, id DESC OFFSET 1 LIMIT 1)`,
          [subId],
        );
        await db.query(
          `UPDATE webhook_deliveries SET status = 'cancelled', completed_at = now() WHERE subscription_id = $1
             AND id IN (SELECT id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at DESC, id DESC LIMIT 3)`,
          [subId],
        );
        await card.getByRole('button', { name: 'Pause' }).click();
        await card.locator('.badge.bad').filter({ hasText: 'disabled' }).waitFor();
        await card.getByRole('button', { name: 'Refresh deliveries' }).click();
        const navDelivery = card.locator('.proposal').filter({ hasText: 'nav.published' });
        await navDelivery.filter({ hasText: 'cancelled' }).waitFor();
        const testCancelled = card
          .locator('.proposal')
          .filter({ hasText: 'webhook.test' })
          .filter({ hasText: 'cancelled' });
        await testCancelled
          .first()
          .getByRole('button', { name: /Retry delivery of/ })
          .waitFor();
        expect(await navDelivery.getByRole('button', { name: /Retry delivery of/ }).count()).toBe(0);
        await screenshot(page, 'console-deliveries-paused');
        await card.getByRole('button', { name: 'Re-enable' }).click();
        await navDelivery.getByRole('button', { name: /Retry delivery of/ }).waitFor();
        expect(await a11y(page)).toEqual([]);
      });
    } finally {
      receiver.close();
    }
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('accessibility: a focus ring that passes 3:1 on white, field errors wired to their controls, titled consent states', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page, [400, 401, 404]);
    await withScreenshotOnFailure(page, 'console-a11y-audit', async () => {
      await page.goto(`${suite.server.baseUrl}/console/sign-in`);
      await page.getByLabel('Email').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab'); // the Sign in button, on the white panel
      expect(await focusedLabel(page)).toBe('Sign in');
      const ring = await page.evaluate<{ outline: string; shadow: string }>(
        `(() => { const s = getComputedStyle(document.activeElement); return { outline: s.outlineColor, shadow: s.boxShadow }; })()`,
      );
      const colours = [ring.outline, ...(ring.shadow.match(/rgba?\([^)]*\)/g) ?? [])];
      expect(Math.max(...colours.map(contrastOnWhite))).toBeGreaterThanOrEqual(3);
      await screenshot(page, 'console-focus-ring');

      await signIn(page, suite.server.baseUrl, admin.email, '/console/webhooks');
      await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/none');
      for (const box of await page.getByRole('checkbox').all()) await box.uncheck(); // no event type: refused
      await page.getByRole('button', { name: 'Create subscription' }).click();
      const box = page.getByRole('checkbox', { name: 'nav.published' });
      expect(await settledText(page.getByRole('alert'), /Check these fields/)).toContain('Event types: '); // the form's label, not the API's field
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      const fieldset = page.locator('fieldset').filter({ has: box });
      const describedBy = (await fieldset.getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/\S/);
      expect(await a11y(page)).toEqual([]);

      await page.goto(`${suite.server.baseUrl}/console/oauth/consent?request=not-a-request`);
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect an app to fundgate');
      expect(await settledValue(() => page.title(), 'Connect an app — fundgate console')).toBe(
        'Connect an app — fundgate console',
      );
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-consent-error');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('sign-in links to sign-up while sign-up is open', async () => {
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await page.goto(`${suite.server.baseUrl}/console/sign-in`);
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    expect(errors()).toEqual([]);
    await page.context().close();
  });
});

describe('console with sign-up off (CONSOLE_SIGNUP=false)', () => {
  const suite = useBrowserSuite({}, { ...CONSOLE_TEST_ENV, CONSOLE_SIGNUP: 'false' });

  it('sign-in offers no "Create an account" link (the public flag says sign-up is closed)', async () => {
    const flag = await fetch(`${suite.server.baseUrl}/api/v1/console/sign-up`);
    expect([flag.status, await flag.json()]).toEqual([200, { enabled: false }]);
    const page = await newPage(suite.browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-sign-up-off', async () => {
      await page.goto(`${suite.server.baseUrl}/console/sign-in`);
      await page.getByText('New here? An admin of a fund can invite you to it.').waitFor();
      expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'console-sign-in-sign-up-off');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });
});

describe('OAuth consent in the console (its own public base URL)', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let local: LocalClientServer;
  let fundSlug: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await bootApp({ publicBaseUrl: base }, CONSOLE_TEST_ENV);
    fundSlug = (await createFund(app)).slug;
    await app.listen({ port, host: '127.0.0.1' });
    local = new LocalClientServer();
    await local.start();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await local?.close();
    await app?.close();
  });

  async function register(name: string, redirectUri: string): Promise<string> {
    const reg = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    return ((await reg.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(clientId: string, redirectUri: string): string {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    return `${base}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      resource: `${base}/api/mcp`,
    }).toString()}`;
  }

  it('the two-factor window lapsing before Approve shows the step-up form; approving again then works', async () => {
    const someone = await ensurePerson(
      app,
      `${uniqueName('mcp')}@console.test`,
      'developer',
      fundSlug,
      'analyst',
      PASSWORD,
    );
    const clientId = await register('Lapse Agent', local.redirectUri);
    const page = await newPage(browser);
    const errors = pageErrors(page, [401]);
    await withScreenshotOnFailure(page, 'oauth-consent-lapse', async () => {
      await signIn(page, base, someone.email, '/console/account');
      const { recovery } = await enrolTotp(page); // this session is verified now
      await page.goto(authorizeUrl(clientId, local.redirectUri));
      await page.waitForURL(/\/console\/oauth\/consent\?request=/);
      await page.getByTestId('consent-client').waitFor();
      expect(await page.getByRole('textbox', { name: 'Two-factor code' }).count()).toBe(0);
      await dbOf(app).query(
        `UPDATE console_sessions SET totp_verified_at = now() - interval '11 minutes' WHERE user_id = $1`,
        [someone.userId],
      );
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('textbox', { name: 'Two-factor code' }).waitFor();
      expect(await page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
      expect(await a11y(page)).toEqual([]);
      await screenshot(page, 'oauth-consent-step-up');
      await page.getByRole('textbox', { name: 'Two-factor code' }).fill(recovery[0]);
      await page.getByRole('button', { name: 'Verify code' }).click();
      await page.getByRole('textbox', { name: 'Two-factor code' }).waitFor({ state: 'detached' });
      const callback = local.nextCallback();
      await page.getByRole('button', { name: 'Approve' }).click();
      expect((await callback).code).toMatch(/\S/);
    });
    expect(errors()).toEqual([]);
    // closing the context while the page was still navigating to the client's callback waited about a
    // minute in most runs: the navigation finishes first
    await page.waitForURL(/\/callback\?code=/);
    await page.context().close();
  });

  it('a connected app with a private-use redirect scheme names the scheme, not a blank host', async () => {
    const someone = await ensurePerson(
      app,
      `${uniqueName('native')}@console.test`,
      'developer',
      fundSlug,
      'viewer',
      PASSWORD,
    );
    const redirect = 'com.example.fundapp:/callback';
    const clientId = await register('Native App', redirect);
    const page = await newPage(browser);
    const errors = pageErrors(page);
    await withScreenshotOnFailure(page, 'console-connected-native', async () => {
      await signIn(page, base, someone.email, '/console/keys');
      await page.goto(authorizeUrl(clientId, redirect));
      await page.waitForURL(/\/console\/oauth\/consent\?request=/);
      const requestId = new URL(page.url()).searchParams.get('request')!;
      // approved from the page's own origin (the redirect to a private scheme would leave the browser)
      const status = await page.evaluate<number>(`(async () => {
        const s = await (await fetch('/api/v1/console/session')).json();
        const r = await fetch('/api/v1/console/oauth/requests/${requestId}/approve', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
          body: JSON.stringify({ fund: '${fundSlug}', scopes: ['fund:read'] }),
        });
        return r.status;
      })()`);
      expect(status).toBe(200);
      await page.goto(`${base}/console/keys`);
      const row = page.getByTestId('app-row').filter({ hasText: 'Native App' });
      await row.waitFor();
      expect(await row.textContent()).toContain('redirects to com.example.fundapp://');
      await screenshot(page, 'console-connected-native');
    });
    expect(errors()).toEqual([]);
    await page.context().close();
  });
});
