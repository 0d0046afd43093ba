import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { AppConfig } from '../../src/config/config';
import { bootApp, type TestApp } from './app';

/**
 * Browser tests: the real app listening on a free loopback port, driven by Debian's chromium through
 * playwright-core. `.ci/run` installs chromium when it is missing.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, headless: true });
}

export interface WebServer {
  app: TestApp;
  baseUrl: string;
  close(): Promise<void>;
}

/** Boots the app (same factory as production) and listens on 127.0.0.1 with a free port. */
export async function startWebServer(
  overrides: Partial<AppConfig> = {},
  env: Record<string, string> = {},
): Promise<WebServer> {
  const app = await bootApp(overrides, env);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('the test server has no TCP address');
  return { app, baseUrl: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

export interface BrowserSuite {
  readonly server: WebServer;
  readonly browser: Browser;
}

/**
 * The server-and-browser pair of a describe block: registers its beforeAll (boot the app with these
 * overrides and env, launch Chromium) and afterAll (close both). Read `server` and `browser` inside tests.
 */
export function useBrowserSuite(overrides: Partial<AppConfig> = {}, env: Record<string, string> = {}): BrowserSuite {
  let server: WebServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startWebServer(overrides, env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} is not started (use it inside a test)`);
    return value;
  };
  return {
    get server() {
      return started(server, 'test server');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

/** Collects console errors and failed requests of a page, so a test can assert there were none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let axeSource: string | null = null;

/** Runs axe-core in the page; answers the serious and critical violations (WCAG 2 A/AA rules). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // evaluated through the DevTools protocol (the page's CSP stays on), once per document
  if (!(await page.evaluate<boolean>("typeof globalThis.axe === 'object'"))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // runs in the page: globalThis is its window
    const win = globalThis as unknown as {
      axe: { run: (ctx: unknown, opts: object) => Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    const result = await win.axe.run(win.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The text of an element once it matches `want`, or, after the timeout, as it then is (for the
 * caller's assertion to report). A response arriving does not mean the page has rendered it: an
 * element already on the page still shows its previous text for a moment.
 */
export async function settledText(locator: Locator, want: RegExp, timeoutMs = 5000): Promise<string> {
  await locator
    .filter({ hasText: want })
    .first()
    .waitFor({ timeout: timeoutMs })
    .catch(() => undefined);
  return (await locator.textContent()) ?? '';
}

/**
 * Saves a full-page screenshot under test-results/screenshots to look at, when SCREENSHOTS is set
 * (`SCREENSHOTS=1 npx jest test/web`): a full-page capture costs Chromium ~0.3 s of a CPU-bound run,
 * so `npm test` takes only the failing pages' (withScreenshotOnFailure). Answers the path, or null.
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  return screenshotsWanted() ? saveScreenshot(page, name) : null;
}

/** SCREENSHOTS set to anything but 0/false, or CONSOLE_FIX_SHOTS naming a folder to copy them to. */
function screenshotsWanted(): boolean {
  const flag = process.env.SCREENSHOTS ?? '';
  return (flag !== '' && !/^(0|false)$/i.test(flag)) || !!process.env.CONSOLE_FIX_SHOTS;
}

async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Runs a browser step and, when it throws, writes a screenshot of the page before rethrowing, so a
 * failing CI run leaves a picture of what the page showed.
 */
export async function withScreenshotOnFailure<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await saveScreenshot(page, `FAILED-${name}`).catch(() => undefined);
    throw err;
  }
}
