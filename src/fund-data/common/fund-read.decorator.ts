import { applyDecorators, Get, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresScopes } from '../../common/auth/auth.decorators';
import { Returns } from '../../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../../usage/rate-limit/rate-limit.decorator';

/**
 * A fund-data read route: GET, scope fund:read, the fund-minute rate limit, and its response schema
 * (which documents it in OpenAPI, drives redaction and becomes the MCP tool's output schema).
 */
export const FundRead = (path: string, dto: Type<unknown>, summary: string, opts: { isArray?: boolean } = {}) =>
  applyDecorators(
    Get(path),
    RequiresScopes('fund:read'),
    RateLimitPolicy('fund-minute'),
    ApiOperation({ summary }),
    Returns(dto, opts),
  );
