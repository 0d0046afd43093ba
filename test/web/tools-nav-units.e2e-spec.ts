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
});
