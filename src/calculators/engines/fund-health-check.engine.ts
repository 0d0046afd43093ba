import { fixedToDec } from './fixed';
import { dec, DISCLAIMER } from './numeric';
import {
  CASH_CLASSES,
  concentrationOf,
  exposureOf,
  parsePositions,
  type Position,
  SAMPLE_POSITIONS_CSV,
} from './positions';
import { csvDigest, type TextDigest } from './text-input';

export type NavFrequency = 'daily' | 'weekly' | 'monthly' | 'quarterly';
export type ReconFrequency = 'daily' | 'weekly' | 'monthly' | 'rarely';
export type LpReportingFrequency = 'monthly' | 'quarterly' | 'adhoc';
export const NAV_FREQUENCIES: readonly NavFrequency[] = ['daily', 'weekly', 'monthly', 'quarterly'];
export const RECON_FREQUENCIES: readonly ReconFrequency[] = ['daily', 'weekly', 'monthly', 'rarely'];
export const LP_REPORTING_FREQUENCIES: readonly LpReportingFrequency[] = ['monthly', 'quarterly', 'adhoc'];

export interface FundHealthCheckInput {
  aumUsd: number;
  /** `Asset,Value,Venue,Class`; empty, or no non-cash exposure = portfolio concentration is not assessed. */
  positionsCsv: string;
  mgmtFeePct: number;
  perfFeePct: number;
  hasHwm: boolean;
  hurdlePct: number | null;
  navFrequency: NavFrequency;
  reconFrequency: ReconFrequency;
  lpReportingFrequency: LpReportingFrequency;
  backOfficeHeadcount: number;
  hasFundAdmin: boolean;
  hasAnnualAudit: boolean;
}

export const FUND_HEALTH_CHECK_DEFAULTS: FundHealthCheckInput = {
  aumUsd: 10_000_000,
  positionsCsv: SAMPLE_POSITIONS_CSV,
  mgmtFeePct: 2,
  perfFeePct: 20,
  hasHwm: true,
  hurdlePct: null,
  navFrequency: 'monthly',
  reconFrequency: 'monthly',
  lpReportingFrequency: 'quarterly',
  backOfficeHeadcount: 2,
  hasFundAdmin: true,
  hasAnnualAudit: true,
};

export type Severity = 'high' | 'medium' | 'low' | 'info';
export type SectionId = 'fees' | 'operations' | 'reporting' | 'governance' | 'portfolio';

export const SECTION_WEIGHTS: Record<SectionId, number> = {
  fees: 20,
  operations: 25,
  reporting: 20,
  governance: 20,
  portfolio: 15,
};
const SECTION_TITLES: Record<SectionId, string> = {
  fees: 'Fees',
  operations: 'Operations',
  reporting: 'Reporting',
  governance: 'Governance',
  portfolio: 'Portfolio concentration',
};

export interface Finding {
  section: SectionId;
  severity: Severity;
  /** Points the finding took off its section's 0..100 score. */
  points: number;
  message: string;
}

export interface FundHealthCheckAnswer {
  assumptions: Omit<FundHealthCheckInput, 'positionsCsv'> & {
    positionsCsv: TextDigest;
    sectionWeights: Record<SectionId, number>;
  };
  overallScore: number;
  grade: 'A' | 'B' | 'C' | 'D' | 'F';
  sections: { id: SectionId; title: string; weight: number; score: number | null; assessed: boolean }[];
  findings: Finding[];
  disclaimer: string;
}

type Collector = (severity: Severity, points: number, message: string) => void;

/**
 * A rule-based review: each section starts at 100 and loses the points of its findings
 * (floored at 0); the overall score is the weighted mean of the assessed sections.
 * Grades: A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else F.
 */
