import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  screenshot,
  seriousA11yViolations,
  settledText,
  useBrowserSuite,
  watchPageErrors,
  withScreenshotOnFailure,
  type WebServer,
} from '../utils/browser';
import { mintKey, randomIp, type ResponseJson } from '../utils/app';
import { calculate, newToolPage } from './tools-helpers';
import { clearOfUtcMidnight, settledValue } from './wait';

async function restAnswer(server: WebServer, name: string, body: unknown): Promise<ResponseJson> {
  const res = await fetch(`${server.baseUrl}/api/v1/calc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('free web tools: behaviour (headless Chromium)', () => {
  const suite = useBrowserSuite({}, { TRUSTED_PROXIES: '127.0.0.1' });

  it('fee calculator: two numbers changed → the REST figures, the NAV paths drawn, a link that reproduces, JSON and CSV downloads, clean print', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'fee-story', async () => {
      await page.goto(`${suite.server.baseUrl}/tools`);
      await page.getByRole('link', { name: 'Fee calculator' }).click();
      await page.getByLabel('Annual gross return').fill('12');
      await page.getByLabel('Horizon').fill('10');
      expect((await calculate(page)).status()).toBe(200);
      const rest = await restAnswer(suite.server, 'fee-calculator', { annualGrossReturnPct: 12, horizonYears: 10 });
      await expect(page.getByTestId('figure-endingNavUsd').textContent()).resolves.toBe(
        String(rest.totals.endingNavUsd),
      );
      await expect(page.getByTestId('figure-totalFeesUsd').textContent()).resolves.toBe(
        String(rest.totals.totalFeesUsd),
      );
      // the chart is drawn after the answer: ResponsiveContainer measures its box in an effect, then draws
      const navLines = page.getByTestId('chart').first().locator('.recharts-line');
      expect(await settledValue(() => navLines.count(), 2)).toBe(2);
      const url = new URL(page.url());
      expect(url.pathname).toBe('/tools/fee-calculator');
      expect(url.searchParams.get('annualGrossReturnPct')).toBe('12');
      expect(url.searchParams.get('horizonYears')).toBe('10');
      expect(url.searchParams.has('mgmtFeePct')).toBe(false); // defaults stay out of the link

      const [json] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download JSON' }).click(),
      ]);
      expect(JSON.parse(readFileSync(await json.path(), 'utf8'))).toEqual(rest);
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const lines = readFileSync(await csv.path(), 'utf8')
        .trim()
        .split('\n');
      expect(lines[0]).toBe(
        'period,label,openingNav,grossReturnUsd,mgmtFeeUsd,hurdleThresholdNav,perfFeeUsd,closingNav,highWaterMark,grossNav',
      );
      expect(lines).toHaveLength(11);
      expect(lines[10].split(',')[7]).toBe(String(rest.periods[9].closingNav));

      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('form.tool-form').isVisible()).toBe(false);
      expect(await page.getByTestId('result').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Download JSON' }).isVisible()).toBe(false);
      await screenshot(page, 'tools-fee-print');
      await page.emulateMedia({ media: 'screen' });
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the calculator’s own field errors next to the fields and keeps what was typed', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'fee-field-errors', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      await page.getByLabel('Horizon').fill('ten');
      await page.getByLabel('Management fee').fill('150');
      expect((await calculate(page)).status()).toBe(400);
      await page.getByTestId('error').waitFor();
      await expect(page.getByTestId('field-error-horizonYears').textContent()).resolves.toContain('must be a number');
      await expect(page.getByTestId('field-error-mgmtFeePct').textContent()).resolves.toContain('at most 100');
      expect(await page.getByLabel('Horizon').inputValue()).toBe('ten');
      expect(await page.getByLabel('Management fee').inputValue()).toBe('150');
      expect(await page.getByLabel('Management fee').getAttribute('aria-invalid')).toBe('true');
      // a number too large for JSON (Infinity would travel as null: "no hurdle") is sent as typed and refused
      await page.getByLabel('Horizon').fill('10');
      await page.getByLabel('Management fee').fill('2');
      await page.getByLabel('Hurdle').fill('1e999');
      const huge = await calculate(page);
      expect(huge.status()).toBe(400);
      expect(JSON.parse(huge.request().postData()!).hurdlePct).toBe('1e999');
      await page.getByTestId('field-error-hurdlePct').waitFor();
      expect(await page.getByTestId('result').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'tools-fee-field-errors');
    });
    await page.context().close();
  });

  it('CSV fields: an oversize file is refused before upload naming the limit; a file sets inputMethod upload, the table sets manual', async () => {
    const { page } = await newToolPage(suite.browser);
    const calcRequests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/calc/') && calcRequests.push(r.url()));
    await withScreenshotOnFailure(page, 'exposure-upload', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/exposure-analysis`);
      const file = page.locator('#f-positionsCsv-file');
      await file.setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.alloc(600 * 1024, 'a') });
      await expect(page.getByTestId('upload-error-positionsCsv').textContent()).resolves.toMatch(
        /big\.csv is 600 KiB: the limit is 512 KiB/,
      );
      expect(calcRequests).toEqual([]);

      const csv = 'Asset,Value,Venue,Class\nBTC,1000,Kraken,crypto\nSPY,-250,IBKR,equity\n';
      await file.setInputFiles({ name: 'book.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('Entered by: upload').waitFor(); // the file is read asynchronously
      await expect(page.getByText('Entered by: upload').count()).resolves.toBe(1);
      let res = await calculate(page);
      let answer = await res.json();
      expect(answer.assumptions.inputMethod).toBe('upload');
      expect(answer.positionsCount).toBe(2);
      await expect(page.getByTestId('figure-longUsd').textContent()).resolves.toBe('1000');

      await page.getByLabel('Positions: Value, row 2').fill('-500');
      await page.getByText('Entered by: manual').waitFor();
      await expect(page.getByText('Entered by: manual').count()).resolves.toBe(1);
      res = await calculate(page);
      answer = await res.json();
      expect(answer.assumptions.inputMethod).toBe('manual');
      expect(await settledText(page.getByTestId('figure-shortUsd'), /^500$/)).toBe('500');
    });
    await page.context().close();
  });

  it('CSV table: "Add a row" adds an empty row with focus in its first cell; a row cleared cell by cell stays while editing', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'exposure-add-row', async () => {
      const book = 'Asset,Value,Venue,Class\nBTC,1000,Kraken,crypto';
      await page.goto(`${suite.server.baseUrl}/tools/exposure-analysis?positionsCsv=${encodeURIComponent(book)}`);
      const rows = page.locator('.csv-table tbody tr');
      await rows.nth(1).waitFor();
      expect(await rows.count()).toBe(2);
      await page.getByRole('button', { name: 'Add a row' }).click();
      expect(await rows.count()).toBe(3);
      const focused = () => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");
      expect(await settledValue(focused, 'Positions: Asset, row 2')).toBe('Positions: Asset, row 2');
      for (const cell of ['ETH', '300', 'Coinbase', 'crypto']) {
        await page.keyboard.type(cell);
        await page.keyboard.press('Tab');
      }
      await expect(page.getByLabel('Positions: Venue, row 2').inputValue()).resolves.toBe('Coinbase');
      let answer = await (await calculate(page)).json();
      expect(answer.positionsCount).toBe(2);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'tools-exposure-add-row');

      // the first row emptied one cell at a time: it stays on screen, the focus in the cell being edited
      for (const column of ['Asset', 'Value', 'Venue', 'Class']) {
        const input = page.getByLabel(`Positions: ${column}, row 1`);
        await input.focus();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
        expect(await rows.count()).toBe(3);
        expect(await settledValue(focused, `Positions: ${column}, row 1`)).toBe(`Positions: ${column}, row 1`);
      }
      await page.keyboard.type('X');
      await expect(page.getByLabel('Positions: Class, row 1').inputValue()).resolves.toBe('X');
      await page.keyboard.press('Backspace');
      answer = await (await calculate(page)).json(); // the blank row is not a position
      expect(answer.positionsCount).toBe(1);
      expect(await settledText(page.getByTestId('figure-longUsd'), /^300$/)).toBe('300');
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a number field names its "Allowed: …" bounds in aria-describedby; an unknown tool has a title and a heading', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'tools-a11y-audit', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/fee-calculator`);
      const horizon = page.getByLabel('Horizon');
      await horizon.waitFor();
      const ids = (await horizon.getAttribute('aria-describedby'))!.split(' ');
      const notes = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(notes.some((n) => /^Allowed: /.test(n ?? ''))).toBe(true);

      await page.goto(`${suite.server.baseUrl}/tools/no-such-thing`);
      await page.getByRole('heading', { level: 1, name: 'No such tool' }).waitFor();
      expect(await settledValue(() => page.title(), 'No such tool — fundgate free tools')).toBe(
        'No such tool — fundgate free tools',
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'tools-no-such-tool');
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a downloaded CSV never carries a formula: a venue or class named =… from a shared link is written as text', async () => {
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'exposure-csv-injection', async () => {
      const book =
        'Asset,Value,Venue,Class\nBTC,1000,"=HYPERLINK(""http://x.example"",""y"")",@SUM(1)\nSPY,-250,IBKR,equity';
      await page.goto(
        `${suite.server.baseUrl}/tools/exposure-analysis?positionsCsv=${encodeURIComponent(book)}&calc=1`,
      );
      await page.getByTestId('result').waitFor();
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const text = readFileSync(await csv.path(), 'utf8');
      expect(text).toContain(`class,'@sum(1)`);
      expect(text).toContain(`venue,"'=HYPERLINK(""http://x.example"",""y"")"`);
      expect(text).toContain('class,equity,0,250,-250,250,20'); // numbers (negative ones too) stay numbers
      expect(text.split('\n').some((line) => /(^|,)[=@+]/.test(line))).toBe(false);
    });
    await page.context().close();
  });

  it('exposure analysis: a hedged asset shows its net, its legs and a net weight in the top-5 table', async () => {
    const { page } = await newToolPage(suite.browser);
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'exposure-hedged', async () => {
      const book =
        'Asset,Value,Venue,Class\nBTC,1000,Coinbase,crypto\nBTC,-1000,Deribit,crypto\nETH,500,Coinbase,crypto';
      await page.goto(
        `${suite.server.baseUrl}/tools/exposure-analysis?positionsCsv=${encodeURIComponent(book)}&calc=1`,
      );
      await page.getByTestId('result').waitFor();
      const table = page.locator('#exposure-top5');
      await expect(table.locator('thead th').allTextContents()).resolves.toEqual([
        'Asset',
        'Net USD',
        'Gross USD (both legs)',
        'Weight % (net)',
      ]);
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows.map((r) => [r[0], r[3]])).toEqual([
        ['ETH', '100'],
        ['BTC', '0'],
      ]);
      await screenshot(page, 'tools-exposure-hedged');
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('works at 375 px wide: no sideways scrolling, chart drawn, axe clean', async () => {
    const { page } = await newToolPage(suite.browser, { width: 375, height: 812 });
    const errors = watchPageErrors(page);
    await withScreenshotOnFailure(page, 'fee-375', async () => {
      for (const name of ['fee-calculator', 'exposure-analysis']) {
        await page.goto(`${suite.server.baseUrl}/tools/${name}`);
        await calculate(page);
        await page.getByTestId('chart').first().locator('svg').first().waitFor();
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `tools-${name}-375`);
      }
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a page on another origin (another port) calls the keyless fee calculator through CORS', async () => {
    const api = suite.server.baseUrl;
    const html = `<!doctype html><html lang="en"><head><title>elsewhere</title></head><body><pre id="out">pending</pre><script>
      fetch(${JSON.stringify(api)} + '/api/v1/calc/fee-calculator', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ horizonYears: 3 }) })
        .then(async (r) => { document.getElementById('out').textContent = JSON.stringify({ status: r.status, rateLimit: r.headers.get('RateLimit'), answer: await r.json() }); })
        .catch((e) => { document.getElementById('out').textContent = 'failed: ' + e; });
    </script></body></html>`;
    const other: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const page = await suite.browser.newPage();
    try {
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      expect(origin).not.toBe(api);
      await page.goto(`${origin}/`);
      await page.waitForFunction("document.getElementById('out')?.textContent !== 'pending'");
      const out = JSON.parse((await page.locator('#out').textContent())!);
      expect(out.status).toBe(200);
      expect(out.rateLimit).toMatch(/r=\d+/);
      expect(out.answer).toEqual(await restAnswer(suite.server, 'fee-calculator', { horizonYears: 3 }));
    } finally {
      await page.close();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('free web tools: the daily cap (calc-daily = 2)', () => {
  const suite = useBrowserSuite(
    {},
    { TRUSTED_PROXIES: '127.0.0.1', RATE_LIMITS: JSON.stringify({ 'calc-daily': { free: 2 } }) },
  );

  it('counts down from the RateLimit headers and shows a 429 as a clear message with the reset time', async () => {
    await clearOfUtcMidnight(); // the three calculations below share one UTC day's window
    const { page } = await newToolPage(suite.browser);
    await withScreenshotOnFailure(page, 'tools-429', async () => {
      await page.goto(`${suite.server.baseUrl}/tools/operating-cost-calculator`);
      await calculate(page);
      await expect(page.getByTestId('rate-limit').textContent()).resolves.toMatch(
        /Daily cap: 2 calculations · 1 left · resets in/,
      );
      await calculate(page);
      expect(await settledText(page.getByTestId('rate-remaining'), /^0$/)).toBe('0');
      expect((await calculate(page)).status()).toBe(429);
      const text = await page.getByTestId('error').textContent();
      expect(text).toMatch(/Daily limit reached: all 2 calculations of today are used/);
      expect(text).toMatch(/It resets at \d\d:\d\d UTC, in \d+ (h|min|s)/);
      await screenshot(page, 'tools-429');

      // a calculator key (minted in the console) raises the cap: the page sends it as a bearer token
      const key = await mintKey(suite.server.app, { scopes: [], plan: 'developer' });
      await page.getByText('Developer or platform plan? Use your calculator key for a higher daily cap').click();
      // the panel states this deployment's caps (RATE_LIMITS, published in the API document), not the defaults
      const help = await page.locator('#calc-key-help').textContent();
      expect(help).toContain('Without a key the cap is 2 calculations a day per address');
      expect(help).toContain('a platform-plan key to 100,000; a free-plan key keeps 2');
      expect(help).not.toContain('defaults');
      await page.getByLabel('Calculator key (optional)').fill(key.key);
      const withKey = await calculate(page);
      expect(withKey.status()).toBe(200);
      expect(withKey.request().headers()['authorization']).toBe(`Bearer ${key.key}`);
      expect(await settledText(page.getByTestId('rate-limit'), /10000 calculations/)).toMatch(
        /Daily cap: 10000 calculations · 9999 left/,
      );
      expect(await page.getByTestId('error').count()).toBe(0);
    });
    await page.context().close();
  });
});
