import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootApp, call, randomIp, type TestApp } from '../utils/app';
import { CALC_PATHS, expectProblem, fieldErrors } from './helpers';

/** Each case: a body and every `field: message` the 400 must list (order-free). */
const INVALID: { name: string; path: string; body: unknown; errors: string[] }[] = [
  // wrong types: no coercion
  {
    name: 'a string where a number goes',
    path: 'fee-calculator',
    body: { startingNavUsd: '1000' },
    errors: ['startingNavUsd: must be a number'],
  },
  {
    name: 'a numeric string for a percentage',
    path: 'nav-validator',
    body: { mgmtFeePct: '2' },
    errors: ['mgmtFeePct: must be a number'],
  },
  {
    name: 'a string for a cost',
    path: 'operating-cost-calculator',
    body: { auditUsd: '75000' },
    errors: ['auditUsd: must be a number'],
  },
  {
    name: 'an array and an object where numbers go',
    path: 'back-office-savings',
    body: { legalUsd: [1], softwareUsd: { usd: 1 } },
    errors: ['legalUsd: must be a number', 'softwareUsd: must be a number'],
  },
  {
    name: 'a string where a boolean goes',
    path: 'fee-calculator',
    body: { hasHwm: 'true' },
    errors: ['hasHwm: must be true or false'],
  },
  {
    name: 'a number where a boolean goes',
    path: 'fund-health-check',
    body: { hasFundAdmin: 1, hasAnnualAudit: 0 },
    errors: ['hasAnnualAudit: must be true or false', 'hasFundAdmin: must be true or false'],
  },
  {
    name: 'a number where a CSV goes',
    path: 'exposure-analysis',
    body: { positionsCsv: 5 },
    errors: ['positionsCsv: must be a string'],
  },
  {
    name: 'a number where the report goes',
    path: 'lp-report-grader',
    body: { reportText: 42 },
    errors: ['reportText: must be a string'],
  },
  {
    name: 'a number where a date goes',
    path: 'nav-validator',
    body: { periodStart: 20250101 },
    errors: ['periodStart: must be a calendar date YYYY-MM-DD'],
  },
  // null only where allowed
  {
    name: 'null for a number without null',
    path: 'fee-calculator',
    body: { startingNavUsd: null, horizonYears: null },
    errors: ['horizonYears: must be a number', 'startingNavUsd: must be a number'],
  },
  {
    name: 'null for a boolean and an enum',
    path: 'fee-calculator',
    body: { hasHwm: null, crystallization: null },
    errors: ['crystallization: must be one of annual, quarterly', 'hasHwm: must be true or false'],
  },
  {
    name: 'null for a CSV and a date',
    path: 'nav-validator',
    body: { lpRowsCsv: null, periodEnd: null },
    errors: ['lpRowsCsv: must be a string', 'periodEnd: must be a calendar date YYYY-MM-DD'],
  },
  {
    name: 'null for the report text',
    path: 'lp-report-grader',
    body: { reportText: null },
    errors: ['reportText: must be a string'],
  },
  {
    name: 'a string for a nullable number',
    path: 'exposure-analysis',
    body: { navUsd: '1000' },
    errors: ['navUsd: must be a number or null'],
  },
  // enums
  {
    name: 'crystallization',
    path: 'fee-calculator',
    body: { crystallization: 'monthly' },
    errors: ['crystallization: must be one of annual, quarterly'],
  },
  {
    name: 'inputMethod (nav-validator)',
    path: 'nav-validator',
    body: { inputMethod: 'api' },
    errors: ['inputMethod: must be one of upload, manual'],
  },
  {
    name: 'inputMethod (exposure-analysis)',
    path: 'exposure-analysis',
    body: { inputMethod: 'Upload' },
    errors: ['inputMethod: must be one of upload, manual'],
  },
  {
    name: 'inputMethod (lp-report-grader)',
    path: 'lp-report-grader',
    body: { inputMethod: '' },
    errors: ['inputMethod: must be one of upload, manual'],
  },
  {
    name: 'navFrequency',
    path: 'fund-health-check',
    body: { navFrequency: 'hourly' },
    errors: ['navFrequency: must be one of daily, weekly, monthly, quarterly'],
  },
  {
    name: 'reconFrequency',
    path: 'fund-health-check',
    body: { reconFrequency: 'never' },
    errors: ['reconFrequency: must be one of daily, weekly, monthly, rarely'],
  },
  {
    name: 'lpReportingFrequency',
    path: 'fund-health-check',
    body: { lpReportingFrequency: 'annual' },
    errors: ['lpReportingFrequency: must be one of monthly, quarterly, adhoc'],
  },
  {
    name: 'reportingFrequency',
    path: 'lp-report-grader',
    body: { reportingFrequency: 'weekly' },
    errors: ['reportingFrequency: must be one of monthly, quarterly, adhoc'],
  },
  // impossible values
  {
    name: 'a zero starting NAV',
    path: 'fee-calculator',
    body: { startingNavUsd: 0 },
    errors: ['startingNavUsd: must be at least 0.01 and at most 1000000000000000'],
  },
  {
    // a divisor under a cent overflowed the ratio it divides to null
    name: 'divisors under a cent',
    path: 'operating-cost-calculator',
    body: { aumUsd: 1e-300 },
    errors: ['aumUsd: must be at least 0.01 and at most 1000000000000000'],
  },
  {
    name: 'an AUM under a cent in the health check',
    path: 'fund-health-check',
    body: { aumUsd: 0.001 },
    errors: ['aumUsd: must be at least 0.01 and at most 1000000000000000'],
  },
  {
    name: 'negative NAVs',
    path: 'nav-validator',
    body: { openingNavUsd: -1, reportedClosingNavUsd: -0.01 },
    errors: [
      'openingNavUsd: must be at least 0 and at most 1000000000000000',
      'reportedClosingNavUsd: must be at least 0 and at most 1000000000000000',
    ],
  },
  {
    name: 'a negative navUsd',
    path: 'exposure-analysis',
    body: { navUsd: -5 },
    errors: ['navUsd: must be at least 0.01 and at most 1000000000000000'],
  },
  {
    name: 'negative costs and fees booked',
    path: 'nav-validator',
    body: { mgmtFeeUsd: -1, perfFeeUsd: -1, otherExpensesUsd: -1, withdrawalsUsd: -1, contributionsUsd: -1 },
    errors: [
      'contributionsUsd: must be at least 0 and at most 1000000000000000',
      'mgmtFeeUsd: must be at least 0 and at most 1000000000000000',
      'otherExpensesUsd: must be at least 0 and at most 1000000000000000',
      'perfFeeUsd: must be at least 0 and at most 1000000000000000',
      'withdrawalsUsd: must be at least 0 and at most 1000000000000000',
    ],
  },
  {
    name: 'negative operating costs',
    path: 'operating-cost-calculator',
    body: { financeHireUsd: -100, costPerReportUsd: -1 },
    errors: [
      'costPerReportUsd: must be at least 0 and at most 1000000000000000',
      'financeHireUsd: must be at least 0 and at most 1000000000000000',
    ],
  },
  {
    name: 'fee rates over 100 %',
    path: 'fee-calculator',
    body: { mgmtFeePct: 101, perfFeePct: 100.5, hurdlePct: 150 },
    errors: [
      'hurdlePct: must be at least 0 and at most 100',
      'mgmtFeePct: must be at least 0 and at most 100',
      'perfFeePct: must be at least 0 and at most 100',
    ],
  },
  {
    name: 'fee rates over 100 % (health check)',
    path: 'fund-health-check',
    body: { mgmtFeePct: 200, perfFeePct: -1 },
    errors: ['mgmtFeePct: must be at least 0 and at most 100', 'perfFeePct: must be at least 0 and at most 100'],
  },
  {
    name: 'a return below -100 %',
    path: 'fee-calculator',
    body: { annualGrossReturnPct: -100.01 },
    errors: ['annualGrossReturnPct: must be at least -100 and at most 1000'],
  },
  {
    name: 'horizonYears 0',
    path: 'fee-calculator',
    body: { horizonYears: 0 },
    errors: ['horizonYears: must be greater than 0 and at most 100'],
  },
  {
    name: 'horizonYears over 100',
    path: 'fee-calculator',
    body: { horizonYears: 100.01 },
    errors: ['horizonYears: must be greater than 0 and at most 100'],
  },
  {
    name: 'horizonYears negative',
    path: 'fee-calculator',
    body: { horizonYears: -1 },
    errors: ['horizonYears: must be greater than 0 and at most 100'],
  },
  {
    name: 'horizonYears shorter than one annual period',
    path: 'fee-calculator',
    body: { horizonYears: 0.4 },
    errors: ['horizonYears: must cover at least one annual period (≥ 0.5 years)'],
  },
  {
    name: 'horizonYears shorter than one quarter',
    path: 'fee-calculator',
    body: { horizonYears: 0.1, crystallization: 'quarterly' },
    errors: ['horizonYears: must cover at least one quarterly period (≥ 0.125 years)'],
  },
  {
    name: 'an LP reporting line over the money bound (reports × cost per report)',
    path: 'operating-cost-calculator',
    body: { lpReportsPerYear: 1_000_000, costPerReportUsd: 1e15 },
    errors: [
      'costPerReportUsd: times lpReportsPerYear (1000000) is the LP reporting line, which must be at most 1000000000000000 USD',
    ],
  },
  {
    name: 'the same bound in back-office-savings, against the default report count',
    path: 'back-office-savings',
    body: { costPerReportUsd: 1e14 },
    errors: [
      'costPerReportUsd: times lpReportsPerYear (120) is the LP reporting line, which must be at most 1000000000000000 USD',
    ],
  },
  {
    name: 'a negative headcount',
    path: 'fund-health-check',
    body: { backOfficeHeadcount: -1, aumUsd: 0 },
    errors: [
      'aumUsd: must be at least 0.01 and at most 1000000000000000',
      'backOfficeHeadcount: must be at least 0 and at most 10000',
    ],
  },
  {
    name: 'money beyond a quadrillion',
    path: 'back-office-savings',
    body: { aumUsd: 1e16 },
    errors: ['aumUsd: must be at least 0.01 and at most 1000000000000000'],
  },
  // dates
  {
    name: 'dates that are not calendar dates',
    path: 'nav-validator',
    body: { periodStart: '2025-02-30', periodEnd: '2025/03/31' },
    errors: ['periodEnd: must be a calendar date YYYY-MM-DD', 'periodStart: must be a calendar date YYYY-MM-DD'],
  },
  {
    name: 'a timestamp is not a date',
    path: 'nav-validator',
    body: { periodStart: '2025-01-01T00:00:00Z' },
    errors: ['periodStart: must be a calendar date YYYY-MM-DD'],
  },
  {
    name: '2023-02-29 (not a leap year)',
    path: 'nav-validator',
    body: { periodEnd: '2023-02-29' },
    errors: ['periodEnd: must be a calendar date YYYY-MM-DD'],
  },
  {
    name: 'periodEnd before periodStart',
    path: 'nav-validator',
    body: { periodStart: '2025-03-31', periodEnd: '2025-01-01' },
    errors: ['periodEnd: must not be before periodStart (2025-03-31)'],
  },
  {
    name: 'periodEnd before the default periodStart',
    path: 'nav-validator',
    body: { periodEnd: '2024-12-31' },
    errors: ['periodEnd: must not be before periodStart (2025-01-01)'],
  },
  // unknown fields
  {
    name: 'an unknown field',
    path: 'fee-calculator',
    body: { startingNav: 100 },
    errors: ['startingNav: is not a known field'],
  },
  {
    name: 'a field of another calculator',
    path: 'lp-report-grader',
    body: { positionsCsv: 'Asset,Value,Venue,Class' },
    errors: ['positionsCsv: is not a known field'],
  },
  // every failing field at once
  {
    name: 'six different problems in one body',
    path: 'fee-calculator',
    body: {
      startingNavUsd: -5,
      annualGrossReturnPct: 'high',
      mgmtFeePct: 120,
      crystallization: 'weekly',
      horizonYears: 0,
      bonus: true,
    },
    errors: [
      'annualGrossReturnPct: must be a number',
      'bonus: is not a known field',
      'crystallization: must be one of annual, quarterly',
      'horizonYears: must be greater than 0 and at most 100',
      'mgmtFeePct: must be at least 0 and at most 100',
      'startingNavUsd: must be at least 0.01 and at most 1000000000000000',
    ],
  },
];

