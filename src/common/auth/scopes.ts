/** Every scope a key may hold. A key is bound to one fund (or none: calculator-only key). */
export const SCOPES = [
  'fund:read',
  'fund:propose',
  'proposals:review',
  'nav:publish',
  'webhooks:manage',
  'keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export const PLANS = ['free', 'developer', 'platform'] as const;

/** A person's role on a fund; each role holds the scopes of the one before it and more. */
export const ROLES = ['viewer', 'analyst', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: ['fund:read'],
  analyst: ['fund:read', 'fund:propose'],
  manager: ['fund:read', 'fund:propose', 'proposals:review', 'nav:publish'],
  admin: ['fund:read', 'fund:propose', 'proposals:review', 'nav:publish', 'webhooks:manage', 'keys:manage'],
};

/** Scopes a fund-owned service identity may never hold: it cannot be the checker of maker-checker. */
export const SERVICE_FORBIDDEN_SCOPES: readonly Scope[] = ['proposals:review'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The smallest role whose scopes cover `scopes`. */
export function smallestRoleCovering(scopes: readonly Scope[]): Role {
  return ROLES.find((r) => scopes.every((s) => ROLE_SCOPES[r].includes(s)))!;
}
