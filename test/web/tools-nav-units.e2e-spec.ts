import { screenshot, useBrowserSuite, watchPageErrors, withScreenshotOnFailure } from '../utils/browser';
import { calculate, newToolPage } from './tools-helpers';

describe('NAV validator page: what each check is measured in (headless Chromium)', () => {
  const suite = useBrowserSuite({}, { TRUSTED_PROXIES: '127.0.0.1' });

  it('the checks table says whether expected and actual are USD or a rate in percent', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'tool-nav-units', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/nav-validator`);
      await page.getByRole('button', { name: 'Calculate' }).waitFor();
      expect((await calculate(page)).status()).toBe(200);
      const table = page.getByRole('table', { name: 'Checks: expected and actual' });
      await table.waitFor();
      await expect(table.getByRole('columnheader', { name: 'In' }).count()).resolves.toBe(1);
      const cells = async (check: string) =>
        (await table.getByRole('row', { name: new RegExp(check) }).allTextContents())[0];
      await expect(cells('roll-forward')).resolves.toMatch(/USD$/);
      await expect(cells('mgmt-fee-rate')).resolves.toMatch(/%$/);
      await table.scrollIntoViewIfNeeded();
      await screenshot(page, 'tool-nav-units');
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a hurdle entered on the form is tested: the fee on the gain above it passes', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'tool-nav-hurdle', async () => {
      // 10 M, 90 days, gross 500 000, management fee 49 315.07, 8 % hard hurdle → 20 % of the gain above it = 51 821.19
      const figures = {
        contributionsUsd: '0',
        withdrawalsUsd: '0',
        grossPnlUsd: '500000',
        mgmtFeeUsd: '49315.07',
        perfFeeUsd: '51821.19',
        otherExpensesUsd: '0',
        reportedClosingNavUsd: '10398863.74',
        hasHwm: 'false',
      };
      await page.goto(`${suite.server.baseUrl}/tools/nav-validator?${new URLSearchParams(figures).toString()}`);
      await page.getByLabel('Hurdle').fill('8');
      expect((await calculate(page)).status()).toBe(200);
      const perf = page.getByRole('listitem').filter({ hasText: 'perf-fee-rate' });
      await expect(perf.textContent()).resolves.toContain('20 % of the net gain above the 8 % hurdle');
      await expect(page.getByTestId('result').textContent()).resolves.toMatch(/4 passed, 0 warnings/);
      await screenshot(page, 'tool-nav-hurdle');
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
