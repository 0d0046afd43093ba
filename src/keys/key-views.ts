import type { Principal } from '../common/auth/principal';
import type { KeyRow } from './keys.repository';
import type { KeySummaryDto, MeDto } from './dto/key.dto';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function keySummary(row: KeyRow): KeySummaryDto {
  return {
    id: row.id,
    name: row.name,
    displayPrefix: row.display_prefix,
    lastFour: row.last_four,
    scopes: row.scopes,
    fund: row.fund_id ? { id: row.fund_id, slug: row.fund_slug!, name: row.fund_name! } : null,
    plan: row.plan,
    account: { id: row.account_id, name: row.account_name },
    owner: { kind: row.account_kind, displayName: row.owner_display_name },
    createdAt: row.created_at.toISOString(),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    lastUsedAt: iso(row.last_used_at),
    mintedBy: row.created_by_user_id
      ? { userId: row.created_by_user_id, displayName: row.minted_by_display_name }
      : null,
    mintedWithKeyId: row.created_by_key_id,
    isDemo: row.is_demo,
  };
}

export function meView(p: Principal): MeDto {
  return {
    via: p.via,
    keyId: p.keyId,
    name: p.keyName,
    displayPrefix: p.displayPrefix,
    scopes: [...p.scopes],
    fund: p.fund,
    plan: p.plan,
    account: { id: p.accountId, name: p.accountName },
    userId: p.userId,
    role: p.role,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
    expiresAt: p.expiresAt,
  };
}
