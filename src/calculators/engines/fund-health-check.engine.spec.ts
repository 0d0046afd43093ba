import { FUND_HEALTH_CHECK_DEFAULTS, fundHealthCheck, type FundHealthCheckInput } from './fund-health-check.engine';

const diversified = [
  'Asset,Value,Venue,Class',
  ...Array.from({ length: 10 }, (_, i) => `A${i},4000000,Venue ${i % 3},equity`),
  'USD,10000000,Bank,cash',
].join('\n');

const strong: FundHealthCheckInput = {
  aumUsd: 50_000_000,
  positionsCsv: diversified,
  mgmtFeePct: 1.5,
  perfFeePct: 15,
  hasHwm: true,
  hurdlePct: 5,
  navFrequency: 'daily',
  reconFrequency: 'daily',
  lpReportingFrequency: 'monthly',
  backOfficeHeadcount: 3,
  hasFundAdmin: true,
  hasAnnualAudit: true,
};

const weak: FundHealthCheckInput = {
  aumUsd: 10_000_000,
  positionsCsv: 'Asset,Value,Venue,Class\nBTC,35000000,Some exchange,crypto',
  mgmtFeePct: 3.5,
  perfFeePct: 35,
  hasHwm: false,
  hurdlePct: null,
  navFrequency: 'quarterly',
  reconFrequency: 'rarely',
  lpReportingFrequency: 'adhoc',
  backOfficeHeadcount: 1,
  hasFundAdmin: false,
  hasAnnualAudit: false,
};

const scores = (a: ReturnType<typeof fundHealthCheck>) => Object.fromEntries(a.sections.map((s) => [s.id, s.score]));

