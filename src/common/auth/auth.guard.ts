import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../errors/problem';
import { KeysService } from '../../keys/keys.service';
import { SessionAuth } from '../../identity/session-auth';
import { AUTH_MODE, AuthMode, REQUIRED_SCOPES, SESSION_ACCESS, SessionAccessOptions } from './auth.decorators';
import type { Scope } from './scopes';

const BEARER = /^Bearer ([!-~]{1,200})$/;
const REASONS = {
  malformed: 'the API key is malformed',
  unknown: 'the API key is not valid',
  revoked: 'the API key has been revoked',
  expired: 'the API key has expired',
  disabled: 'the API key belongs to a person whose account is disabled',
} as const;

export function unauthenticated(detail: string, invalidToken = true): ProblemError {
  return new ProblemError('unauthenticated', detail, undefined, {
    'WWW-Authenticate': invalidToken ? 'Bearer error="invalid_token"' : 'Bearer',
  });
}

interface RouteAuth {
  mode: AuthMode;
  scopes: Scope[] | undefined;
  session: SessionAccessOptions | undefined;
}

/**
 * Authenticates the bearer key (routes default to "required": fail-closed), then checks the
 * route's declared scopes. A required-auth route that declares no scope is refused outright.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly routeAuth = new WeakMap<object, RouteAuth>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeysService,
    private readonly sessions: SessionAuth,
  ) {}

  private authOf(ctx: ExecutionContext): RouteAuth {
    const handler = ctx.getHandler();
    let auth = this.routeAuth.get(handler);
    if (!auth) {
      const targets = [handler, ctx.getClass()];
      auth = {
        mode: this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, targets) ?? 'required',
        scopes: this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets),
        session: this.reflector.getAllAndOverride<SessionAccessOptions>(SESSION_ACCESS, targets),
      };
      this.routeAuth.set(handler, auth);
    }
    return auth;
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const { mode, scopes, session } = this.authOf(ctx);
    if (mode === 'none') return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (session && (session.only || !req.headers.authorization) && this.sessions.cookieValue(req) !== null) {
      await this.sessions.authenticate(req);
      if (scopes === undefined) throw new ProblemError('insufficient_scope', 'this route declares no scope and is closed');
      if (!session.selfService) assertScopes(req, scopes);
      return true;
    }
    if (session?.only) throw new ProblemError('unauthenticated', 'sign in to the console: this route takes a console session, not an API key');
    await authenticateRequest(req, this.keys, mode === 'optional');
    if (mode === 'optional') return true;
    if (scopes === undefined) throw new ProblemError('insufficient_scope', 'this route declares no scope and is closed');
    assertScopes(req, scopes);
    return true;
  }
}

/** Sets req.principal from the Authorization header; shared by the guard and the MCP servers. */
export async function authenticateRequest(req: FastifyRequest, keys: KeysService, optional: boolean): Promise<void> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    if (optional) return;
    throw unauthenticated('an API key is required: send Authorization: Bearer <key>', false);
  }
  const match = BEARER.exec(header);
  if (!match) throw unauthenticated('the Authorization header must be "Bearer <key>"');
  const result = await keys.authenticate(match[1]);
  if (!result.ok) throw unauthenticated(REASONS[result.reason]);
  req.principal = result.principal;
}

export function assertScopes(req: FastifyRequest, scopes: readonly Scope[]): void {
  const held = req.principal?.scopes ?? [];
  const missing = scopes.filter((s) => !held.includes(s));
  if (missing.length > 0) {
    const who = req.principal?.via === 'session' ? 'your role on this fund lacks' : 'the key lacks';
    throw new ProblemError('insufficient_scope', `${who} the scope ${missing.join(', ')}`,
      missing.map((s) => ({ field: 'scope', message: `requires ${s}` })));
  }
}
