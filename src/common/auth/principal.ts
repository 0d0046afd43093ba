import type { Plan } from '../../config/config';
import { ProblemError } from '../errors/problem';
import type { Role, Scope } from './scopes';

/**
 * Who is calling: a key (of a person or of a fund's service identity) or a person's console
 * session. `scopes` are effective: a person key's stored scopes ∩ the person's current role on the
 * key's fund; a session's are its role's on the fund chosen by X-Fundgate-Fund (none without one).
 */
export interface Principal {
  /** 'oauth': an OAuth access token of an MCP client; it acts through its grant's key (keyId). */
  via: 'key' | 'session' | 'oauth';
  /** Null for a session. */
  keyId: string | null;
  keyName: string | null;
  displayPrefix: string | null;
  accountId: string;
  accountName: string;
  /** The person behind the key or session; null for a service identity. */
  userId: string | null;
  /** The person's role on `fund` (null: no fund, or a service identity). */
  role: Role | null;
  fund: { id: string; slug: string; name: string } | null;
  scopes: readonly Scope[];
  plan: Plan;
  isDemo: boolean;
  createdAt: string;
  /** The key's expiry (null for a session and for keys that never expire). */
  expiresAt: string | null;
  lastUsedAt: string | null;
  /** Session only: its id (SHA-256 of the cookie) and when the person last passed a TOTP check. */
  sessionId?: Buffer;
  totpVerifiedAt?: Date | null;
  /** Key only: the person who minted the key, directly or through the keys it was minted with (null: unknown, minted before this was recorded). */
  mintedBy?: string | null;
  /** OAuth only: the client the person connected (its name goes into the activity log's key name). */
  oauthClient?: { id: string; name: string };
}

/** The key behind a request; routes that only keys reach (propose, idempotency) use it. */
export function keyIdOf(principal: Principal): string {
  if (!principal.keyId)
    throw new ProblemError('forbidden', 'this action needs an API key; a console session cannot do it');
  return principal.keyId;
}

/**
 * The one fund a key may act on: the fund it is bound to. Fund routes never take a fund id from the
 * request; a key without a fund (calculator-only developer key) is refused.
 */
export function fundIdOf(principal: Principal): string {
  if (!principal.fund)
    throw new ProblemError('forbidden', 'this key is not bound to a fund; fund routes need a fund key');
  return principal.fund.id;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /**
     * The MCP tool calls (and resource reads) this request made, with the status each would have
     * answered over REST: the activity log writes a row per call (a JSON-RPC batch holds several).
     */
    mcpCalls?: { tool: string; status: number }[];
  }
}
