import {
  screenshot,
  seriousA11yViolations,
  useBrowserSuite,
  watchPageErrors,
  withScreenshotOnFailure,
} from '../utils/browser';
import { randomIp } from '../utils/app';
import {
  asShown,
  calculate,
  clippedTables,
  memberOf,
  newToolPage,
  pageWidth,
  repeatedLabels,
  shownFigures,
  TOOL_NAMES,
} from './tools-helpers';

describe('free web tools: every page (headless Chromium)', () => {
  const suite = useBrowserSuite({}, { TRUSTED_PROXIES: '127.0.0.1' });

  it('/tools lists the seven tools with what each answers, accessibly', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'tools-index', async () => {
      await page.goto(`${suite.server.baseUrl}/tools`);
      await page.getByRole('heading', { level: 1, name: 'Free fund tools' }).waitFor();
      const hrefs = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(expect.arrayContaining(TOOL_NAMES.map((n) => `/tools/${n}`)));
      expect(await page.locator('.tool-list li p').count()).toBe(7);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'tools-index');
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it.each(TOOL_NAMES)(
    '%s at 1440 px: computes with the defaults, draws a chart, equals the REST answer, labels its results in its own words, fits, reproduces from its link, passes axe',
    async (name) => {
      const { page } = await newToolPage(suite.browser, { width: 1440, height: 900 });
      const errors = watchPageErrors(page);
      await withScreenshotOnFailure(page, `tool-${name}`, async () => {
        await page.goto(`${suite.server.baseUrl}/tools/${name}`);
        await page.getByRole('button', { name: 'Calculate' }).waitFor();
        await page.locator('form .field').first().waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);

        const response = await calculate(page);
        expect(response.status()).toBe(200);
        const sent = response.request().postData()!;
        const pageAnswerText = await response.text();
        await page.getByTestId('result').waitFor();
        await page.getByTestId('chart').first().locator('svg').first().waitFor();
        await expect(page.getByTestId('result').textContent()).resolves.toContain(
          'Illustrative estimates, not accounting or tax advice',
        );

        // the same input through REST, from another client: the same bytes, and the figures shown verbatim
        const rest = await fetch(`${suite.server.baseUrl}/api/v1/calc/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
          body: sent,
        });
        const restText = await rest.text();
        expect(restText).toBe(pageAnswerText);
        const answer = JSON.parse(restText);
        const figures = await shownFigures(page);
        expect(Object.keys(figures).length).toBeGreaterThanOrEqual(2);
        for (const [member, text] of Object.entries(figures)) {
          expect(memberOf(answer, member)).not.toBeUndefined();
          expect(text).toBe(asShown(memberOf(answer, member)));
        }
        // the cap and what is left, from the RateLimit headers
        await expect(page.getByTestId('rate-limit').textContent()).resolves.toMatch(
          /Daily cap: 500 calculations · 499 left/,
        );
        expect(await repeatedLabels(page)).toEqual([]);
        expect(await clippedTables(page)).toEqual([]);
        expect(await pageWidth(page)).toBe(1440);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `tool-${name}`);

        // the link reproduces the result
        expect(page.url()).toContain('calc=1');
        const again = await page.context().newPage();
        await again.goto(page.url());
        await again.getByTestId('result').waitFor();
        expect(await shownFigures(again)).toEqual(figures);
      });
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );
});
