import {
  screenshot,
  seriousA11yViolations,
  useBrowserSuite,
  watchPageErrors,
  withScreenshotOnFailure,
} from '../utils/browser';

describe('landing page and web shell (headless Chromium)', () => {
  const suite = useBrowserSuite();

  it('/ says what the service is and links to the console, the tools, the API reference and MCP', async () => {
    const page = await suite.browser.newPage();
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'landing', async () => {
      const res = await page.goto(`${suite.server.baseUrl}/`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.getByRole('heading', { level: 1, name: 'The API in front of your fund' }).waitFor();
      const hrefs = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(expect.arrayContaining(['/console', '/tools', '/api/docs', '/tools/fee-calculator']));
      await expect(page.locator('main').textContent()).resolves.toContain('/api/mcp/public');
      // the tools by their titles and their own one-line questions (the operating cost tool answers in bp, not per million)
      const tools = page.getByRole('region', { name: 'Free web tools' });
      await expect(tools.getByRole('link').allTextContents()).resolves.toEqual([
        'Fee calculator',
        'NAV validator',
        'Exposure analysis',
        'Operating cost calculator',
        'Back-office savings',
        'Fund health check',
        'LP report grader',
      ]);
      const listed = (await tools.textContent()) ?? '';
      expect(listed).not.toContain('per million');
      expect(listed).toContain('in basis points of AUM');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'landing');
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves each single-page app under its prefix and hashed assets as immutable', async () => {
    for (const path of ['/console', '/console/keys', '/tools', '/tools/fee-calculator']) {
      const res = await fetch(`${suite.server.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset).toBeDefined();
      const js = await fetch(`${suite.server.baseUrl}${asset}`);
      expect(js.status).toBe(200);
      expect(js.headers.get('cache-control')).toContain('immutable');
    }
    const missing = await fetch(`${suite.server.baseUrl}/assets/nope.js`);
    expect(missing.status).toBe(404);
  });

  it("/api/docs renders the API reference under the pages' policy (no framing, same-origin scripts only)", async () => {
    const page = await suite.browser.newPage();
    const errors = watchPageErrors(page); // a script or style the policy blocks is a console error
    await withScreenshotOnFailure(page, 'api-docs', async () => {
      const res = await page.goto(`${suite.server.baseUrl}/api/docs`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      expect(res?.headers()['x-frame-options']).toBe('DENY');
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
      await screenshot(page, 'api-docs');
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps API 404s as problem+json', async () => {
    const res = await fetch(`${suite.server.baseUrl}/api/v1/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