const HEADER = 'Asset,Value,Venue,Class';

describe('calculator validation (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());
  const post = (path: string, body: unknown, headers?: Record<string, string>) =>
    call(app, 'POST', `/api/v1/calc/${path}`, { body, headers, ip: randomIp() });

  it.each(INVALID)('$path: $name → 400 listing every field', async ({ path, body, errors }) => {
    const res = await post(path, body);
    expectProblem(res, 400, 'invalid_parameter');
    expect(fieldErrors(res)).toEqual([...errors].sort());
  });

  it('CSV rows come in a second round, as the README and docs/errors.md say', async () => {
    const body = { mgmtFeePct: -1, positionsCsv: `${HEADER}\nBTC,?,X,crypto` };
    expect(fieldErrors(await post('fund-health-check', body))).toEqual([
      'mgmtFeePct: must be at least 0 and at most 100',
    ]);
    expect(fieldErrors(await post('fund-health-check', { ...body, mgmtFeePct: 1 }))).toEqual([
      'positionsCsv: line 2: Value "?" is not a number',
    ]);
    const readme = readFileSync(join(__dirname, '../../src/calculators/README.md'), 'utf8');
    const heading = readme.split('\n').find((line) => line.startsWith('## Validation'));
    expect(heading).toMatch(/CSV rows in a second round/);
    expect(readme).toMatch(
      /a CSV field\s+\(`positionsCsv`, `lpRowsCsv`\) is read only once the other fields are valid/,
    );
  });

  it('the same bodies with the offending values fixed pass', async () => {
    expect((await post('fee-calculator', { horizonYears: 0.5 })).status).toBe(200);
    expect((await post('fee-calculator', { horizonYears: 0.125, crystallization: 'quarterly' })).status).toBe(200);
    expect(
      (await post('fee-calculator', { horizonYears: 100, mgmtFeePct: 100, perfFeePct: 0, annualGrossReturnPct: -100 }))
        .status,
    ).toBe(200);
    expect((await post('nav-validator', { periodStart: '2024-02-29', periodEnd: '2024-02-29' })).status).toBe(200);
    expect((await post('operating-cost-calculator', { lpReportsPerYear: 0, financeHireUsd: 0 })).status).toBe(200);
    // the interface types lpReportsPerYear as a number: an average of 4.5 reports a year is read
    const fractional = await post('operating-cost-calculator', { lpReportsPerYear: 4.5, costPerReportUsd: 100 });
    expect(fractional.status).toBe(200);
    expect(fractional.json.lineItems.find((l: { item: string }) => l.item === 'lpReporting').annualUsd).toBe(450);
    // exactly at the bound is fine
    expect((await post('operating-cost-calculator', { lpReportsPerYear: 1000, costPerReportUsd: 1e12 })).status).toBe(
      200,
    );
  });

  describe('CSV fields', () => {
    it('a wrong header is a 400 naming line 1', async () => {
      const res = await post('exposure-analysis', { positionsCsv: 'Ticker,Value,Venue,Class\nBTC,1,X,crypto' });
      expectProblem(res, 400, 'invalid_parameter');
      expect(fieldErrors(res)).toEqual([
        'positionsCsv: line 1: the header must be Asset,Value,Venue,Class (column Asset is missing; column "ticker" is not expected)',
      ]);
    });

    it('an empty positionsCsv is a 400 (exposure analysis needs positions)', async () => {
      expect(fieldErrors(await post('exposure-analysis', { positionsCsv: '' }))).toEqual([
        'positionsCsv: is empty: the first line must be the header Asset,Value,Venue,Class',
      ]);
    });

    it('quoted fields and CRLF are read; each bad row is reported by line number', async () => {
      const csv = `${HEADER}\r\n"BTC","1,000",Coinbase,crypto\r\nETH,abc,Kraken,crypto\r\n\r\n,5,X,equity\r\n"SOL ""staked""",12,"Kraken, EU",crypto\r\nXRP,1,2\r\n`;
      const res = await post('exposure-analysis', { positionsCsv: csv });
      expectProblem(res, 400, 'invalid_parameter');
      expect(res.json.errors).toEqual([
        { field: 'positionsCsv', message: 'line 3: Value "abc" is not a number' },
        { field: 'positionsCsv', message: 'line 5: Asset is empty' },
        { field: 'positionsCsv', message: 'line 7: expected 4 fields, found 3' },
      ]);
      const fixed = csv
        .replace('ETH,abc', 'ETH,2')
        .replace(',5,X,equity', 'SPY,5,X,equity')
        .replace('XRP,1,2', 'XRP,1,2,crypto');
      const ok = await post('exposure-analysis', { positionsCsv: fixed });
      expect(ok.status).toBe(200);
      expect(ok.json.positionsCount).toBe(5);
      expect(ok.json.exposure.longUsd).toBe(1020);
      expect(ok.json.byVenue.map((v: { key: string }) => v.key)).toContain('Kraken, EU');
    });

    it('the same CSV rules apply to fund-health-check positions and nav-validator investor rows', async () => {
      expect(fieldErrors(await post('fund-health-check', { positionsCsv: `${HEADER}\nBTC,?,X,crypto` }))).toEqual([
        'positionsCsv: line 2: Value "?" is not a number',
      ]);
      expect(fieldErrors(await post('nav-validator', { lpRowsCsv: 'Investor,Opening\nA,1' }))).toEqual([
        'lpRowsCsv: line 1: the header must be Investor,Opening,Contributions,Withdrawals,Closing (column Contributions is missing; column Withdrawals is missing; column Closing is missing)',
      ]);
    });

    it('a CSV field over 512 KiB → 413', async () => {
      const big = `${HEADER}\n` + 'BTC,1,Coinbase,crypto\n'.repeat(24_000); // ~528 KB, under the 1 MiB body limit
      expect(Buffer.byteLength(big)).toBeGreaterThan(512 * 1024);
      expectProblem(await post('exposure-analysis', { positionsCsv: big }), 413, 'payload_too_large');
      expectProblem(await post('fund-health-check', { positionsCsv: big }), 413, 'payload_too_large');
      expectProblem(await post('nav-validator', { lpRowsCsv: big }), 413, 'payload_too_large');
      const fits = `${HEADER}\n` + 'BTC,1,Coinbase,crypto\n'.repeat(23_000);
      expect((await post('exposure-analysis', { positionsCsv: fits })).status).toBe(200);
    });

    it('reportText over 200 000 characters → 413; exactly 200 000 is graded', async () => {
      expectProblem(await post('lp-report-grader', { reportText: 'x'.repeat(200_001) }), 413, 'payload_too_large');
      expect((await post('lp-report-grader', { reportText: 'x'.repeat(200_000) })).status).toBe(200);
    });
  });

  describe('the body itself', () => {
    it.each(CALC_PATHS)('%s: a body that is not JSON → 415', async (path) => {
      expectProblem(
        await post(path, 'horizonYears=5', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
        'unsupported_media_type',
      );
      expectProblem(await post(path, '{}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    });

    it('malformed JSON → 400', async () => {
      expectProblem(
        await post('fee-calculator', '{"horizonYears": ', { 'content-type': 'application/json' }),
        400,
        'invalid_request',
      );
    });

    it('a JSON body that is not an object → 400', async () => {
      expect((await post('fee-calculator', '[]', { 'content-type': 'application/json' })).status).toBe(400);
      expect((await post('fee-calculator', '"fees"', { 'content-type': 'application/json' })).status).toBe(400);
    });

    it('a body over 1 MiB → 413', async () => {
      expectProblem(await post('lp-report-grader', { reportText: 'y'.repeat(1_100_000) }), 413, 'payload_too_large');
    });
  });
});
