import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
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

export const SESSION_ACCESS = 'fundgate:session-access';
export interface SessionAccessOptions {
  /** Console-only: a bearer key is refused; only a signed-in person's session is accepted. */
  only?: boolean;
  /**
   * The route's scope applies to keys; a session reaches it without the scope, and the service
   * limits it to the person's own resources (admin keys: a person's own keys).
   */
  selfService?: boolean;
}

/**
 * The route also accepts a console session cookie (instead of a bearer key). With a session, the
 * fund comes from `X-Fundgate-Fund` and every non-GET request must pass CSRF (Origin + X-CSRF-Token).
 */
export const SessionAccess = (options: SessionAccessOptions = {}) =>
  applyDecorators(SetMetadata(SESSION_ACCESS, options), ApiExtension('x-session-access', { csrf: true, ...options }));

export const OAUTH_RESOURCE = 'fundgate:oauth-resource';
/**
 * The route is the OAuth protected resource (the fund MCP server): it also takes OAuth access tokens
 * whose audience it is, and its 401 names the resource metadata (RFC 9728) so a client can sign in.
 */
export const OAuthProtectedResource = () => SetMetadata(OAUTH_RESOURCE, true);

/** No authentication at all (health, docs). */
export const PublicRoute = () => SetMetadata(AUTH_MODE, 'none');

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
