import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { PolicyName } from '../../config/config';

export const RATE_POLICY = 'fundgate:rate-policy';

/** The route counts against this policy (per key, or per client IP without a key). */
export const RateLimitPolicy = (policy: PolicyName) =>
  applyDecorators(SetMetadata(RATE_POLICY, policy), ApiExtension('x-rate-limit-policy', policy));
