import { ProblemError } from '../../common/errors/problem';
import { REPORT_TEXT_MAX_CHARS } from '../dto/limits';
import { DISCLAIMER } from './numeric';
import { type InputMethod, type TextDigest, textDigest } from './text-input';

export type ReportingFrequency = 'monthly' | 'quarterly' | 'adhoc';
export const REPORTING_FREQUENCIES: readonly ReportingFrequency[] = ['monthly', 'quarterly', 'adhoc'];
export { REPORT_TEXT_MAX_CHARS };

export interface LpReportGraderInput {
  reportText: string;
  reportingFrequency: ReportingFrequency;
  inputMethod: InputMethod;
}

export const SAMPLE_LP_REPORT = `Quarterly letter to limited partners, for the quarter ended 2025-03-31.

Performance. The fund returned +4.2% net of all fees for Q1 2025 (QTD), +4.2% YTD and +31.5% since inception (annualized 9.6%). Our benchmark, a 60/40 blend of BTC and the S&P 500, returned +2.9%, so we outperformed by 1.3 points.

Capital account. Opening balance USD 10,000,000; contributions USD 500,000; redemptions USD 250,000; net P&L USD 260,055; closing balance USD 10,510,055. Each investor's capital account statement is attached.

Fees and expenses. Management fee 2% a year (USD 49,932 this quarter); performance fee 20% above the high-water mark (USD 65,014); fund expenses USD 25,000 (audit, administration, legal).

Portfolio and exposure. Top 5 holdings: BTC 40%, ETH 20%, SPY 17%, SOL 6%, GLD 4%. Gross exposure 93%, net exposure 82% of NAV, with a short in QQQ as a hedge.

Risk. Annualized volatility 14%; maximum drawdown in the quarter -6.1%; 99% one-day value at risk 2.3% of NAV. No leverage beyond the QQQ short; 95% of the book can be liquidated within one day.

Valuation. Positions are marked to market at exchange closing prices; the independent administrator reconciled our NAV within 2 bp.

Outlook. Looking ahead, we expect volatility to stay elevated while rates remain restrictive; we will keep gross exposure below 120%.

Material events. No material events: no changes to key personnel, service providers or terms this quarter.`;

export const LP_REPORT_GRADER_DEFAULTS: LpReportGraderInput = {
  reportText: SAMPLE_LP_REPORT,
  reportingFrequency: 'quarterly',
  inputMethod: 'manual',
};

interface Element {
  /** What the element is, shown when it is missing. */
  name: string;
  pattern: RegExp;
}

