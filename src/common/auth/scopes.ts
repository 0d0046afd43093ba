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
