import { type ProblemError } from '../../common/errors/problem';
import { LP_REPORT_GRADER_DEFAULTS, lpReportGrader, REPORT_TEXT_MAX_CHARS } from './lp-report-grader.engine';

const WEAK =
  'Dear investors, we had a good quarter. Returns were strong and we remain optimistic about the year ahead. Thank you for your trust.';

const status = (a: ReturnType<typeof lpReportGrader>) => Object.fromEntries(a.criteria.map((c) => [c.id, c.status]));

describe('lp-report-grader engine', () => {
  it('a strong quarterly letter (the default sample) passes every criterion with evidence', () => {
    const a = lpReportGrader(LP_REPORT_GRADER_DEFAULTS);
    expect(a.score).toBe(100);
    expect(a.grade).toBe('A');
    expect(a.summary).toEqual({ pass: 9, partial: 0, missing: 0 });
    const performance = a.criteria.find((c) => c.id === 'performance');
    expect(performance?.evidence.join(' ')).toContain('net of all fees');
    expect(performance?.evidence.join(' ')).toContain('benchmark');
    expect(a.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100);
    expect(a.assumptions.reportText).toEqual({
      isDefault: true,
      bytes: Buffer.byteLength(LP_REPORT_GRADER_DEFAULTS.reportText),
      characters: LP_REPORT_GRADER_DEFAULTS.reportText.length,
    });
  });

  it('a weak letter: nearly everything missing, grade F, and it says what is missing', () => {
    const a = lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText: WEAK });
    expect(status(a)).toEqual({
      performance: 'missing',
      'capital-account': 'missing',
      'fees-expenses': 'missing',
      'portfolio-exposure': 'missing',
      risk: 'missing',
      valuation: 'missing',
      outlook: 'missing',
      'material-events': 'missing',
      timeliness: 'partial', // "quarter" but no date
    });
    expect(a.score).toBe(2.5);
    expect(a.grade).toBe('F');
    expect(a.criteria.find((c) => c.id === 'performance')?.missing).toEqual([
      'returns stated net of fees',
      'return periods (MTD, QTD, YTD, since inception)',
      'a return figure in percent',
      'a benchmark comparison',
    ]);
    expect(a.criteria.find((c) => c.id === 'timeliness')?.missing).toEqual(['an as-of or period-end date']);
  });

  it('partial credit is half the weight', () => {
    const a = lpReportGrader({
      ...LP_REPORT_GRADER_DEFAULTS,
      reportText: 'We returned 3.1% net of fees this quarter ended March 31, 2025.',
    });
    const p = a.criteria.find((c) => c.id === 'performance');
    expect(p).toMatchObject({ status: 'partial', points: 10 });
    expect(a.criteria.find((c) => c.id === 'timeliness')).toMatchObject({ status: 'pass', points: 5 });
    expect(a.score).toBe(15);
  });

  const netOfFees = (reportText: string) =>
    !lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText })
      .criteria.find((c) => c.id === 'performance')
      ?.missing.includes('returns stated net of fees');

  it.each([
    'The fund returned 3.1% after all fees.',
    'The fund returned 3.1% after fees.',
    'The fund returned 3.1%, net of management and performance fees.',
    'Net-of-fees return: 3.1%.',
    'A net-of-fee return of 3.1%.',
    'Returns are net of all fees and expenses.',
    'Returns are net of fees.',
  ])('"%s" states returns net of fees', (text) => {
    expect(netOfFees(text)).toBe(true);
  });

  it.each(['Returns are net of expenses but before fees.', 'Returns are net of expenses.', 'Fees were after tax.'])(
    '"%s" does not',
    (text) => {
      expect(netOfFees(text)).toBe(false);
    },
  );

  it.each([
    ['"net of " repeated', 'net of '],
    ['"net-of-" repeated', 'net-of-'],
    ['net of five short words, no fee', 'net of a, b, c, d, e '],
    ['"after all " repeated', 'after all '],
  ])('200 000 characters of %s are graded in linear time', (_, unit) => {
    const text = unit.repeat(Math.ceil(REPORT_TEXT_MAX_CHARS / unit.length)).slice(0, REPORT_TEXT_MAX_CHARS);
    const started = process.hrtime.bigint();
    lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText: text });
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000); // ~30 ms here
  });

  it('timeliness depends on the reporting frequency', () => {
    // the sample names a quarter and an ISO date but never a month
    const monthly = lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportingFrequency: 'monthly' });
    expect(monthly.criteria.find((c) => c.id === 'timeliness')).toMatchObject({
      status: 'partial',
      missing: ['the month covered'],
    });
    expect(monthly.score).toBe(97.5);
    const adhoc = lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportingFrequency: 'adhoc' });
    expect(adhoc.criteria.find((c) => c.id === 'timeliness')?.status).toBe('pass');
  });

  it('an empty text scores 0', () => {
    const a = lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText: '' });
    expect(a.score).toBe(0);
    expect(a.summary).toEqual({ pass: 0, partial: 0, missing: 9 });
  });

  it(`over ${REPORT_TEXT_MAX_CHARS} characters is 413`, () => {
    expect(lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText: 'x'.repeat(REPORT_TEXT_MAX_CHARS) }).score).toBe(
      0,
    );
    expect.assertions(3);
    try {
      lpReportGrader({ ...LP_REPORT_GRADER_DEFAULTS, reportText: 'x'.repeat(REPORT_TEXT_MAX_CHARS + 1) });
    } catch (err) {
      expect((err as ProblemError).status).toBe(413);
      expect((err as ProblemError).errors?.[0].field).toBe('reportText');
    }
  });

  it('evidence snippets are short and deterministic', () => {
    const a = JSON.stringify(lpReportGrader(LP_REPORT_GRADER_DEFAULTS));
    expect(JSON.stringify(lpReportGrader(LP_REPORT_GRADER_DEFAULTS))).toBe(a);
    for (const c of JSON.parse(a).criteria) for (const e of c.evidence) expect(e.length).toBeLessThan(200);
  });
});
