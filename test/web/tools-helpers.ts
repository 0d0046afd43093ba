import type { Browser, Page, Response } from 'playwright-core';
import { randomIp } from '../utils/app';

export const TOOL_NAMES = [
  'fee-calculator',
  'nav-validator',
  'exposure-analysis',
  'operating-cost-calculator',
  'back-office-savings',
  'fund-health-check',
  'lp-report-grader',
] as const;

/**
 * A page whose requests come from their own client address (the server trusts 127.0.0.1 as a
 * proxy), so each test has its own calculator day and never eats another's cap.
 */
export async function newToolPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; ip: string }> {
  const ip = randomIp();
  const context = await browser.newContext({
    viewport,
    extraHTTPHeaders: { 'x-forwarded-for': ip },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  return { page, ip };
}

/**
 * Clicks Calculate and answers the calculator response the page received, once the page has shown
 * it: the button is aria-disabled (it keeps the focus) from the click until the answer (or error) and
 * the rate-limit note are rendered in one update, so a test reading the page after this sees the new
 * answer, not the last.
 */
export async function calculate(page: Page): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/v1/calc/') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Calculate' }).click(),
  ]);
  await page.waitForSelector('form.tool-form button[type="submit"]:not([disabled]):not([aria-disabled="true"])');
  return response;
}

/** Labels as the person reads them, units included: "Cost per LP report (USD)". */
const texts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));

/** Result labels that repeat an input's label (a result must say what it is, not echo an input). */
export async function repeatedLabels(page: Page): Promise<string[]> {
  const inputs = await texts(page, 'form.tool-form .fields label');
  return (await texts(page, '.result .figure .label')).filter((r) => inputs.includes(r));
}

/** Result tables whose content is wider than their box (they scroll sideways): their captions. */
export const clippedTables = (page: Page) =>
  page
    .locator('.result .table-wrap')
    .evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.getAttribute('aria-label')),
    );

/** The page's width as laid out: wider than the viewport means sideways scrolling. */
export const pageWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

/** The value of `member` in an answer: the shallowest occurrence (totals.endingNavUsd → endingNavUsd). */
export function memberOf(answer: unknown, member: string): unknown {
  let level: unknown[] = [answer];
  while (level.length) {
    const next: unknown[] = [];
    for (const node of level) {
      if (node && typeof node === 'object' && !Array.isArray(node)) {
        if (member in node) return (node as Record<string, unknown>)[member];
        next.push(...Object.values(node));
      }
    }
    level = next;
  }
  return undefined;
}

/** The headline figures shown: member → text. */
export async function shownFigures(page: Page): Promise<Record<string, string>> {
  return page
    .locator('[data-testid^="figure-"]')
    .evaluateAll((els) =>
      Object.fromEntries(
        els.map((e) => [e.getAttribute('data-testid')!.slice('figure-'.length), (e.textContent ?? '').trim()]),
      ),
    );
}

/** A figure as the page prints it: the JSON number or string verbatim, null as a dash. */
export function asShown(v: unknown): string {
  return v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v);
}
