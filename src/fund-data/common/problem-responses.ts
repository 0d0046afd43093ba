import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** The problem+json answers every fund-data route can give (documented once per controller). */
export const FundDataProblems = () =>
  applyDecorators(
    ApiResponse({
      status: 400,
      description:
        'invalid_parameter, missing_parameter or window_too_large (application/problem+json; every failing field listed)',
    }),
    ApiResponse({ status: 401, description: 'unauthenticated: no, invalid, revoked or expired key' }),
    ApiResponse({
      status: 403,
      description: 'insufficient_scope (needs fund:read) or forbidden (the key is not bound to a fund)',
    }),
    ApiResponse({
      status: 404,
      description: 'not_found: unknown account, preset, share class or date without a usable run',
    }),
    ApiResponse({ status: 429, description: 'rate_limited (fund-minute policy), with Retry-After' }),
  );
