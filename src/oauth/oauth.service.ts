import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { sameBytes } from '../common/crypto/same-bytes';
import type { EntityManager } from 'typeorm';
import { isScope, type Scope } from '../common/auth/scopes';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from '../common/validation/safe-text';
import { APP_CONFIG, AppConfig } from '../config/config';
import { KeysRepository } from '../keys/keys.repository';
import { ClientsService, redirectUriMatches } from './clients.service';
import { ConnectedApps } from './connected-apps';
import { OAuthError, OAuthReturnError } from './oauth-error';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import {
  ACCESS_PREFIX,
  isWellFormedSecret,
  mcpResource,
  REFRESH_PREFIX,
  CODE_PREFIX,
  scopesInForce,
} from './oauth-tokens';
import { ClientRow, OAuthRepository } from './oauth.repository';

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/**
 * A grant's absolute lifetime: no token of it lives past its creation + 90 days, however often it is
 * refreshed; then the person approves the app again on the consent page.
 */
export const GRANT_MAX_SECONDS = 90 * 24 * 3600;
export const AUTHORIZATION_REQUEST_SECONDS = 10 * 60;
export const CODE_SECONDS = 60;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

type Params = Record<string, unknown>;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A protocol parameter; text PostgreSQL could not compare (NUL, invalid Unicode) is an invalid request naming it. */
function str(params: Params, name: string): string | undefined {
  const v = params[name];
  if (Array.isArray(v))
    throw name === 'resource' // RFC 8707 allows several; this server issues tokens for one
      ? new OAuthError('invalid_target', 'one resource per request: this server issues tokens for one resource')
      : new OAuthError('invalid_request', `${name} must not be repeated`); // RFC 6749 §3.1
  if (typeof v !== 'string' || v === '') return undefined;
  if (!isSafeText(v)) throw new OAuthError('invalid_request', `${name} ${UNSAFE_TEXT_MESSAGE}`);
  return v;
}

/** `Basic <credentials>`: the scheme is case-insensitive (RFC 9110 §11.1), as the Bearer guard reads it. */
const BASIC_SCHEME = /^basic /i;

/** One half of HTTP Basic credentials (RFC 6749 §2.3.1: form-urlencoded); null when it is not valid encoding or text. */
function basicPart(encoded: string): string | null {
  try {
    const v = decodeURIComponent(encoded.replace(/\+/g, ' '));
    return isSafeText(v) ? v : null;
  } catch {
    return null; // a stray "%" (URIError)
  }
}

