import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal';
import type { Scope } from './scopes';

export const AUTH_MODE = 'fundgate:auth-mode';
export const REQUIRED_SCOPES = 'fundgate:scopes';
export type AuthMode = 'required' | 'optional' | 'none';

/**
 * The route needs a valid key holding every listed scope. An empty list is an explicit
 * declaration that any valid key will do (GET /me, GET /usage).
 */
export const RequiresScopes = (...scopes: Scope[]) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    SetMetadata(AUTH_MODE, 'required'),
    ApiBearerAuth('bearer'),
    ApiExtension('x-required-scopes', scopes),
  );

/** No key needed; a supplied key must still be valid (it raises limits). Calculators, public MCP. */
export const OptionalAuth = () =>
  applyDecorators(SetMetadata(AUTH_MODE, 'optional'), ApiSecurity('bearer'), ApiSecurity({}));

/** No authentication at all (health, docs). */
export const PublicRoute = () => SetMetadata(AUTH_MODE, 'none');

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
