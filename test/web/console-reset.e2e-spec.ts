import type { Browser, Page, Request } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { PasswordResetService } from '../../src/identity/password-reset.service';
import { REDIS } from '../../src/redis/redis.module';
import { dbOf } from '../utils/app';
import { launchBrowser, startWebServer, type WebServer } from '../utils/browser';
import { type SmtpSink, startSmtpSink } from '../identity/smtp-sink';
import {
  a11y,
  atWidths,
  CONSOLE_TEST_ENV,
  focused,
  lookAt,
  newPage,
  overflowsHorizontally,
  person,
  PASSWORD,
  signIn,
} from './console-helpers';
import { settledValue } from './wait';

const NEW_PASSWORD = 'a brand new passphrase 42';
const RESETS = '/api/v1/console/password-reset';
const LINK = /\/console\/reset-password\/([A-Za-z0-9_-]{43})$/m;
const SENT = 'If an account exists for that address, we sent a link valid 30 minutes — check your inbox.';
const GONE = 'This link has expired or was already used — ask for a new one.';
const CHANGED = 'Password changed. Every session was signed out; sign in with your new password';

/**
 * "Forgot your password?" in the console, against a real SMTP server (the identity e2e's sink): the
 * link offered only when mail is configured, the request's one answer, the link from the mail, the
 * new password (its rule, the confirmation, field errors), sign-in afterwards, and the used, expired
 * and unknown links. The token never shows on the page, in its title, or in the Referer of its requests.
 */
