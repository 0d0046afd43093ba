import type { Page } from 'playwright-core';
import { mintKey } from '../utils/app';
import {
  screenshot,
  seriousA11yViolations,
  settledText,
  useBrowserSuite,
  watchPageErrors,
  withScreenshotOnFailure,
} from '../utils/browser';
import { calculate, newToolPage, pageWidth, repeatedLabels, TOOL_NAMES } from './tools-helpers';

const activeId = (page: Page) =>
  page.evaluate<string>("document.activeElement?.id || document.activeElement?.tagName || ''");

describe('free web tools: the audit’s defects (headless Chromium)', () => {
  const suite = useBrowserSuite({}, { TRUSTED_PROXIES: '127.0.0.1' });

  // at 1440 px (no label repeated, every table fits, nothing widens the page): tools-pages, on each tool's own test
  it('every tool at 375 px: no result label repeats an input label, nothing widens the page', async () => {
    const { page } = await newToolPage(suite.browser, { width: 375, height: 812 });
    const errors = watchPageErrors(page);
    for (const name of TOOL_NAMES) {
      await withScreenshotOnFailure(page, `audit-${name}-375`, async () => {
        await page.goto(`${suite.server.baseUrl}/tools/${name}`);
        expect((await calculate(page)).status()).toBe(200);
        await page.getByTestId('chart').first().locator('svg').first().waitFor();
        expect({ name, repeated: await repeatedLabels(page) }).toEqual({ name, repeated: [] });
        expect({ name, width: await pageWidth(page) }).toEqual({ name, width: 375 });
        await screenshot(page, `tools-audit-${name}-375`);
      });
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a proxy’s HTML 502 and an unreachable service read as sentences; a form that could not load offers Retry', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'audit-errors', async () => {
      await page.route('**/api/openapi.json', (route) => route.abort('connectionrefused'));
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      const load = page.getByTestId('load-error');
      await load.waitFor();
      expect(await load.textContent()).toMatch(/The form could not load: The service is unreachable/);
      expect(await load.textContent()).not.toContain('Failed to fetch');
      await screenshot(page, 'tools-audit-openapi-down');
      await page.unroute('**/api/openapi.json');
      await load.getByRole('button', { name: 'Retry' }).click();
      await page.getByLabel('Horizon').waitFor();
      expect(await load.count()).toBe(0);

      await page.route('**/api/v1/calc/**', (route) =>
        route.fulfill({
          status: 502,
          contentType: 'text/html',
          body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
        }),
      );
      await page.getByRole('button', { name: 'Calculate' }).click();
      const shown = await settledText(page.getByTestId('error'), /502/);
      expect(shown).toMatch(/The service is unavailable right now \(HTTP 502.*\): try again in a moment\./);
      expect(shown).not.toMatch(/<|html|Bad Gateway<\/title>/);
      await screenshot(page, 'tools-audit-502');

      await page.unroute('**/api/v1/calc/**');
      await page.route('**/api/v1/calc/**', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Calculate' }).click();
      const down = await settledText(page.getByTestId('error'), /unreachable/);
      expect(down).toBe('The service is unreachable: check your connection and try again.');
      await screenshot(page, 'tools-audit-down');
    });
    await page.context().close();
  });

  it('the error summary names fields by their labels, links to them, says "required" and "digits only", never "below" (375 px)', async () => {
    const { page } = await newToolPage(suite.browser, { width: 375, height: 812 });
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/calc/') && sent.push(r.url()));
    await withScreenshotOnFailure(page, 'audit-summary', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      await page.getByLabel('Starting NAV').fill('');
      await page.getByLabel('Horizon').fill('10,000');
      await page.getByLabel('Management fee').fill('2%');
      await page.getByRole('button', { name: 'Calculate' }).click();
      const summary = page.getByTestId('error');
      await summary.waitFor();
      expect(sent).toEqual([]); // refused in the browser: nothing was guessed or sent
      const text = (await summary.textContent()) ?? '';
      expect(text).toContain('3 inputs need fixing');
      expect(text).toContain('Starting NAV (USD): required: enter a number.');
      expect(text).not.toMatch(/startingNavUsd|horizonYears|below/);
      expect(await page.getByTestId('field-error-horizonYears').textContent()).toMatch(/digits only.*10000000/);
      expect(await page.getByTestId('field-error-mgmtFeePct').textContent()).toMatch(/digits only.*15 for 15 %/);
      await screenshot(page, 'tools-audit-summary-375');
      await summary.getByRole('link', { name: 'Starting NAV (USD)' }).click();
      expect(await activeId(page)).toBe('f-startingNavUsd');

      // the calculator's own refusal reads the same way: the label, not the API's field name
      await page.getByLabel('Starting NAV').fill('1000000');
      await page.getByLabel('Horizon').fill('ten');
      await page.getByLabel('Management fee').fill('2');
      expect((await calculate(page)).status()).toBe(400);
      const refused = await settledText(summary, /must be a number/);
      expect(refused).toBe('One input needs fixing:Horizon (years): must be a number');
      await summary.getByRole('link', { name: 'Horizon (years)' }).click();
      expect(await activeId(page)).toBe('f-horizonYears');
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
    await page.context().close();
  });

  it('fee calculator: the horizon help states the real minimum and the answer says how many periods were computed', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'audit-horizon', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      await page.getByLabel('Horizon').waitFor();
      const bounds = await page.locator('#f-horizonYears-bounds').textContent();
      expect(bounds).toContain('at least 0.5 years with annual crystallization (0.125 with quarterly)');
      expect(bounds).not.toContain('above 0');
      await page.getByLabel('Horizon').fill('2.6');
      const answer = await (await calculate(page)).json();
      expect(answer.assumptions).toMatchObject({ periodCount: 3, years: 3 });
      expect(await page.getByTestId('fee-horizon').textContent()).toBe(
        'Computed over 3 annual periods, 3 years (the 2.6 years asked for, rounded to whole periods).',
      );
      await screenshot(page, 'tools-audit-horizon');
    });
    await page.context().close();
  });

  it('Calculate keeps the focus while the calculation runs', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'audit-busy', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/operating-cost-calculator`);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/v1/calc/**', async (route) => {
        await held;
        await route.continue();
      });
      const button = page.getByRole('button', { name: 'Calculate' });
      // the button is disabled until the form has loaded, and a disabled button cannot take the focus
      await page.locator('button[type="submit"]:enabled').waitFor();
      await button.focus();
      await page.keyboard.press('Enter');
      await page.getByText('Calculating…').waitFor();
      expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Calculate');
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Enter'); // a second press while busy sends nothing more
      await screenshot(page, 'tools-audit-busy');
      release();
      await page.getByTestId('result').waitFor();
    });
    await page.context().close();
  });

  it('the key panel names the plans that raise the cap; a refused key clears the last cap and is marked at the key field', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'audit-key', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      const summary = page.getByText('Developer or platform plan? Use your calculator key for a higher daily cap');
      await summary.click();
      const help = await page.locator('#calc-key-help').textContent();
      expect(help).toContain('Without a key the cap is 500 calculations a day per address');
      expect(help).toContain('A developer-plan key raises it to 10,000 a day and a platform-plan key to 100,000');
      expect(help).toContain('a free-plan key keeps 500');

      const key = await mintKey(suite.server.app, { scopes: [], plan: 'developer' });
      const field = page.getByLabel('Calculator key (optional)');
      await field.fill(key.key);
      expect((await calculate(page)).status()).toBe(200);
      expect(await settledText(page.getByTestId('rate-limit'), /10000 calculations/)).toMatch(/Daily cap: 10000/);

      await field.fill('svc_dk_not-a-real-key');
      await summary.click(); // folded away before calculating
      expect((await calculate(page)).status()).toBe(401);
      const error = await settledText(page.getByTestId('error'), /key/);
      expect(error).toMatch(/^The calculator key was refused \(.+\)\. Correct the Calculator key field/);
      expect(await page.getByTestId('rate-limit').textContent()).not.toContain('10000');
      expect(await page.locator('details.key-field').getAttribute('open')).not.toBeNull();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByTestId('key-error').textContent()).toMatch(/^Calculator key refused: /);
      await screenshot(page, 'tools-audit-key-refused');
      await page.getByTestId('error').getByRole('link', { name: 'Calculator key' }).click();
      expect(await activeId(page)).toBe('calc-key');
    });
    await page.context().close();
  });

  it('huge figures read as powers of ten and the axis labels stay inside the chart', async () => {
    const { page } = await newToolPage(suite.browser, { width: 375, height: 812 });
    await withScreenshotOnFailure(page, 'audit-huge', async () => {
      await page.goto(
        `${suite.server.baseUrl}/tools/fee-calculator?annualGrossReturnPct=1000&horizonYears=100&hurdlePct=&calc=1`,
      );
      await page.getByTestId('result').waitFor();
      const ending = (await page.getByTestId('figure-endingNavUsd').textContent()) ?? '';
      expect(ending).toMatch(/^\d\.\d{3} × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/);
      expect(await page.getByTestId('figure-endingNavUsd').getAttribute('title')).toMatch(/^Exactly \d\.\d+e\+\d+$/);
      const chart = page.getByTestId('chart').first();
      await chart.locator('.recharts-wrapper > svg text').first().waitFor({ state: 'attached' });
      const box = (await chart.locator('.recharts-wrapper > svg').first().boundingBox())!;
      const ticks = await chart
        .locator('.recharts-wrapper > svg text')
        .evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, right: r.right })),
        );
      expect(ticks.length).toBeGreaterThan(1);
      for (const t of ticks) {
        expect(t.top).toBeGreaterThanOrEqual(box.y - 1);
        expect(t.left).toBeGreaterThanOrEqual(box.x - 1);
        expect(t.right).toBeLessThanOrEqual(box.x + box.width + 1);
      }
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBe(375);
      await screenshot(page, 'tools-audit-huge-375');
    });
    await page.context().close();
  });

  it('back-office savings: the automated model names items as the line items do; the chart’s labels do not overlap', async () => {
    const { page } = await newToolPage(suite.browser, { width: 1440, height: 900 });
    await withScreenshotOnFailure(page, 'audit-savings', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/back-office-savings?calc=1`);
      await page.getByTestId('result').waitFor();
      const model = page.getByRole('region', { name: /reduction per item/ });
      const items = await model.locator('tbody tr td:first-child').allTextContents();
      expect(items).toContain('Finance and operations staff');
      expect(items.filter((i) => /^[a-z]+[A-Z]/.test(i))).toEqual([]); // no financeHire, lpReporting…
      const chart = page.getByTestId('chart').first();
      await chart.locator('.recharts-wrapper > svg text').first().waitFor({ state: 'attached' });
      const grid = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
      // the item labels: the texts left of the plot (the value axis is below it)
      const all = await chart
        .locator('.recharts-wrapper > svg text')
        .evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom, right: r.right })),
        );
      const labels = all.filter((r) => r.right <= grid.x + 1).sort((p, q) => p.top - q.top);
      expect(labels.length).toBe(9);
      for (let i = 1; i < labels.length; i++) expect(labels[i].top).toBeGreaterThanOrEqual(labels[i - 1].bottom - 1);
    });
    await page.context().close();
  });
});
