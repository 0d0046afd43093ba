import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PolicyName } from '../../config/config';
import { andThen, type MaybePromise } from '../../common/async/maybe-promise';
import { ProblemError } from '../../common/errors/problem';
import { RATE_POLICY } from './rate-limit.decorator';
import { RateLimitService, type RateWindow, rateLimitHeaders } from './rate-limit.service';

/** Runs after authentication; counts the request against the route's policy for this caller. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly policies = new WeakMap<object, PolicyName | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  /** Synchronous when the count is decided in-process (Nest then awaits nothing for this guard). */
  canActivate(ctx: ExecutionContext): MaybePromise<boolean> {
    const handler = ctx.getHandler();
    let policy = this.policies.get(handler);
    if (policy === undefined) {
      policy = this.reflector.getAllAndOverride<PolicyName>(RATE_POLICY, [handler, ctx.getClass()]) ?? null;
      this.policies.set(handler, policy);
    }
    if (policy === null) return true;
    const http = ctx.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    return andThen(enforceRateLimit(this.limits, policy, req, http.getResponse<FastifyReply>()), () => true);
  }
}

/** Shared by the guard and the MCP servers (one count per tool call); synchronous when `hit` is. */
export function enforceRateLimit(
  limits: RateLimitService,
  policy: PolicyName,
  req: FastifyRequest,
  reply: FastifyReply,
): MaybePromise<void> {
  return andThen(limits.hit(policy, req.principal, req.ip), (w) => applyWindow(policy, w, reply));
}

/** The RateLimit headers on every answer; a refusal is a 429 with Retry-After. */
function applyWindow(policy: PolicyName, w: RateWindow, reply: FastifyReply): void {
  const headers = rateLimitHeaders(w);
  reply.headers(headers);
  if (w.blocked) {
    throw new ProblemError(
      'rate_limited',
      `rate limit "${policy}" of ${w.limit} requests per ${w.windowSeconds} s exceeded; retry in ${w.reset} s`,
      undefined,
      { ...headers, 'Retry-After': String(w.reset) },
    );
  }
}