export function fundHealthCheck(input: FundHealthCheckInput): FundHealthCheckAnswer {
  const findings: Finding[] = [];
  const scores = {} as Record<SectionId, number | null>;
  const section = (id: SectionId, rules: (add: Collector) => void) => {
    let score = 100;
    rules((severity, points, message) => {
      findings.push({ section: id, severity, points, message });
      score -= points;
    });
    scores[id] = Math.max(0, score);
  };
  section('fees', (add) => feeRules(input, add));
  section('operations', (add) => operationsRules(input, add));
  section('reporting', (add) => reportingRules(input, add));
  section('governance', (add) => governanceRules(input, add));

  const positions = input.positionsCsv.trim() === '' ? null : parsePositions('positionsCsv', input.positionsCsv);
  const notAssessed = portfolioNotAssessed(positions);
  if (positions !== null && notAssessed === null) section('portfolio', (add) => portfolioRules(input, positions, add));
  else {
    scores.portfolio = null;
    findings.push({
      section: 'portfolio',
      severity: 'info',
      points: 0,
      message: `${notAssessed}: portfolio concentration was not assessed and its weight is spread over the other sections.`,
    });
  }

  const ids = Object.keys(SECTION_WEIGHTS) as SectionId[];
  let weighted = dec(0);
  let weights = 0;
  for (const id of ids) {
    const s = scores[id];
    if (s === null) continue;
    weighted = weighted.plus(dec(s).times(SECTION_WEIGHTS[id]));
    weights += SECTION_WEIGHTS[id];
  }
  const overall = weighted.div(weights).toDecimalPlaces(0).toNumber();
  const order: Record<Severity, number> = { high: 0, medium: 1, low: 2, info: 3 };
  // stable sort: severity first, then the order the rules ran in
  const sorted = findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order[a.f.severity] - order[b.f.severity] || a.i - b.i)
    .map((x) => x.f);
  const { positionsCsv, ...rest } = input;
  return {
    assumptions: {
      ...rest,
      positionsCsv: csvDigest(positionsCsv, SAMPLE_POSITIONS_CSV, positions?.length ?? 0),
      sectionWeights: SECTION_WEIGHTS,
    },
    overallScore: overall,
    grade: overall >= 85 ? 'A' : overall >= 70 ? 'B' : overall >= 55 ? 'C' : overall >= 40 ? 'D' : 'F',
    sections: ids.map((id) => ({
      id,
      title: SECTION_TITLES[id],
      weight: SECTION_WEIGHTS[id],
      score: scores[id],
      assessed: scores[id] !== null,
    })),
    findings: sorted,
    disclaimer: DISCLAIMER,
  };
}

function feeRules(input: FundHealthCheckInput, add: Collector): void {
  const m = input.mgmtFeePct;
  if (m > 3) add('high', 40, `A management fee of ${m} % is far above the 1.5–2 % range most LPs accept.`);
  else if (m > 2) add('medium', 25, `A management fee of ${m} % is above the common 2 % ceiling.`);
  else if (m > 1.5)
    add('low', 10, `A management fee of ${m} % is at the top of the market range; large LPs negotiate 1–1.5 %.`);
  const p = input.perfFeePct;
  if (p > 30) add('high', 40, `A performance fee of ${p} % is well above the 20 % norm.`);
  else if (p > 20) add('medium', 25, `A performance fee of ${p} % is above the 20 % norm.`);
  else if (p > 15)
    add('low', 10, `A performance fee of ${p} % is at the market norm; some LPs expect 10–15 % with a hurdle.`);
  if (p > 0 && !input.hasHwm)
    add(
      'high',
      30,
      'A performance fee without a high-water mark charges investors again for recovering their own losses.',
    );
  if (p > 0 && !(input.hurdlePct !== null && input.hurdlePct > 0))
    // a 0 % hurdle is no hurdle
    add('low', 5, 'No hurdle: the performance fee is paid on any gain, including the return of cash.');
}

function operationsRules(input: FundHealthCheckInput, add: Collector): void {
  const nav = {
    daily: null,
    weekly: [
      'low',
      10,
      'A weekly NAV leaves errors undetected for days; daily shadow NAV is the standard for liquid strategies.',
    ],
    monthly: ['medium', 25, 'A monthly NAV means errors, breaks and fee mistakes surface weeks late.'],
    quarterly: [
      'high',
      50,
      'A quarterly NAV is too infrequent for a fund with liquid positions; investors and risk limits run blind in between.',
    ],
  } as const;
  const recon = {
    daily: null,
    weekly: ['low', 10, 'Weekly reconciliation to custodians and exchanges lets breaks age for up to a week.'],
    monthly: ['medium', 25, 'Monthly reconciliation lets breaks age for weeks before anyone looks.'],
    rarely: [
      'high',
      50,
      'Positions and cash are rarely reconciled to custodians, exchanges and banks: the books cannot be trusted.',
    ],
  } as const;
  const n = nav[input.navFrequency];
  if (n) add(n[0], n[1], n[2]);
  const r = recon[input.reconFrequency];
  if (r) add(r[0], r[1], r[2]);
  if (input.backOfficeHeadcount === 0) add('high', 20, 'Nobody is dedicated to the back office.');
  else if (input.backOfficeHeadcount < 1) add('high', 20, 'Less than one full-time person runs the back office.');
}

