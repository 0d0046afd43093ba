import type { Plan } from '../../config/config';
import { ProblemError } from '../errors/problem';
import type { Scope } from './scopes';

/** Who is calling: the key, its account, its fund (or none), scopes and plan. */
export interface Principal {
  keyId: string;
  keyName: string;
  displayPrefix: string;
  accountId: string;
  accountName: string;
  fund: { id: string; slug: string; name: string } | null;
  scopes: readonly Scope[];
  plan: Plan;
  isDemo: boolean;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/**
 * The one fund a key may act on: the fund it is bound to. Fund routes never take a fund id from the
 * request; a key without a fund (calculator-only developer key) is refused.
 */
export function fundIdOf(principal: Principal): string {
  if (!principal.fund) throw new ProblemError('forbidden', 'this key is not bound to a fund; fund routes need a fund key');
  return principal.fund.id;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** Set by MCP when a tools/call runs, so the activity log records the tool name. */
    toolName?: string;
  }
}
