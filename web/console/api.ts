import { ApiError, apiRequest, type RequestOptions } from '../shared/api';

/**
 * The console's way to the REST API: the session cookie travels by itself (same origin); this adds
 * the CSRF token (from GET /api/v1/console/session) to every non-GET and the chosen fund as
 * X-Fundgate-Fund. A 401 on a signed-in page means the session ended: the session provider is told,
 * and it sends the person back to sign-in with a message.
 */
interface ConsoleApiState {
  csrfToken: string | null;
  fund: string | null;
  onSessionEnded: (() => void) | null;
}

const state: ConsoleApiState = { csrfToken: null, fund: null, onSessionEnded: null };

export function configureConsoleApi(next: Partial<ConsoleApiState>): void {
  Object.assign(state, next);
}

export interface ConsoleRequestOptions extends RequestOptions {
  /** Send without X-Fundgate-Fund (the person's own, calculator-only world). */
  noFund?: boolean;
  /** A 401 is an answer of this call (sign-in), not the end of the session. */
  expect401?: boolean;
}

export async function consoleRequest<T>(path: string, opts: ConsoleRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...opts.headers };
  const method = opts.method ?? 'GET';
  if (method !== 'GET' && state.csrfToken) headers['x-csrf-token'] = state.csrfToken;
  if (state.fund && !opts.noFund) headers['x-fundgate-fund'] = state.fund;
  try {
    const res = await apiRequest<T>(path, { ...opts, method, headers });
    return res.body;
  } catch (err) {
    // only 'unauthenticated' ends the session: a wrong password or code (invalid_credentials) is the form's answer
    if (
      err instanceof ApiError &&
      err.status === 401 &&
      err.problem.code === 'unauthenticated' &&
      !opts.expect401 &&
      state.csrfToken
    )
      state.onSessionEnded?.();
    throw err;
  }
}

/** A query string from the set values of `params`. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

// ---- shapes of the answers the console reads (docs: /api/docs) ----

export type Role = 'viewer' | 'analyst' | 'manager' | 'admin';
export const ROLES: Role[] = ['viewer', 'analyst', 'manager', 'admin'];
export const SCOPES = [
  'fund:read',
  'fund:propose',
  'proposals:review',
  'nav:publish',
  'webhooks:manage',
  'keys:manage',
] as const;
/** Scopes a service identity's key never holds (the server refuses them: a proposal's checker is a person). */
export const SERVICE_FORBIDDEN_SCOPES: readonly string[] = ['proposals:review'];
export const PLANS = ['free', 'developer', 'platform'] as const;

export interface FundRef {
  id?: string;
  slug: string;
  name: string;
}

export interface Membership {
  fund: FundRef;
  role: Role;
  scopes: string[];
  /** Approvals on this fund need a TOTP check in the last 10 minutes. */
  approvalRequiresTotp?: boolean;
}

export interface SessionInfo {
  user: { id: string; email: string; displayName: string; plan: string; totpEnabled: boolean };
  memberships: Membership[];
  csrfToken: string;
  totpVerifiedAt: string | null;
  signupEnabled?: boolean;
}

export interface KeySummary {
  id: string;
  name: string;
  displayPrefix: string;
  lastFour: string;
  scopes: string[];
  fund: FundRef | null;
  plan: string;
  owner?: { kind: string; displayName: string };
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** The person who minted it (through the keys it was minted with); null: unknown (minted before this was recorded). */
  mintedBy: { userId: string; displayName: string } | null;
  isDemo: boolean;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}