describe('console password reset (headless Chromium, SMTP sink)', () => {
  let sink: SmtpSink;
  let server: WebServer;
  let noMail: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startWebServer(
      {},
      { ...CONSOLE_TEST_ENV, SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: 'fundgate <no-reply@fund.example>' },
    );
    noMail = await startWebServer({}, CONSOLE_TEST_ENV);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await noMail?.close();
    await sink?.close();
  });
  // every request of the browser comes from 127.0.0.1: its per-address window (10 in 15 minutes, proven
  // in test/identity) starts empty for each test, whatever earlier runs of this file spent on this Redis
  beforeEach(async () => {
    const redis = server.app.get<Redis>(REDIS);
    const counters = await redis.keys('pwreset:*');
    if (counters.length) await redis.del(...counters);
  });

  /** The token of the newest mail to `email` (after every requested reset has been sent). */
  async function tokenFor(email: string): Promise<string> {
    await server.app.get(PasswordResetService).settled();
    const mails = sink.mails.filter((m) => m.rcptTo.includes(email));
    expect(mails.length).toBeGreaterThan(0);
    return LINK.exec(mails[mails.length - 1].text)![1];
  }

  /** A link for `email` asked for over HTTP, as the console's own origin. */
  async function askOverHttp(email: string): Promise<string> {
    const res = await fetch(`${server.baseUrl}${RESETS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(202);
    return tokenFor(email);
  }

  /**
   * The API requests of the page from now until the answer is read, each with the Referer it carried
   * (all the headers the browser sent).
   */
  function apiReferers(page: Page): () => Promise<{ url: string; referer: string | null }[]> {
    const seen: Promise<{ url: string; referer: string | null }>[] = [];
    const listen = (req: Request) => {
      if (req.url().includes('/api/'))
        seen.push(req.allHeaders().then((h) => ({ url: req.url(), referer: h.referer ?? null })));
    };
    page.on('request', listen);
    return () => {
      page.off('request', listen); // later requests may outlive the page
      return Promise.all(seen);
    };
  }

  it('the sign-in page offers "Forgot your password?" only when mail is configured; without mail the request says whom to ask', async () => {
    await atWidths(browser, 'console-reset-offered', [401, 403], async (page, width) => {
      await page.goto(`${noMail.baseUrl}/console/sign-in`);
      await page.getByText('New here?').waitFor(); // the public probes have answered
      await settledValue(() => page.getByRole('link', { name: 'Forgot your password?' }).count(), 1, 500);
      expect(await page.getByRole('link', { name: 'Forgot your password?' }).count()).toBe(0);

      await page.goto(`${server.baseUrl}/console/sign-in`);
      await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();

      // the page at its address on a service without mail: 403, and what to do instead
      await page.goto(`${noMail.baseUrl}/console/forgot-password`);
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const summary = page.getByRole('alert').filter({ hasText: 'No link was sent.' });
      await summary.waitFor();
      expect(await summary.textContent()).toContain('Ask the fund’s operator');
      expect(await settledValue(() => focused(page), await summary.textContent())).toBe(await summary.textContent());
      await lookAt(page, `reset-no-mail-${width}`);
      expect(await a11y(page)).toEqual([]);
    });
  });

  it('a request past the limit says when to try again', async () => {
    const email = `limited-${randomBytes(4).toString('hex')}@console.test`;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.baseUrl}${RESETS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ email }),
      });
      expect(res.status).toBe(202);
    }
    await atWidths(browser, 'console-reset-limited', [401, 429], async (page, width) => {
      await page.goto(`${server.baseUrl}/console/forgot-password`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const summary = page.getByRole('alert').filter({ hasText: 'No link was sent.' });
      await summary.waitFor();
      expect(await summary.textContent()).toMatch(/Too many links were asked for: try again in 1[45] min\./);
      expect(await settledValue(() => focused(page), await summary.textContent())).toBe(await summary.textContent());
      await lookAt(page, `reset-limited-${width}`);
      expect(await a11y(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);
    });
  });

  it('the whole reset through the pages: link by mail, rule and confirmation, every session ended, sign-in with the new password', async () => {
    await atWidths(browser, 'console-reset-flow', [401, 400], async (page, width) => {
      const p = await person(server.app, null, null);
      const other = await newPage(browser, width); // a session elsewhere: the reset ends it
      await signIn(other, server.baseUrl, p.email);
      await page.goto(`${server.baseUrl}/console/sign-in`);
      await page.getByLabel('Email').fill(p.email);
      await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
      await lookAt(page, `reset-sign-in-link-${width}`);
      expect(await a11y(page)).toEqual([]);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await lookAt(page, `reset-request-${width}`);
      expect(await a11y(page)).toEqual([]);
      const email = page.getByLabel('Email');
      expect(await email.inputValue()).toBe(p.email); // carried over from sign-in
      expect(await email.getAttribute('autocomplete')).toBe('email');

      // a malformed address: the field's error, by its label, focus on the summary
      await email.fill('not an email');
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'No link was sent.' });
      await refused.waitFor();
      expect(await refused.locator('li').allTextContents()).toEqual([expect.stringMatching(/^Email: /)]);
      expect(await settledValue(() => focused(page), await refused.textContent())).toBe(await refused.textContent());
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      await lookAt(page, `reset-request-refused-${width}`);

      await email.fill(p.email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const sent = page.getByRole('status').filter({ hasText: SENT });
      await sent.waitFor();
      expect(await settledValue(() => focused(page), await sent.textContent())).toBe(await sent.textContent());
      await lookAt(page, `reset-sent-${width}`);
      expect(await a11y(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);

      // an unknown address reads exactly the same
      const stranger = await newPage(browser, width);
      await stranger.goto(`${server.baseUrl}/console/forgot-password`);
      await stranger.getByLabel('Email').fill(`nobody-${randomBytes(4).toString('hex')}@console.test`);
      await stranger.getByRole('button', { name: 'Send me a link' }).click();
      await stranger.getByRole('status').filter({ hasText: SENT }).waitFor();
      expect(await stranger.locator('main').textContent()).toBe(await page.locator('main').textContent());
      await stranger.context().close();

      const token = await tokenFor(p.email);
      const requests = apiReferers(page);
      await page.goto(`${server.baseUrl}/console/reset-password/${token}`);
      const intro = page.getByText(/^Choose a new password for \w\*\*\*@console\.test; this link expires at /);
      await intro.waitFor();
      expect(await intro.textContent()).toMatch(/expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
      expect(await page.title()).toBe('Choose a new password — fundgate console');
      expect(await page.locator('body').textContent()).not.toContain(token);
      const [pw, confirm] = [
        page.getByLabel('New password', { exact: true }),
        page.getByLabel('Confirm the new password'),
      ];
      expect(await pw.getAttribute('autocomplete')).toBe('new-password');
      expect(await confirm.getAttribute('autocomplete')).toBe('new-password');
      await page.getByText('12 to 1024 characters, not only spaces.').waitFor();
      await lookAt(page, `reset-choose-${width}`);
      expect(await a11y(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);

      // the confirmation is checked in the page; the rule by the server, each by its field
      const summary = page.getByRole('alert').filter({ hasText: 'The password was not changed.' });
      await pw.fill(NEW_PASSWORD);
      await confirm.fill(`${NEW_PASSWORD}!`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await summary.waitFor();
      expect(await summary.locator('li').allTextContents()).toEqual([
        'Confirm the new password: does not match the new password: type the same password twice',
      ]);
      expect(await settledValue(() => focused(page), await summary.textContent())).toBe(await summary.textContent());
      await pw.fill('short');
      await confirm.fill('short');
      await page.getByRole('button', { name: 'Change password' }).click();
      await summary.filter({ hasText: 'New password: must be at least 12 characters' }).waitFor();
      expect(await settledValue(() => focused(page), await summary.textContent())).toBe(await summary.textContent());
      await summary.getByRole('link', { name: 'New password' }).click();
      expect(await focused(page)).toBe('New password');
      await lookAt(page, `reset-refused-${width}`);
      expect(await a11y(page)).toEqual([]);

      await pw.fill(NEW_PASSWORD);
      await confirm.fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      const note = page.getByRole('status').filter({ hasText: CHANGED });
      await note.waitFor();
      expect(page.url()).toBe(`${server.baseUrl}/console/sign-in`);
      expect(await note.textContent()).toContain('your authenticator code is still asked for if you use one');
      expect(await settledValue(() => focused(page), await note.textContent())).toBe(await note.textContent());
      await lookAt(page, `reset-done-${width}`);
      expect(await a11y(page)).toEqual([]);
      // the preview and the resets were asked for without a Referer naming the token (the server's
      // Referrer-Policy for token pages is no-referrer: bb23ad1)
      const asked = (await requests()).filter((r) => r.url.includes(`${RESETS}/`));
      expect(asked.length).toBeGreaterThanOrEqual(3); // the preview, the refused and the accepted resets
      expect(asked.filter((r) => r.referer?.includes(token))).toEqual([]);

      // the other session is over; the old password is refused, the new one signs in
      await other.goto(`${server.baseUrl}/console/keys`);
      await other.getByRole('button', { name: 'Sign in' }).waitFor();
      await other.context().close();
      await page.getByLabel('Email').fill(p.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Could not sign in.' }).waitFor();
      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.console-nav').waitFor();
    });
  });

  it('a used, an expired and an unknown link say so, and lead to a new one', async () => {
    const p = await person(server.app, null, null);
    const used = await askOverHttp(p.email);
    const done = await fetch(`${server.baseUrl}${RESETS}/${used}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ password: NEW_PASSWORD }),
    });
    expect(done.status).toBe(200);
    const expired = await askOverHttp(p.email);
    await dbOf(server.app).query(
      `UPDATE password_resets SET created_at = now() - interval '31 minutes', expires_at = now() - interval '1 minute'
       WHERE user_id = $1 AND used_at IS NULL`,
      [p.userId],
    );
    const unknown = randomBytes(32).toString('base64url');
    const cases: [string, string, string][] = [
      ['used', used, GONE],
      ['expired', expired, GONE],
      ['unknown', unknown, 'This link is not valid.'],
    ];
    for (const [name, token, says] of cases)
      await atWidths(browser, `console-reset-${name}`, [401, 404, 410], async (page, width) => {
        await page.goto(`${server.baseUrl}/console/reset-password/${token}`);
        const problem = page.getByRole('alert').filter({ hasText: says });
        await problem.waitFor();
        expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
        expect(await page.locator('body').textContent()).not.toContain(token);
        expect(await page.title()).not.toContain(token);
        await lookAt(page, `reset-link-${name}-${width}`);
        expect(await a11y(page)).toEqual([]);
        expect(await overflowsHorizontally(page)).toBe(false);
        await problem.getByRole('link', { name: 'Ask for a new link' }).click();
        await page.getByRole('button', { name: 'Send me a link' }).waitFor();
        expect(page.url()).toBe(`${server.baseUrl}/console/forgot-password`);
      });
  });
});
