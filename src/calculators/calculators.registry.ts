import type { Type } from '@nestjs/common';
import { BACK_OFFICE_SAVINGS_DEFAULTS, backOfficeSavings } from './engines/back-office-savings.engine';
import { exposureAnalysis, EXPOSURE_ANALYSIS_DEFAULTS } from './engines/exposure-analysis.engine';
import { FEE_CALCULATOR_DEFAULTS, feeCalculator } from './engines/fee-calculator.engine';
import { FUND_HEALTH_CHECK_DEFAULTS, fundHealthCheck } from './engines/fund-health-check.engine';
import { LP_REPORT_GRADER_DEFAULTS, lpReportGrader } from './engines/lp-report-grader.engine';
import { NAV_VALIDATOR_DEFAULTS, navValidator } from './engines/nav-validator.engine';
import {
  OPERATING_COST_CALCULATOR_DEFAULTS,
  operatingCostCalculator,
} from './engines/operating-cost-calculator.engine';
import {
  EXPOSURE_ANALYSIS_EXAMPLE,
  ExposureAnalysisRequest,
  ExposureAnalysisResponse,
} from './dto/exposure-analysis.dto';
import { FEE_CALCULATOR_EXAMPLE, FeeCalculatorRequest, FeeCalculatorResponse } from './dto/fee-calculator.dto';
import {
  FUND_HEALTH_CHECK_EXAMPLE,
  FundHealthCheckRequest,
  FundHealthCheckResponse,
} from './dto/fund-health-check.dto';
import { LP_REPORT_GRADER_EXAMPLE, LpReportGraderRequest, LpReportGraderResponse } from './dto/lp-report-grader.dto';
import { NAV_VALIDATOR_EXAMPLE, NavValidatorRequest, NavValidatorResponse } from './dto/nav-validator.dto';
import {
  BackOfficeSavingsResponse,
  OPERATING_COST_EXAMPLE,
  OperatingCostRequest,
  OperatingCostResponse,
} from './dto/operating-costs.dto';

export type CalculatorName =
  | 'fee-calculator'
  | 'nav-validator'
  | 'exposure-analysis'
  | 'operating-cost-calculator'
  | 'back-office-savings'
  | 'fund-health-check'
  | 'lp-report-grader';

/**
 * One entry per calculator: the single description REST, the public MCP server and the web
 * tools share. `dto` validates and documents the body, `engine` is the pure function,
 * `defaults` fill every absent field, `responseDto` documents the answer.
 */
export interface CalculatorDefinition<I extends object = object, O = unknown> {
  name: CalculatorName;
  /** Route under /api/v1/calc/. */
  path: string;
  title: string;
  description: string;
  dto: Type<Partial<I>>;
  responseDto: Type<unknown>;
  defaults: Readonly<I>;
  engine: (input: I) => O;
  /** A full request body used in the OpenAPI examples and tests. */
  example: Record<string, unknown>;
}

function define<I extends object, O>(def: CalculatorDefinition<I, O>): CalculatorDefinition<I, O> {
  return def;
}

export const FEE_CALCULATOR = define({
  name: 'fee-calculator',
  path: 'fee-calculator',
  title: 'Fee calculator',
  description:
    'Management and performance fees period by period (annual or quarterly crystallization), with an optional compounded hard hurdle and high-water mark; totals, net annualized return and fee drag.',
  dto: FeeCalculatorRequest,
  responseDto: FeeCalculatorResponse,
  defaults: FEE_CALCULATOR_DEFAULTS,
  engine: feeCalculator,
  example: FEE_CALCULATOR_EXAMPLE,
});

export const NAV_VALIDATOR = define({
  name: 'nav-validator',
  path: 'nav-validator',
  title: 'NAV validator',
  description:
    'Checks a NAV roll-forward (opening + flows + gross P&L − fees − expenses = closing): the break in USD and bp, the implied management fee rate (ACT/365), the implied performance fee rate, and optional investor rows summing to the fund.',
  dto: NavValidatorRequest,
  responseDto: NavValidatorResponse,
  defaults: NAV_VALIDATOR_DEFAULTS,
  engine: navValidator,
  example: NAV_VALIDATOR_EXAMPLE,
});