interface Criterion {
  id: string;
  title: string;
  weight: number;
  /** Elements found to pass; at least one element found is partial. */
  passAt: number;
  elements: Element[];
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b(?:${MONTHS})\\s+\\d{1,2},?\\s+\\d{4}\\b|\\b\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{4}\\b`,
  'i',
);

/**
 * "net of fees", "net of all fees", "net of management and performance fees" (up to five words
 * between, none of them a word that turns it around: "net of expenses but before fees"),
 * "net-of-fees", "net-of-fee", "after (all) fees", "net returns", "net performance". Linear: the
 * words and their separators are disjoint classes, so each "net of" is scanned at most five
 * words ahead (the grader is tested on 200 000 adversarial characters).
 */
const NET_OF_FEES =
  /\bnet[\s-]{1,3}of[\s-]{1,3}(?:(?!(?:before|excluding|except|without|but|gross)\b)[\w&'-]{1,40}[\s,]{1,5}){0,5}fees?\b|\bafter (?:all )?fees\b|\bnet (?:returns?|performance)\b/i;

/** ILPA-informed checklist (ILPA Reporting Template and Principles, adapted to liquid funds). */
export const LP_REPORT_CRITERIA: Criterion[] = [
  {
    id: 'performance',
    title: 'Performance net of fees, with periods and a benchmark',
    weight: 20,
    passAt: 4,
    elements: [
      { name: 'returns stated net of fees', pattern: NET_OF_FEES },
      {
        name: 'return periods (MTD, QTD, YTD, since inception)',
        pattern:
          /\b(?:MTD|QTD|YTD|ITD)\b|\b(?:month|quarter|year|inception)[- ]to[- ]date\b|\bsince inception\b|\bannuali[sz]ed\b/i,
      },
      // digit runs start only where a number starts and are bounded: a long run of digits is linear, not quadratic
      { name: 'a return figure in percent', pattern: /(?<![\d.])[+\-−]?\d{1,15}(?:\.\d{1,10})?\s?%/ },
      {
        name: 'a benchmark comparison',
        pattern: /\bbenchmark|\b(?:out|under)perform|\brelative to\b|\bversus\b|\bvs\.?\s/i,
      },
    ],
  },
  {
    id: 'capital-account',
    title: 'Capital account roll-forward',
    weight: 15,
    passAt: 3,
    elements: [
      { name: 'a capital account statement', pattern: /\bcapital accounts?\b|\bpartners'? capital\b/i },
      { name: 'the opening balance', pattern: /\b(?:opening|beginning|starting) (?:balance|capital|NAV)\b/i },
      {
        name: 'contributions and withdrawals',
        pattern: /\b(?:contributions?|subscriptions?|redemptions?|withdrawals?|distributions?)\b/i,
      },
      { name: 'the closing balance', pattern: /\b(?:closing|ending) (?:balance|capital|NAV)\b/i },
    ],
  },
  {
    id: 'fees-expenses',
    title: 'Fees and expenses disclosed',
    weight: 15,
    passAt: 3,
    elements: [
      { name: 'the management fee', pattern: /\bmanagement fees?\b/i },
      {
        name: 'the performance fee or carry',
        pattern: /\bperformance fees?\b|\bincentive (?:fees?|allocation)\b|\bcarried interest\b/i,
      },
      { name: 'fund expenses', pattern: /\b(?:fund |operating |partnership )?expenses\b|\badministration fees?\b/i },
      {
        name: 'amounts in currency',
        pattern: /(?:\bUSD|US\$|\$)\s?\d|(?<![\d,.])\d{1,3}(?:,?\d{3})*(?:\.\d{1,10})?\s?(?:USD|dollars)\b/i,
      },
    ],
  },
  {
    id: 'portfolio-exposure',
    title: 'Portfolio and exposure',
    weight: 10,
    passAt: 3,
    elements: [
      {
        name: 'the largest holdings',
        pattern:
          /\b(?:top|largest) (?:\d+|five|ten) (?:holdings|positions)\b|\b(?:largest|top) (?:holdings|positions)\b/i,
      },
      { name: 'gross or net exposure', pattern: /\b(?:gross|net) (?:exposure|long|short)\b/i },
      { name: 'long and short positions', pattern: /\bshorts?\b|\blong\/short\b|\bhedge[sd]?\b/i },
      {
        name: 'an allocation breakdown',
        pattern: /\ballocation\b|\bsector\b|\basset class\b|\bby (?:venue|strategy|region)\b|\bweights?\b/i,
      },
    ],
  },
  {
    id: 'risk',
    title: 'Risk',
    weight: 10,
    passAt: 3,
    elements: [
      { name: 'volatility', pattern: /\bvolatility\b/i },
      { name: 'drawdown', pattern: /\bdrawdowns?\b/i },
      {
        name: 'value at risk or stress tests',
        pattern: /\b[Vv]alue at [Rr]isk\b|\bVaR\b|\b[Ss]tress(?:-| )tests?\b|\b[Ss]cenarios?\b/,
      },
      { name: 'leverage', pattern: /\bleverage[sd]?\b/i },
      { name: 'liquidity', pattern: /\bliquidity\b|\bliquidat(?:e|ed|ion)\b/i },
    ],
  },
  {
    id: 'valuation',
    title: 'Valuation policy',
    weight: 10,
    passAt: 2,
    elements: [
      {
        name: 'how positions are valued',
        pattern: /\bvaluation (?:policy|methodology)\b|\bfair value\b|\bmark(?:ed)?[- ]to[- ]market\b|\bvalued at\b/i,
      },
      { name: 'independent verification', pattern: /\bindependent\b|\badministrator\b|\bauditor\b/i },
      {
        name: 'price sources',
        pattern: /\bclosing prices?\b|\bpric(?:e|ing) sources?\b|\blevel [123]\b|\bobservable\b/i,
      },
    ],
  },
  {
    id: 'outlook',
    title: 'Outlook and market commentary',
    weight: 5,
    passAt: 2,
    elements: [
      {
        name: 'an outlook',
        pattern: /\boutlook\b|\blooking ahead\b|\bgoing forward\b|\bnext (?:quarter|month|year)\b/i,
      },
      {
        name: 'expectations or market commentary',
        pattern:
          /\bwe (?:expect|anticipate|believe)\b|\bmarket (?:commentary|environment|conditions)\b|\bmacro\b|\brates\b/i,
      },
    ],
  },
  {
    id: 'material-events',
    title: 'Material events',
    weight: 10,
    passAt: 2,
    elements: [
      { name: 'a statement on material events', pattern: /\bmaterial (?:events?|changes?)\b/i },
      {
        name: 'people and service providers',
        pattern: /\bkey (?:personnel|person|people)\b|\bservice providers?\b|\bauditor\b|\bcustodian\b|\bteam\b/i,
      },
      {
        name: 'legal, regulatory or terms changes',
        pattern: /\blitigation\b|\bregulat(?:ory|or)\b|\bterms\b|\bside letters?\b/i,
      },
    ],
  },
];

const TIMELINESS_WEIGHT = 5;
const PERIOD_WORDS: Record<ReportingFrequency, { name: string; pattern: RegExp }> = {
  monthly: {
    name: 'the month covered',
    pattern: new RegExp(`\\bmonth(?:ly)?\\b|\\bMTD\\b|\\b(?:${MONTHS})\\s+\\d{4}\\b`, 'i'),
  },
  quarterly: { name: 'the quarter covered', pattern: /\bquarter(?:ly)?\b|\bQ[1-4]\b|\bQTD\b/i },
  adhoc: { name: 'the period covered', pattern: /\bperiod\b|\bmonth\b|\bquarter\b|\byear\b|\bQ[1-4]\b/i },
};

export type CriterionStatus = 'pass' | 'partial' | 'missing';

export interface CriterionResult {
  id: string;
  title: string;
  weight: number;
  status: CriterionStatus;
  points: number;
  /** Text found for each element, with a little context. */
  evidence: string[];
  /** Elements not found. */
  missing: string[];
}

export interface LpReportGraderAnswer {
  assumptions: Omit<LpReportGraderInput, 'reportText'> & { reportText: TextDigest };
  score: number;
  grade: 'A' | 'B' | 'C' | 'D' | 'F';
  criteria: CriterionResult[];
  summary: { pass: number; partial: number; missing: number };
  disclaimer: string;
}

/**
 * Keyword grading against the checklist: a criterion passes when enough of its elements are
 * found, is partial with at least one, missing with none. Score = Σ weights of passes + half the
 * weights of partials. A keyword screen, not a reading: it shows what a reader will look for.
 */
export function lpReportGrader(input: LpReportGraderInput): LpReportGraderAnswer {
  const text = input.reportText;
  if (text.length > REPORT_TEXT_MAX_CHARS) {
    throw new ProblemError('payload_too_large', 'reportText is longer than 200 000 characters', [
      { field: 'reportText', message: `must be at most ${REPORT_TEXT_MAX_CHARS} characters` },
    ]);
  }
  const criteria = LP_REPORT_CRITERIA.map((c) => grade(text, c.id, c.title, c.weight, c.passAt, c.elements));
  const period = PERIOD_WORDS[input.reportingFrequency];
  criteria.push(
    grade(
      text,
      'timeliness',
      `Timeliness for ${input.reportingFrequency} reporting: period and as-of date stated`,
      TIMELINESS_WEIGHT,
      2,
      [period, { name: 'an as-of or period-end date', pattern: DATE }],
    ),
  );
  const score = criteria.reduce((acc, c) => acc + c.points, 0);
  const summary = { pass: 0, partial: 0, missing: 0 };
  for (const c of criteria) summary[c.status]++;
  return {
    assumptions: {
      reportText: textDigest(text, SAMPLE_LP_REPORT),
      reportingFrequency: input.reportingFrequency,
      inputMethod: input.inputMethod,
    },
    score,
    grade: score >= 85 ? 'A' : score >= 70 ? 'B' : score >= 55 ? 'C' : score >= 40 ? 'D' : 'F',
    criteria,
    summary,
    disclaimer: DISCLAIMER,
  };
}

function grade(
  text: string,
  id: string,
  title: string,
  weight: number,
  passAt: number,
  elements: Element[],
): CriterionResult {
  const evidence: string[] = [];
  const missing: string[] = [];
  for (const e of elements) {
    const m = e.pattern.exec(text);
    if (m) evidence.push(snippet(text, m.index, m[0].length));
    else missing.push(e.name);
  }
  const found = evidence.length;
  const status: CriterionStatus = found >= passAt ? 'pass' : found > 0 ? 'partial' : 'missing';
  return {
    id,
    title,
    weight,
    status,
    points: status === 'pass' ? weight : status === 'partial' ? weight / 2 : 0,
    evidence,
    missing,
  };
}

const CONTEXT = 40;

function snippet(text: string, at: number, length: number): string {
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(text.length, at + length + CONTEXT);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}