describe('fund-health-check engine', () => {
  it('a well-run fund scores 100, grade A, no findings', () => {
    const a = fundHealthCheck(strong);
    expect(scores(a)).toEqual({ fees: 100, operations: 100, reporting: 100, governance: 100, portfolio: 100 });
    expect(a.overallScore).toBe(100);
    expect(a.grade).toBe('A');
    expect(a.findings).toEqual([]);
  });

  it('a poorly run fund: every section loses, grade F, high-severity findings first', () => {
    const a = fundHealthCheck(weak);
    // fees 100 − 40 − 40 − 30 − 5; operations − 50 − 50; reporting − 60; governance − 40 − 40 − 20; portfolio − 65 − 25
    expect(scores(a)).toEqual({ fees: 0, operations: 0, reporting: 40, governance: 0, portfolio: 10 });
    expect(a.overallScore).toBe(10); // (40 × 20 + 10 × 15) / 100 = 9.5, half up
    expect(a.grade).toBe('F');
    expect(a.findings[0].severity).toBe('high');
    expect(a.findings.map((f) => f.severity)).toEqual(
      [...a.findings.map((f) => f.severity)].sort(
        (x, y) => ['high', 'medium', 'low', 'info'].indexOf(x) - ['high', 'medium', 'low', 'info'].indexOf(y),
      ),
    );
    const messages = a.findings.map((f) => f.message).join('\n');
    expect(messages).toContain('without a high-water mark');
    expect(messages).toContain('No independent fund administrator');
    expect(messages).toContain('BTC is 100.0 % of the non-cash exposure (net by asset)');
    expect(messages).toContain('Gross exposure is 3.50× AUM');
    expect(messages).toContain('The positions sum to 350.0 % of aumUsd');
  });

  it('the defaults: 74, grade B, with the sample book concentrated in BTC', () => {
    const a = fundHealthCheck(FUND_HEALTH_CHECK_DEFAULTS);
    expect(scores(a)).toEqual({ fees: 75, operations: 50, reporting: 90, governance: 100, portfolio: 55 });
    expect(a.overallScore).toBe(74); // 73.75
    expect(a.grade).toBe('B');
    expect(a.assumptions.positionsCsv).toMatchObject({ isDefault: true, rows: 8 });
    expect(a.disclaimer).toMatch(/not accounting or tax advice/);
  });

  it('without positions the portfolio is not assessed and its weight is spread', () => {
    const a = fundHealthCheck({ ...FUND_HEALTH_CHECK_DEFAULTS, positionsCsv: '' });
    expect(a.sections.find((s) => s.id === 'portfolio')).toMatchObject({ score: null, assessed: false });
    expect(a.overallScore).toBe(77); // (75 × 20 + 50 × 25 + 90 × 20 + 100 × 20) / 85 = 76.47
    expect(a.findings.some((f) => f.section === 'portfolio' && f.severity === 'info')).toBe(true);
  });

  it('nobody in the back office scores clearly worse than one person, and one worse than two', () => {
    // the auditor's case: 0 FTE scored 88 (A), above 1 FTE's 89 only by a point; 0 lacked the key-person finding
    const base = {
      ...FUND_HEALTH_CHECK_DEFAULTS,
      navFrequency: 'daily' as const,
      reconFrequency: 'daily' as const,
      lpReportingFrequency: 'monthly' as const,
      mgmtFeePct: 1.5,
      perfFeePct: 15,
      hurdlePct: 5,
    };
    const at = (backOfficeHeadcount: number) => fundHealthCheck({ ...base, backOfficeHeadcount });
    expect([0, 0.5, 1, 2].map((h) => at(h).overallScore)).toEqual([84, 84, 89, 93]);
    expect(at(0).overallScore).toBeLessThan(at(1).overallScore);
    expect(at(1).overallScore).toBeLessThan(at(2).overallScore);
    expect(at(0).grade).toBe('B');
    const keyPerson = (h: number) => at(h).findings.filter((f) => f.message.includes('maker-checker'));
    expect(keyPerson(0)).toMatchObject([{ section: 'governance', severity: 'medium', points: 20 }]);
    expect(keyPerson(2)).toEqual([]);
  });

  it("a hedged book's small remainder is not a single-asset bet: an asset's net under 5 % of AUM is immaterial", () => {
    // BTC +5M spot, −4.999M perp: all of the book's net exposure is BTC's 1 000, 0.01 % of AUM
    const remainder = 'Asset,Value,Venue,Class\nBTC,5000000,Coinbase,crypto\nBTC,-4999000,Deribit,crypto';
    const a = fundHealthCheck({ ...strong, aumUsd: 10_000_000, positionsCsv: remainder });
    expect(scores(a).portfolio).toBe(100);
    expect(a.findings.map((f) => f.message)).toContain(
      'The largest net exposure by asset (BTC) is 0.01 % of aumUsd, under 5 %: concentration by asset is not material.',
    );
    // the same pair with a material remainder (1M, 10 % of AUM) is a single-asset bet again
    const material = 'Asset,Value,Venue,Class\nBTC,5000000,Coinbase,crypto\nBTC,-4000000,Deribit,crypto';
    expect(scores(fundHealthCheck({ ...strong, aumUsd: 10_000_000, positionsCsv: material })).portfolio).toBe(35);
  });

  it('a hedged asset is not a single-asset bet: concentration is on net exposure by asset', () => {
    // BTC +6M spot, −6M perp beside ten 4M equities: gross-by-asset made BTC 23.1 % (−25 points)
    const hedged = `${diversified}\nBTC,6000000,Coinbase,crypto\nBTC,-6000000,Deribit,crypto`;
    expect(scores(fundHealthCheck({ ...strong, positionsCsv: hedged })).portfolio).toBe(100);
    // a book of just the basis trade: no concentration, gross leverage still counts
    const basis =
      'Asset,Value,Venue,Class\nBTC,5000000,Coinbase,crypto\nBTC,-5000000,Deribit,crypto\nUSD,10000000,Bank,cash';
    const a = fundHealthCheck({ ...strong, aumUsd: 10_000_000, positionsCsv: basis });
    expect(scores(a).portfolio).toBe(100);
    expect(a.findings.filter((f) => f.section === 'portfolio').map((f) => [f.severity, f.points])).toEqual([
      ['info', 0],
    ]);
    expect(a.findings.find((f) => f.section === 'portfolio')?.message).toContain('nets to zero');
    const levered = fundHealthCheck({ ...strong, aumUsd: 3_000_000, positionsCsv: basis });
    expect(levered.findings.map((f) => f.message)).toContain('Gross exposure is 3.33× AUM.');
  });

  it.each([
    ['a header only', 'Asset,Value,Venue,Class\n', 'but no rows'],
    ['a cash-only book', 'Asset,Value,Venue,Class\nUSD,5000000,Bank,cash\nUSDC,1000000,X,Stablecoin', 'no non-cash'],
    ['a zero position', 'Asset,Value,Venue,Class\nBTC,0,X,crypto', 'no non-cash'],
  ])('%s is not assessed either (it scored 100 and beat giving nothing)', (_, positionsCsv, why) => {
    const none = fundHealthCheck({ ...FUND_HEALTH_CHECK_DEFAULTS, positionsCsv: '' });
    const a = fundHealthCheck({ ...FUND_HEALTH_CHECK_DEFAULTS, positionsCsv });
    expect(a.sections.find((s) => s.id === 'portfolio')).toMatchObject({ score: null, assessed: false });
    expect(a.overallScore).toBe(none.overallScore);
    const info = a.findings.filter((f) => f.section === 'portfolio');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ severity: 'info', points: 0 });
    expect(info[0].message).toContain(why);
    expect(info[0].message).toContain('not assessed');
  });

  it.each([
    { change: { hasFundAdmin: false }, section: 'governance', score: 60 },
    { change: { hasAnnualAudit: false }, section: 'governance', score: 60 },
    { change: { backOfficeHeadcount: 1 }, section: 'governance', score: 80 },
    { change: { backOfficeHeadcount: 0 }, section: 'operations', score: 80 },
    { change: { backOfficeHeadcount: 0 }, section: 'governance', score: 80 }, // nobody checks either
    { change: { backOfficeHeadcount: 0.5 }, section: 'operations', score: 80 }, // full-time equivalents
    { change: { backOfficeHeadcount: 0.5 }, section: 'governance', score: 80 },
    { change: { backOfficeHeadcount: 1.5 }, section: 'governance', score: 80 },
    { change: { reconFrequency: 'weekly' as const }, section: 'operations', score: 90 },
    {
      change: { navFrequency: 'quarterly' as const, lpReportingFrequency: 'monthly' as const },
      section: 'reporting',
      score: 80,
    },
    { change: { perfFeePct: 25 }, section: 'fees', score: 75 },
    { change: { perfFeePct: 0, hasHwm: false, hurdlePct: null }, section: 'fees', score: 100 },
    { change: { hurdlePct: null }, section: 'fees', score: 95 },
    { change: { hurdlePct: 0 }, section: 'fees', score: 95 }, // a 0 % hurdle is no hurdle
  ])('one weakness at a time: $change', ({ change, section, score }) => {
    expect(scores(fundHealthCheck({ ...strong, ...change }))[section]).toBe(score);
  });
});