export const EXPOSURE_ANALYSIS = define({
  name: 'exposure-analysis',
  path: 'exposure-analysis',
  title: 'Exposure analysis',
  description:
    'Long, short, gross, net and cash exposure of a positions CSV; concentration (top 5, Herfindahl); breakdowns by class and venue.',
  dto: ExposureAnalysisRequest,
  responseDto: ExposureAnalysisResponse,
  defaults: EXPOSURE_ANALYSIS_DEFAULTS,
  engine: exposureAnalysis,
  example: EXPOSURE_ANALYSIS_EXAMPLE,
});

export const OPERATING_COST_CALCULATOR = define({
  name: 'operating-cost-calculator',
  path: 'operating-cost-calculator',
  title: 'Operating cost calculator',
  description:
    'Annual in-house operating cost of a fund from ten inputs: line items with their shares, cost per LP report, cost in bp of AUM.',
  dto: OperatingCostRequest,
  responseDto: OperatingCostResponse,
  defaults: OPERATING_COST_CALCULATOR_DEFAULTS,
  engine: operatingCostCalculator,
  example: OPERATING_COST_EXAMPLE,
});

export const BACK_OFFICE_SAVINGS = define({
  name: 'back-office-savings',
  path: 'back-office-savings',
  title: 'Back-office savings',
  description:
    'The same ten inputs, in-house vs an automated model whose assumptions are stated item by item: annual savings in USD and bp of AUM, payback of the one-time cost.',
  dto: OperatingCostRequest,
  responseDto: BackOfficeSavingsResponse,
  defaults: BACK_OFFICE_SAVINGS_DEFAULTS,
  engine: backOfficeSavings,
  example: OPERATING_COST_EXAMPLE,
});

export const FUND_HEALTH_CHECK = define({
  name: 'fund-health-check',
  path: 'fund-health-check',
  title: 'Fund health check',
  description:
    'Scores fees, operations, reporting, governance and portfolio concentration (0..100 each), an overall score and grade, and findings by severity.',
  dto: FundHealthCheckRequest,
  responseDto: FundHealthCheckResponse,
  defaults: FUND_HEALTH_CHECK_DEFAULTS,
  engine: fundHealthCheck,
  example: FUND_HEALTH_CHECK_EXAMPLE,
});

export const LP_REPORT_GRADER = define({
  name: 'lp-report-grader',
  path: 'lp-report-grader',
  title: 'LP report grader',
  description:
    'Grades an LP letter against an ILPA-informed checklist (performance net of fees, capital account, fees, exposure, risk, valuation, outlook, material events, timeliness) with the evidence found.',
  dto: LpReportGraderRequest,
  responseDto: LpReportGraderResponse,
  defaults: LP_REPORT_GRADER_DEFAULTS,
  engine: lpReportGrader,
  example: LP_REPORT_GRADER_EXAMPLE,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any calculator: a definition is invariant in its input (defaults and run both use I), so no other type holds them all
export const CALCULATORS: readonly CalculatorDefinition<any, unknown>[] = [
  FEE_CALCULATOR,
  NAV_VALIDATOR,
  EXPOSURE_ANALYSIS,
  OPERATING_COST_CALCULATOR,
  BACK_OFFICE_SAVINGS,
  FUND_HEALTH_CHECK,
  LP_REPORT_GRADER,
];

/** Every field the engine reads: the body's value when present, else the documented default. */
export function withDefaults<I extends object>(defaults: Readonly<I>, body: Partial<I> | undefined): I {
  const input = { ...defaults } as I;
  if (body) {
    for (const key of Object.keys(defaults) as (keyof I)[]) {
      const v = body[key];
      if (v !== undefined) input[key] = v;
    }
  }
  return input;
}

/** Runs a calculator on a body that has passed its DTO's validation. */
export function runCalculator<I extends object, O>(def: CalculatorDefinition<I, O>, body: Partial<I> | undefined): O {
  return def.engine(withDefaults(def.defaults, body));
}
