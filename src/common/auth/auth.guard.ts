import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { type MaybePromise, andThen } from '../async/maybe-promise';
import { ProblemError } from '../errors/problem';
import {
  AUTH_MODE,
  AuthMode,
  OAUTH_RESOURCE,
  REQUIRED_SCOPES,
  SESSION_ACCESS,
  SessionAccessOptions,
} from './auth.decorators';
import {
  ACCESS_TOKEN_RESOLVER,
  type AccessTokenResolver,
  CREDENTIAL_RESOLVER,
  type CredentialResolver,
  SESSION_RESOLVER,
  type SessionResolver,
  type TokenFailure,
} from './credential-resolver';
import type { Scope } from './scopes';

/** `Bearer <credentials>`: the scheme is case-insensitive (RFC 9110 §11.1), then one or more spaces (RFC 6750 §2.1). */
const BEARER = /^Bearer +([!-~]{1,200})$/i;
const REASONS = {
  malformed: 'the API key is malformed',
  unknown: 'the API key is not valid',
  revoked: 'the API key has been revoked',
  expired: 'the API key has expired',
  disabled: 'the API key belongs to a person whose account is disabled',
} as const;
const TOKEN_REASONS: Record<TokenFailure, string> = {
  unknown: 'the access token is not valid',
  expired: 'the access token has expired',
  revoked: 'the access token has been revoked (the app was disconnected)',
  audience: 'the access token was issued for another resource',
  disabled: 'the access token belongs to a person whose account is disabled',
};

/** `challenge`: extra WWW-Authenticate parameters of a protected resource (resource_metadata, scope). */
export function unauthenticated(detail: string, invalidToken = true, challenge: string | null = null): ProblemError {
  const params = [invalidToken ? 'error="invalid_token"' : null, challenge].filter((p) => p !== null);
  return new ProblemError('unauthenticated', detail, undefined, {
    'WWW-Authenticate': params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer',
  });
}

interface RouteAuth {
  mode: AuthMode;
  scopes: Scope[] | undefined;
  session: SessionAccessOptions | undefined;
  oauthResource: boolean;
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
    @Inject(CREDENTIAL_RESOLVER) private readonly keys: CredentialResolver,
    @Inject(SESSION_RESOLVER) private readonly sessions: SessionResolver,
    @Inject(ACCESS_TOKEN_RESOLVER) private readonly tokens: AccessTokenResolver,
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
        oauthResource: this.reflector.getAllAndOverride<boolean>(OAUTH_RESOURCE, targets) ?? false,
      };
      this.routeAuth.set(handler, auth);
    }
    return auth;
  }

  /** Synchronous for a cached API key (Nest then awaits nothing for this guard); a promise otherwise. */
  canActivate(ctx: ExecutionContext): MaybePromise<boolean> {
    const { mode, scopes, session, oauthResource } = this.authOf(ctx);
    if (mode === 'none') return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (session && (session.only || !req.headers.authorization) && this.sessions.cookieValue(req) !== null) {
      return this.viaSession(req, scopes, session);
    }
    if (session?.only)
      throw new ProblemError(
        'unauthenticated',
        'sign in to the console: this route takes a console session, not an API key',
      );
    const challenge = oauthResource ? this.tokens.challenge() : null;
    return andThen(this.authenticateBearer(req, mode === 'optional', challenge), () => {
      if (mode === 'optional') return true;
      if (scopes === undefined)
        throw new ProblemError('insufficient_scope', 'this route declares no scope and is closed');
      assertScopes(req, scopes);
      return true;
    });
  }

  private async viaSession(req: FastifyRequest, scopes: Scope[] | undefined, session: SessionAccessOptions) {
    await this.sessions.authenticate(req);
    if (scopes === undefined)
      throw new ProblemError('insufficient_scope', 'this route declares no scope and is closed');
    if (!session.selfService) assertScopes(req, scopes);
    return true;
  }

  /** Sets req.principal from the Authorization header. `challenge`: set on the OAuth protected resource only. */
  private authenticateBearer(req: FastifyRequest, optional: boolean, challenge: string | null): MaybePromise<void> {
    const header = req.headers.authorization;
    if (header === undefined || header === '') {
      if (optional) return;
      throw unauthenticated(
        'an API key or OAuth access token is required: send Authorization: Bearer <key or token>',
        false,
        challenge,
      );
    }
    const match = BEARER.exec(header);
    if (!match) throw unauthenticated('the Authorization header must be "Bearer <key>"', true, challenge);
    if (this.tokens.recognizes(match[1])) {
      // RFC 8707: an access token's audience is the MCP server (its tools run in-process behind that
      // one route); anywhere else the token is refused.
      if (challenge === null) {
        throw unauthenticated(
          'this OAuth access token is for the MCP server (/api/mcp) only; REST routes take an API key',
        );
      }
      return this.tokens.authenticate(match[1]).then((token) => {
        if (!token.ok) throw unauthenticated(TOKEN_REASONS[token.reason], true, challenge);
        req.principal = token.principal;
      });
    }
    return andThen(this.keys.authenticate(match[1]), (r) => {
      if (!r.ok) throw unauthenticated(REASONS[r.reason], true, challenge);
      req.principal = r.principal;
    });
  }
}

export function assertScopes(req: FastifyRequest, scopes: readonly Scope[]): void {
  const held = req.principal?.scopes ?? [];
  const missing = scopes.filter((s) => !held.includes(s));
  if (missing.length > 0) {
    const who =
      req.principal?.via === 'session'
        ? 'your role on this fund lacks'
        : req.principal?.via === 'oauth'
          ? "the app's grant lacks"
          : 'the key lacks';
    throw new ProblemError(
      'insufficient_scope',
      `${who} the scope ${missing.join(', ')}`,
      missing.map((s) => ({ field: 'scope', message: `requires ${s}` })),
    );
  }
}