function reportingRules(input: FundHealthCheckInput, add: Collector): void {
  if (input.lpReportingFrequency === 'quarterly')
    add(
      'low',
      10,
      'Quarterly LP reporting meets the ILPA baseline; monthly letters are increasingly expected by allocators to liquid funds.',
    );
  if (input.lpReportingFrequency === 'adhoc')
    add(
      'high',
      60,
      'LP reports are ad hoc: ILPA guidance expects at least quarterly reporting on performance, capital accounts and fees.',
    );
  const navRank = { daily: 0, weekly: 1, monthly: 2, quarterly: 3 }[input.navFrequency];
  if (input.lpReportingFrequency === 'monthly' && navRank > 2)
    add('medium', 20, 'Monthly LP reports on a quarterly NAV cannot show a current capital account.');
}

function governanceRules(input: FundHealthCheckInput, add: Collector): void {
  if (!input.hasFundAdmin)
    add('high', 40, 'No independent fund administrator: the manager values and reports its own fund.');
  if (!input.hasAnnualAudit) add('high', 40, 'No annual audit by an independent auditor.');
  // nobody (0) separates making and checking either: the rule holds for every headcount below two
  if (input.backOfficeHeadcount < 2)
    add(
      'medium',
      20,
      'A back office of fewer than two full-time people cannot separate making and checking (maker-checker) and is a key-person risk.',
    );
}

/**
 * Why the portfolio section cannot be scored, or null when it can: a book without non-cash
 * exposure has no concentration to judge, and scoring it 100 would rate it above giving nothing.
 */
function portfolioNotAssessed(positions: Position[] | null): string | null {
  if (positions === null) return 'No positions given';
  if (positions.length === 0) return 'The positions have a header but no rows';
  if (exposureOf(positions).gross === 0n)
    return `The positions hold no non-cash exposure (only the cash classes ${CASH_CLASSES.join(', ')}, or values of zero)`;
  return null;
}

/** Below this share of AUM, the largest asset's net exposure is no concentration to score (a hedged book's remainder). */
const MATERIAL_NET_PCT_OF_AUM = 5;

function portfolioRules(input: FundHealthCheckInput, positions: Position[], add: Collector): void {
  const c = concentrationOf(positions);
  const e = exposureOf(positions);
  const aum = dec(input.aumUsd);
  const top = c.assets[0];
  const topOfAum = c.total === 0n ? dec(0) : fixedToDec(top.exposure).div(aum).times(100);
  if (c.total === 0n) {
    add('info', 0, 'Every non-cash asset nets to zero across its rows (hedged): no concentration by asset.');
  } else if (topOfAum.lt(MATERIAL_NET_PCT_OF_AUM)) {
    // a hedged book's small remainder is all of its net exposure, but no bet: judged against AUM
    add(
      'info',
      0,
      `The largest net exposure by asset (${top.asset}) is ${topOfAum.toFixed(2)} % of aumUsd, under ${MATERIAL_NET_PCT_OF_AUM} %: concentration by asset is not material.`,
    );
  } else {
    const weight = fixedToDec(top.exposure).div(fixedToDec(c.total)).times(100);
    const label = `${top.asset} is ${weight.toFixed(1)} % of the non-cash exposure (net by asset)`;
    if (weight.gt(50)) add('high', 65, `${label}: the fund is a single-asset bet.`);
    else if (weight.gt(35)) add('high', 45, `${label}.`);
    else if (weight.gt(20)) add('medium', 25, `${label}.`);
    else if (weight.gt(10)) add('low', 10, `${label}.`);
  }
  const leverage = fixedToDec(e.gross).div(aum);
  if (leverage.gt(3)) add('high', 25, `Gross exposure is ${leverage.toFixed(2)}× AUM.`);
  else if (leverage.gt(2)) add('medium', 10, `Gross exposure is ${leverage.toFixed(2)}× AUM.`);
  const book = fixedToDec(e.sumOfValues);
  if (book.minus(aum).abs().div(aum).gt('0.1')) {
    add(
      'info',
      0,
      `The positions sum to ${book.div(aum).times(100).toFixed(1)} % of aumUsd; check that the file is complete and values are in USD.`,
    );
  }
}
