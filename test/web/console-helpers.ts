import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { dbOf, ensurePerson, uniqueName, type TestApp } from '../utils/app';
import { screenshot, seriousA11yViolations, watchPageErrors, withScreenshotOnFailure } from '../utils/browser';
import type { Role } from '../../src/common/auth/scopes';

/** Shared steps of the console browser tests. */
export const PASSWORD = 'correct horse battery staple';

export interface Person {
  email: string;
  userId: string;
  accountId: string;
}

/** A person with a password and a role on the fund (the same code path the users CLI takes). */
export async function person(
  app: TestApp,
  fundSlug: string | null,
  role: Role | null,
  plan: 'free' | 'developer' | 'platform' = 'developer',
): Promise<Person> {
  const email = `${uniqueName(role ?? 'dev')}@console.test`;
  const p = await ensurePerson(app, email, plan, fundSlug, role, PASSWORD);
  return { email: p.email, userId: p.userId, accountId: p.accountId };
}

/**
 * Chromium reports every 4xx/5xx fetch answer as a console error line. The console probes its
 * session on load (401 when signed out) and the error-path tests cause refusals on purpose; those
 * lines are filtered by status, anything else (script errors, other statuses) stays.
 */
export function pageErrors(page: Page, expectedStatuses: number[] = [401]): () => string[] {
  const errors = watchPageErrors(page);
  return () =>
    errors.filter(
      (e) =>
        !expectedStatuses.some((s) =>
          e.startsWith(`console: Failed to load resource: the server responded with a status of ${s}`),
        ),
    );
}

export async function newPage(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return context.newPage();
}

export async function signIn(page: Page, baseUrl: string, email: string, path = '/console/keys'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.console-nav').waitFor();
}

/** axe-core serious/critical violations of the page as it is now, with a readable label. */
export async function a11y(page: Page): Promise<string[]> {
  return (await seriousA11yViolations(page)).map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** True when the page is wider than the viewport (something does not fit at 375 px). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1');
}

/**
 * Browser suites sign in from 127.0.0.1, and every test file of a run shares the one Redis: the
 * anonymous per-IP window (fund-minute, 120 a minute) would be shared by all of them. The console
 * servers get a wide window; the limit itself is proven in test/platform and test/identity.
 */
export const CONSOLE_TEST_ENV = {
  RATE_LIMITS: JSON.stringify({ 'fund-minute': { free: 100_000, developer: 100_000, platform: 100_000 } }),
};

/** A fund with a long name, as real ones have (the fund switcher must still fit 375 px). */
export async function longNamedFund(app: TestApp): Promise<{ id: string; slug: string; name: string }> {
  const slug = uniqueName('longfund');
  const rows = await dbOf(app).query(`INSERT INTO funds (slug, name) VALUES ($1, $2) RETURNING id, slug, name`, [
    slug,
    `Meridian Digital Opportunities Fund (synthetic demo) ${slug}`,
  ]);
  return rows[0];
}

/** A full-page screenshot (with SCREENSHOTS set), copied to CONSOLE_FIX_SHOTS too when that is set. */
export async function lookAt(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  const dir = process.env.CONSOLE_FIX_SHOTS;
  if (dir && path) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(path, join(dir, basename(path)));
  }
}

/** What has the keyboard focus: its label (<label>, else aria-label), else its text; 'BODY' when nothing. */
export function focused(page: Page): Promise<string> {
  return page.evaluate<string>(
    `(() => { const e = document.activeElement; if (!e || e === document.body) return 'BODY';
       return (e.labels?.[0]?.textContent ?? e.getAttribute('aria-label') ?? e.textContent ?? '').trim(); })()`,
  );
}

/** A REST call with a key (the API side of a console test). */
export async function apiCall(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> | null }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/** The colour a field error is drawn in (the theme's --bad), as getComputedStyle answers it. */
export const ERROR_RED = 'rgb(180, 35, 24)';

/** The computed text colour of an element (getComputedStyle, run in the page). */
export function colourOf(element: Locator): Promise<string> {
  type Window = { getComputedStyle(e: unknown): { color: string } };
  return element.evaluate((el) => (globalThis as unknown as Window).getComputedStyle(el).color);
}

/**
 * Runs `step` in a fresh page at each width (375 and 1440 px unless told), with a screenshot named
 * `<name>-<width>` when it fails; then the page must have logged no error but the expected statuses.
 */
export async function atWidths(
  browser: Browser,
  name: string,
  expectedStatuses: number[],
  step: (page: Page, width: number) => Promise<void>,
  widths = [375, 1440],
): Promise<void> {
  for (const width of widths) {
    const page = await newPage(browser, width);
    const errors = pageErrors(page, expectedStatuses);
    await withScreenshotOnFailure(page, `${name}-${width}`, () => step(page, width));
    const logged = errors();
    if (logged.length) throw new Error(`the page logged errors at ${width} px:\n${logged.join('\n')}`);
    await page.context().close();
  }
}
