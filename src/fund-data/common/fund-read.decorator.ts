import { applyDecorators, Get, type Type } from '@nestjs/common';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';
import { DETAILS } from '../../common/openapi/contract';
import { RequiresScopes } from '../../common/auth/auth.decorators';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';

/**
 * A fund-data read route: GET, scope fund:read, the fund-minute rate limit, and its response schema
 * (which documents it in OpenAPI, drives redaction and becomes the MCP tool's output schema);
 * `details`: what the description says beyond the summary.
 */
export const FundRead = (
  path: string,
  dto: Type<unknown>,
  summary: string,
  opts: { isArray?: boolean; details?: string } = {},
) =>
  applyDecorators(
    Get(path),
    RequiresScopes('fund:read'),
    RateLimitPolicy('fund-minute'),
    ApiOperation({ summary }),
    ...(opts.details ? [ApiExtension(DETAILS, opts.details)] : []),
    Returns(dto, { isArray: opts.isArray }),
  );
