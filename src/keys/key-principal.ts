import type { Principal } from '../common/auth/principal';
import { ROLE_SCOPES, SERVICE_FORBIDDEN_SCOPES, type Scope } from '../common/auth/scopes';
import type { KeyRow } from './keys.repository';

/**
 * Effective scopes: stored ∩ the owner's current role (person); for a service identity of its own
 * fund, minus review and ∩ the current role of the person who minted it (a demoted admin's service
 * key loses what they lost; keys minted before lineage was recorded keep their stored scopes).
 */
export function effectiveScopes(row: KeyRow): Scope[] {
  if (!row.fund_id) return [];
  if (row.account_kind === 'service') {
    if (row.owner_fund_id !== row.fund_id) return [];
    const minter = row.created_by_user_id ? (row.minter_role ? ROLE_SCOPES[row.minter_role] : []) : null;
    return row.scopes.filter((s) => !SERVICE_FORBIDDEN_SCOPES.includes(s) && (!minter || minter.includes(s)));
  }
  const allowed = row.role ? ROLE_SCOPES[row.role] : [];
  return row.scopes.filter((s) => allowed.includes(s));
}

export function toPrincipal(row: KeyRow): Principal {
  return {
    via: 'key',
    userId: row.user_id,
    role: row.role,
    keyId: row.id,
    keyName: row.name,
    displayPrefix: row.display_prefix,
    accountId: row.account_id,
    accountName: row.account_name,
    fund: row.fund_id ? { id: row.fund_id, slug: row.fund_slug!, name: row.fund_name! } : null,
    scopes: effectiveScopes(row),
    plan: row.plan,
    isDemo: row.is_demo,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    mintedBy: row.created_by_user_id,
  };
}