/** The authorization server's protocol: authorize (validation, then the console consent), token, revoke. */
@Injectable()
export class OAuthService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly clients: ClientsService,
    private readonly keys: KeysRepository,
    private readonly connected: ConnectedApps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get issuer(): string {
    return this.config.publicBaseUrl;
  }

  /**
   * GET /oauth/authorize: answers where to send the browser. An unknown client or a redirect URI
   * that is not registered (exactly; a loopback IP one at any port, `redirectUriMatches`) is an OAuthError shown to the person (never a redirect); every
   * later problem is an OAuthReturnError: a page naming the problem with a link back to the client's
   * redirect URI carrying `error`, `state` and `iss` (never an automatic redirect: RFC 9700 §4.11.2). A request
   * that goes on to the consent page is bound to the browser (`bindBrowser`: the hash of its cookie).
   */
  async authorize(q: Params, bindBrowser: () => Buffer): Promise<string> {
    // a repeated parameter is refused before the redirect URI is trusted: which of two would be meant?
    for (const name of Object.keys(q)) str(q, name);
    const clientId = str(q, 'client_id');
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
    const client = await this.clients.resolve(clientId);
    if (!client) throw new OAuthError('invalid_client', 'unknown client_id', 400);
    const asked = str(q, 'redirect_uri');
    const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !client.redirect_uris.some((r) => redirectUriMatches(r, redirectUri))) {
      throw new OAuthError(
        'invalid_request',
        'redirect_uri must exactly match one the client registered (the port of a http://127.0.0.1 or http://[::1] one may differ)',
      );
    }
    const state = str(q, 'state') ?? null;
    const back: (error: string, description: string) => never = (error, description) => {
      throw new OAuthReturnError(
        error,
        description,
        this.redirect(redirectUri, { error, error_description: description, state }),
      );
    };
    if (state !== null && state.length > 1000) back('invalid_request', 'state is longer than 1000 characters');
    if (str(q, 'response_type') !== 'code') back('unsupported_response_type', 'response_type must be code');
    const challenge = str(q, 'code_challenge');
    if (!challenge) back('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256');
    if (str(q, 'code_challenge_method') !== 'S256')
      back('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!PKCE_CHALLENGE.test(challenge))
      back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
    const resource = str(q, 'resource') ?? mcpResource(this.config);
    if (resource !== mcpResource(this.config))
      back('invalid_target', `this server issues tokens only for ${mcpResource(this.config)}`);
    const scope = (str(q, 'scope') ?? '').split(' ').filter(isScope);
    const id = await this.repo.insertAuthorization({
      clientId: client.client_id,
      redirectUri,
      codeChallenge: challenge,
      state,
      scope,
      resource,
      ttlSeconds: AUTHORIZATION_REQUEST_SECONDS,
      browserHash: bindBrowser(),
    });
    return `${this.config.publicBaseUrl}/console/oauth/consent?request=${id}`;
  }

  /** The redirect back to the client (RFC 9207: `iss` on every authorization response). */
  redirect(redirectUri: string, params: Record<string, string | null>): string {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
  }

  /** POST /oauth/token. */
  async token(body: Params, authorization: string | undefined): Promise<TokenResponse> {
    const client = await this.authenticateClient(body, authorization);
    const grantType = str(body, 'grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(client, body);
    if (grantType === 'refresh_token') return this.refresh(client, body);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private async exchangeCode(client: ClientRow, body: Params): Promise<TokenResponse> {
    const code = str(body, 'code');
    const verifier = str(body, 'code_verifier');
    if (!code || !isWellFormedSecret(code, CODE_PREFIX)) throw new OAuthError('invalid_grant', 'the code is not valid');
    if (!verifier || !PKCE_VERIFIER.test(verifier))
      throw new OAuthError('invalid_grant', 'code_verifier is required (43 to 128 characters)');
    const outcome = await this.repo.transaction(async (m) => {
      const a = await this.repo.with(m).authorizationByCode(hashSecret(code));
      if (!a || a.client_id !== client.client_id) return { error: 'the code is not valid' };
      // A code used twice: someone else has it; the tokens it gave are revoked (RFC 6749 §4.1.2).
      if (a.code_used_at) return { error: 'the code was already used; the tokens it gave are revoked', reused: a.id };
      if (!a.code_expires_at || a.code_expires_at.getTime() <= Date.now()) return { error: 'the code has expired' };
      if (str(body, 'redirect_uri') !== a.redirect_uri)
        return { error: 'redirect_uri does not match the authorization request' };
      const resource = str(body, 'resource');
      if (resource !== undefined && resource !== a.resource)
        return { error: 'resource does not match the authorization request', code: 'invalid_target' };
      if (!samePkce(verifier, a.code_challenge)) return { error: 'code_verifier does not match the code_challenge' };
      await this.repo.with(m).markCodeUsed(a.id);
      const grant = await this.grantInForce(m, a.grant_id!);
      if ('refused' in grant) return { error: grant.refused };
      return { tokens: await this.issue(m, a.grant_id!, a.id, grant.scopes) };
    });
    if ('reused' in outcome && outcome.reused) await this.revokeFamily(outcome.reused);
    if (!outcome.tokens) throw new OAuthError(outcome.code ?? 'invalid_grant', outcome.error);
    return outcome.tokens;
  }

  /**
   * Reuse detected (a rotated refresh token, a code used twice) or a refresh token revoked: every
   * token of the family ends, and with it the app's grant and key (one family per grant). Under the
   * family's lock, which a refresh holds while it issues: a refresh in flight commits first and its
   * new tokens are revoked too (a plain UPDATE sees only the rows committed when it starts, and
   * missed them).
   */
  private revokeFamily(familyId: string): Promise<void> {
    return this.repo.transaction(async (m) => {
      await this.repo.with(m).lockFamily(familyId);
      await this.repo.with(m).revokeFamily(familyId);
      await this.connected.endOfFamily(m, familyId); // the app is no longer connected: grant and key end
    });
  }

  /** Rotation: each refresh token works once; presenting a used one again revokes its whole family. */
  private async refresh(client: ClientRow, body: Params): Promise<TokenResponse> {
    const raw = str(body, 'refresh_token');
    if (!raw || !isWellFormedSecret(raw, REFRESH_PREFIX))
      throw new OAuthError('invalid_grant', 'the refresh token is not valid');
    const outcome = await this.repo.transaction(async (m) => {
      const seen = await this.repo.with(m).token(hashSecret(raw));
      if (!seen || seen.kind !== 'refresh' || seen.client_id !== client.client_id)
        return { error: 'the refresh token is not valid' };
      await this.repo.with(m).lockFamily(seen.family_id); // the family's lock first, as revokeFamily takes it
      const t = await this.repo.with(m).token(seen.token_hash, true);
      if (!t) return { error: 'the refresh token is not valid' };
      if (t.used_at)
        return {
          error: 'the refresh token was already used; every token of this sign-in is revoked',
          reused: t.family_id,
        };
      if (t.revoked_at || t.grant_revoked_at) return { error: 'the refresh token has been revoked' };
      if (t.expires_at.getTime() <= Date.now()) return { error: 'the refresh token has expired' };
      if (t.grant_created_at.getTime() + GRANT_MAX_SECONDS * 1000 <= Date.now())
        return { error: `this app was approved more than ${GRANT_MAX_SECONDS / 86_400} days ago; connect it again` };
      const resource = str(body, 'resource');
      if (resource !== undefined && resource !== t.resource)
        return { error: 'resource does not match the grant', code: 'invalid_target' };
      const grant = await this.grantInForce(m, t.grant_id);
      if ('refused' in grant) return { error: grant.refused };
      await this.repo.with(m).markTokenUsed(t.token_hash);
      return { tokens: await this.issue(m, t.grant_id, t.family_id, grant.scopes) };
    });
    if ('reused' in outcome && outcome.reused) await this.revokeFamily(outcome.reused);
    if (!outcome.tokens) throw new OAuthError(outcome.code ?? 'invalid_grant', outcome.error);
    return outcome.tokens;
  }

  /**
   * The scopes the grant's tokens would act with now (`scopesInForce`, what the resource server uses),
   * or why it may no longer be used: what the resource server checks on every access token (the
   * grant's key live, its person active, a role on the fund that leaves the grant a scope), checked
   * before new tokens are issued, so a removed member's or disabled person's app cannot keep
   * refreshing (its access tokens would be refused, but it got them).
   */
  private async grantInForce(m: EntityManager, grantId: string): Promise<{ scopes: Scope[] } | { refused: string }> {
    const key = await this.keys.with(m).keyById(await this.repo.with(m).grantKey(grantId));
    if (!key || key.revoked_at || (key.expires_at && key.expires_at.getTime() <= Date.now()))
      return { refused: 'the app was disconnected; connect it again' };
    if (key.user_status !== 'active') return { refused: 'the person who connected this app is disabled' };
    const scopes = scopesInForce(key);
    if (scopes.length === 0)
      return {
        refused: 'the person who connected this app no longer has a role on the fund that allows it; connect it again',
      };
    return { scopes };
  }

  /** A new pair in the family; `scope` reports the scopes in force (role-capped), not those stored at consent. */
  private async issue(m: EntityManager, grantId: string, familyId: string, scopes: Scope[]): Promise<TokenResponse> {
    const access = newSecret(ACCESS_PREFIX);
    const refresh = newSecret(REFRESH_PREFIX);
    const family = { grantId, familyId, grantMaxSeconds: GRANT_MAX_SECONDS };
    const expiresIn = await this.repo
      .with(m)
      .insertToken({ hash: hashSecret(access), kind: 'access', ttlSeconds: ACCESS_TOKEN_SECONDS, ...family });
    await this.repo
      .with(m)
      .insertToken({ hash: hashSecret(refresh), kind: 'refresh', ttlSeconds: REFRESH_TOKEN_SECONDS, ...family });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: expiresIn,
      refresh_token: refresh,
      scope: scopes.join(' '),
    };
  }

  /** POST /oauth/revoke (RFC 7009): always 200 for a well-authenticated client; a refresh token ends its family. */
  async revoke(body: Params, authorization: string | undefined): Promise<void> {
    const client = await this.authenticateClient(body, authorization);
    const raw = str(body, 'token');
    if (!raw) throw new OAuthError('invalid_request', 'token is required');
    const t = await this.repo.token(hashSecret(raw));
    if (!t || t.client_id !== client.client_id) return;
    if (t.kind === 'refresh') await this.revokeFamily(t.family_id);
    else await this.repo.revokeToken(t.token_hash);
  }

  /** client_secret_basic, client_secret_post or none (public clients: PKCE is their proof). */
  private async authenticateClient(body: Params, authorization: string | undefined): Promise<ClientRow> {
    let clientId = str(body, 'client_id');
    let secret = str(body, 'client_secret');
    let method: ClientRow['token_endpoint_auth_method'] = secret ? 'client_secret_post' : 'none';
    if (authorization !== undefined && BASIC_SCHEME.test(authorization)) {
      const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials');
      const [id, pass] = [basicPart(decoded.slice(0, colon)), basicPart(decoded.slice(colon + 1))];
      if (id === null || pass === null) throw new OAuthError('invalid_client', 'malformed Basic credentials');
      [clientId, secret, method] = [id, pass, 'client_secret_basic'];
    }
    const client = clientId ? await this.repo.client(clientId) : null;
    if (!client) throw new OAuthError('invalid_client', 'unknown client');
    if (client.token_endpoint_auth_method === 'none') {
      if (method !== 'none')
        throw new OAuthError('invalid_client', 'this client is public: it authenticates with PKCE, not a secret');
      return client;
    }
    const presented = secret ? hashSecret(secret) : Buffer.alloc(32);
    const stored = client.client_secret_hash ?? Buffer.alloc(32, 1);
    if (!secret || method === 'none' || !sameBytes(presented, stored))
      throw new OAuthError('invalid_client', 'client authentication failed');
    return client;
  }
}

function samePkce(verifier: string, challenge: string): boolean {
  return sameBytes(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}
