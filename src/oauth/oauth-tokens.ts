import { Inject, Injectable } from '@nestjs/common';
import type { AccessTokenResolver, TokenResult } from '../common/auth/credential-resolver';
import type { Principal } from '../common/auth/principal';
import { APP_CONFIG, AppConfig } from '../config/config';
import { KeysRepository } from '../keys/keys.repository';
import { effectiveScopes, toPrincipal } from '../keys/key-principal';
import type { KeyRow } from '../keys/keys.repository';
import type { Scope } from '../common/auth/scopes';
import { OAuthRepository } from './oauth.repository';
import { hashSecret } from '../common/crypto/secrets';

/**
 * Opaque OAuth secrets: a prefix naming the kind, 43 base64url characters (256 random bits). Only
 * their SHA-256 is stored, as for keys; a lookup by hash needs no constant-time compare of secrets.
 */
export const ACCESS_PREFIX = 'fgat_';
export const REFRESH_PREFIX = 'fgrt_';
export const CODE_PREFIX = 'fgac_';
export const CLIENT_SECRET_PREFIX = 'fgcs_';
const SECRET = /^fg(at|rt|ac|cs)_[A-Za-z0-9_-]{43}$/;

export function isWellFormedSecret(secret: string, prefix: string): boolean {
  return secret.startsWith(prefix) && SECRET.test(secret);
}

export function isAccessToken(bearer: string): boolean {
  return bearer.startsWith(ACCESS_PREFIX);
}

/** The MCP server's canonical URI (RFC 8707 resource / RFC 9728 resource): the audience of every token. */
export function mcpResource(config: Pick<AppConfig, 'publicBaseUrl'>): string {
  return `${config.publicBaseUrl}/api/mcp`;
}

export function resourceMetadataUrl(config: Pick<AppConfig, 'publicBaseUrl'>): string {
  return `${config.publicBaseUrl}/.well-known/oauth-protected-resource/api/mcp`;
}

/** What a client is told to ask for; the person may grant more (up to their role) or less in the console. */
export const DEFAULT_SCOPE = 'fund:read';
/**
 * Scopes an OAuth client may hold: those the fund MCP server's tools need (read tools fund:read,
 * propose tools fund:propose) and nothing else — never the checker's (proposals:review), key
 * management, nor scopes of routes no tool reaches (nav:publish, webhooks:manage).
 */
export const GRANTABLE_SCOPES = ['fund:read', 'fund:propose'] as const;

/**
 * The scopes an app's tokens act with: its key's effective scopes (stored ∩ the person's current role)
 * among the grantable ones (a grant made when more was grantable keeps no more than today's).
 */
export function scopesInForce(key: KeyRow): Scope[] {
  return effectiveScopes(key).filter((s) => (GRANTABLE_SCOPES as readonly Scope[]).includes(s));
}

/**
 * Resource-server side: an access token → the Principal of its grant's key (the person's current
 * role caps its scopes, as for any key), marked `via: 'oauth'` with the client. Read from PostgreSQL
 * on every request (no cache), so revoking the app in the console ends access at once.
 */
@Injectable()
export class OAuthTokenAuth implements AccessTokenResolver {
  constructor(
    private readonly oauth: OAuthRepository,
    private readonly keys: KeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  recognizes(bearer: string): boolean {
    return isAccessToken(bearer);
  }

  /** WWW-Authenticate parameters of the MCP server's 401 (RFC 9728 §5.1; the scope a client should ask for). */
  challenge(): string {
    return `resource_metadata="${resourceMetadataUrl(this.config)}", scope="${DEFAULT_SCOPE}"`;
  }

  async authenticate(raw: string): Promise<TokenResult> {
    if (!isWellFormedSecret(raw, ACCESS_PREFIX)) return { ok: false, reason: 'unknown' };
    const token = await this.oauth.token(hashSecret(raw));
    if (!token || token.kind !== 'access') return { ok: false, reason: 'unknown' };
    if (token.revoked_at || token.grant_revoked_at) return { ok: false, reason: 'revoked' };
    if (token.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    if (token.resource !== mcpResource(this.config)) return { ok: false, reason: 'audience' };
    const key = await this.keys.keyById(token.key_id);
    if (!key || key.revoked_at) return { ok: false, reason: 'revoked' };
    if (key.user_status !== 'active') return { ok: false, reason: 'disabled' };
    this.oauth.touchGrant(token.grant_id).catch(() => undefined);
    const principal: Principal = {
      ...toPrincipal(key),
      scopes: scopesInForce(key),
      via: 'oauth',
      oauthClient: { id: token.client_id, name: token.client_name },
    };
    return { ok: true, principal: Object.freeze(principal) };
  }
}
