import { applyDecorators, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { OptionalAuth } from '../common/auth/auth.decorators';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { CalculatorPool, calculatorRouteConfig } from './calculator-pool';
import {
  BACK_OFFICE_SAVINGS,
  CalculatorDefinition,
  EXPOSURE_ANALYSIS,
  FEE_CALCULATOR,
  FUND_HEALTH_CHECK,
  LP_REPORT_GRADER,
  NAV_VALIDATOR,
  OPERATING_COST_CALCULATOR,
  runCalculator,
} from './calculators.registry';
import { ExposureAnalysisRequest } from './dto/exposure-analysis.dto';
import { FeeCalculatorRequest } from './dto/fee-calculator.dto';
import { FundHealthCheckRequest } from './dto/fund-health-check.dto';
import { LpReportGraderRequest } from './dto/lp-report-grader.dto';
import { NavValidatorRequest } from './dto/nav-validator.dto';
import { OperatingCostRequest } from './dto/operating-costs.dto';

/**
 * One calculator route and its OpenAPI: body schema with examples, the answer with an example. The
 * text calculators defer a large body (calculatorRouteConfig): their handler then receives a
 * DeferredJsonBody, not the DTO its parameter declares (the declared DTO still drives validation
 * of every other body, and of the deferred one on the worker thread).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any calculator: a definition is invariant in its input (defaults and run both use I), so no other type holds them all
function CalculatorRoute(def: CalculatorDefinition<any, unknown>) {
  return applyDecorators(
    Post(def.path),
    HttpCode(200),
    RouteConfig(calculatorRouteConfig(def)),
    ApiOperation({
      summary: def.title,
      description: `${def.description} Every field is optional; absent fields take the documented defaults, echoed in \`assumptions\`. Illustrative, not accounting or tax advice.`,
    }),
    ApiBody({
      type: def.dto,
      required: false,
      examples: {
        defaults: { summary: 'Every default', value: {} },
        full: { summary: 'A full body', value: def.example },
      },
    }),
    ApiOkResponse({
      type: def.responseDto,
      description: 'The answer (example: the full body above).',
      example: runCalculator(def, def.example as never),
    }),
    ApiResponse({ status: 400, description: 'Invalid body: every failing field in `errors` (problem+json).' }),
    ApiResponse({ status: 401, description: 'A key was sent and is not valid.' }),
    ApiResponse({
      status: 413,
      description: 'Body over the limit, a CSV field over 512 KiB, or reportText over 200 000 characters.',
    }),
    ApiResponse({ status: 415, description: 'The body is not application/json.' }),
    ApiResponse({
      status: 429,
      description: 'Daily cap reached (500 a day per IP without a key; more by plan). See Retry-After.',
    }),
    ApiResponse({
      status: 503,
      description: 'unavailable: the worker pool for large inputs is at capacity; retry after Retry-After.',
    }),
  );
}

/** The seven stateless calculators. No key needed; a valid key raises the daily cap. */
@ApiTags('calculators')
@ApiExtraModels(OperatingCostRequest)
@OptionalAuth()
@RateLimitPolicy('calc-daily')
@Controller('api/v1/calc')
export class CalculatorsController {
  constructor(private readonly pool: CalculatorPool) {}

  @CalculatorRoute(FEE_CALCULATOR)
  feeCalculator(@Body() body: FeeCalculatorRequest) {
    return this.pool.run(FEE_CALCULATOR, body);
  }

  @CalculatorRoute(NAV_VALIDATOR)
  navValidator(@Body() body: NavValidatorRequest) {
    return this.pool.run(NAV_VALIDATOR, body);
  }

  @CalculatorRoute(EXPOSURE_ANALYSIS)
  exposureAnalysis(@Body() body: ExposureAnalysisRequest) {
    return this.pool.run(EXPOSURE_ANALYSIS, body);
  }

  @CalculatorRoute(OPERATING_COST_CALCULATOR)
  operatingCostCalculator(@Body() body: OperatingCostRequest) {
    return this.pool.run(OPERATING_COST_CALCULATOR, body);
  }

  @CalculatorRoute(BACK_OFFICE_SAVINGS)
  backOfficeSavings(@Body() body: OperatingCostRequest) {
    return this.pool.run(BACK_OFFICE_SAVINGS, body);
  }

  @CalculatorRoute(FUND_HEALTH_CHECK)
  fundHealthCheck(@Body() body: FundHealthCheckRequest) {
    return this.pool.run(FUND_HEALTH_CHECK, body);
  }

  @CalculatorRoute(LP_REPORT_GRADER)
  lpReportGrader(@Body() body: LpReportGraderRequest) {
    return this.pool.run(LP_REPORT_GRADER, body);
  }
}
