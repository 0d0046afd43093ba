import type { FastifyRequest } from 'fastify';
import type { MaybePromise } from '../async/maybe-promise';
import type { Principal } from './principal';

/**
 * What the AuthGuard needs from the features that own credentials, as interfaces under injection
 * tokens, so `common/` never imports a feature: API keys (`KeysService`, provided by `KeysModule`),
 * console sessions (`SessionAuth`, `IdentityModule`) and OAuth access tokens (`OAuthTokenAuth`,
 * `OAuthModule`).
 */
export type AuthFailure = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'disabled';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

/** A raw bearer API key → the principal it stands for, or why not (synchronous when the resolver can answer from memory). */
export interface CredentialResolver {
  authenticate(rawKey: string): MaybePromise<AuthResult>;
}
export const CREDENTIAL_RESOLVER = Symbol('CREDENTIAL_RESOLVER');

/** The console session path: the session cookie's value, and cookie → req.principal (or a ProblemError). */
export interface SessionResolver {
  cookieValue(req: FastifyRequest): string | null;
  authenticate(req: FastifyRequest): Promise<void>;
}
export const SESSION_RESOLVER = Symbol('SESSION_RESOLVER');

export type TokenFailure = 'unknown' | 'expired' | 'revoked' | 'audience' | 'disabled';
export type TokenResult = { ok: true; principal: Principal } | { ok: false; reason: TokenFailure };

/** OAuth access tokens, taken only on the protected resource (the fund MCP server). */
export interface AccessTokenResolver {
  /** Whether a bearer is an access token (by its prefix) rather than an API key. */
  recognizes(bearer: string): boolean;
  /** WWW-Authenticate parameters of the protected resource's 401. */
  challenge(): string;
  authenticate(rawToken: string): Promise<TokenResult>;
}
export const ACCESS_TOKEN_RESOLVER = Symbol('ACCESS_TOKEN_RESOLVER');
