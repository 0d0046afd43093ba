import type { Plan } from '../../config/config';
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

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** Set by MCP when a tools/call runs, so the activity log records the tool name. */
    toolName?: string;
  }
}
