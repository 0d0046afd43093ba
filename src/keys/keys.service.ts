import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig, Plan } from '../config/config';
import type { Principal } from '../common/auth/principal';
import type { Scope } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { displayParts, generateKey, hashKey, isWellFormedKey } from './key-format';
import { KeyRow, KeysRepository } from './keys.repository';

export type AuthFailure = 'malformed' | 'unknown' | 'revoked' | 'expired';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

export interface MintRequest {
  accountName: string;
  name: string;
  fundSlug: string | null;
  scopes: Scope[];
  plan: Plan;
  expiresAt: Date | null;
}

export interface MintedKey {
  id: string;
  key: string;
  name: string;
  displayPrefix: string;
  lastFour: string;
  scopes: Scope[];
  fund: { id: string; slug: string; name: string } | null;
  plan: Plan;
  account: { id: string; name: string };
  expiresAt: string | null;
  createdAt: string;
}

const PLAN_RANK: Record<Plan, number> = { free: 0, developer: 1, platform: 2 };

interface CacheEntry {
  row: KeyRow | null;
  principal: Principal | null;
  until: number;
}

@Injectable()
export class KeysService {
  /** Hot keys cost no database round trip; entries live keyCacheSeconds (revocation window). */
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly keys: KeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async authenticate(rawKey: string): Promise<AuthResult> {
    if (!isWellFormedKey(rawKey)) return { ok: false, reason: 'malformed' };
    const hash = hashKey(rawKey);
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    let entry = this.cache.get(cacheKey);
    if (!entry || entry.until <= now) {
      const row = await this.keys.keyByHash(hash);
      entry = { row, principal: row ? Object.freeze(toPrincipal(row)) : null, until: now + this.config.keyCacheSeconds * 1000 };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(cacheKey, entry);
    }
    const row = entry.row;
    if (!row || row.key_hash.length !== hash.length || !timingSafeEqual(row.key_hash, hash)) {
      return { ok: false, reason: 'unknown' };
    }
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.expires_at && row.expires_at.getTime() <= now) return { ok: false, reason: 'expired' };
    if (row.is_demo && !this.config.demoApiKeyEnabled) return { ok: false, reason: 'unknown' }; // DEMO_API_KEY_ENABLED=false
    this.touch(row.id, now);
    return { ok: true, principal: entry.principal! };
  }

  private touch(keyId: string, now: number): void {
    const last = this.lastTouched.get(keyId) ?? 0;
    if (now - last < 60_000) return;
    this.lastTouched.set(keyId, now);
    this.keys.touchLastUsed(keyId).catch(() => this.lastTouched.delete(keyId));
  }

  /** Mint on behalf of a caller: never more scopes, another fund, or a higher plan than it holds. */
  async mintFor(caller: Principal, req: Omit<MintRequest, 'accountName'> & { accountName?: string }): Promise<MintedKey> {
    const missing = req.scopes.filter((s) => !caller.scopes.includes(s));
    if (missing.length > 0) {
      throw new ProblemError('insufficient_scope', `cannot grant scopes the calling key does not hold: ${missing.join(', ')}`,
        missing.map(() => ({ field: 'scopes', message: 'not held by the calling key' })));
    }
    if (req.fundSlug !== null && req.fundSlug !== caller.fund?.slug) {
      throw new ProblemError('insufficient_scope', 'cannot grant access to a fund the calling key is not bound to',
        [{ field: 'fund', message: 'not the calling key\'s fund' }]);
    }
    if (PLAN_RANK[req.plan] > PLAN_RANK[caller.plan]) {
      throw new ProblemError('insufficient_scope', 'cannot grant a plan above the calling key\'s plan',
        [{ field: 'plan', message: 'above the calling key\'s plan' }]);
    }
    return this.mint({ ...req, accountName: req.accountName ?? caller.accountName }, caller.keyId);
  }

  /** Mint without a caller (CLI bootstrap). */
  async mint(req: MintRequest, createdByKeyId: string | null = null): Promise<MintedKey> {
    let fund: { id: string; slug: string; name: string } | null = null;
    if (req.fundSlug !== null) {
      fund = await this.keys.fundBySlug(req.fundSlug);
      if (!fund) throw new ProblemError('unprocessable', `fund "${req.fundSlug}" does not exist`, [{ field: 'fund', message: 'unknown fund' }]);
    }
    if (req.expiresAt && req.expiresAt.getTime() <= Date.now()) {
      throw new ProblemError('invalid_parameter', 'expiresAt must be in the future', [{ field: 'expiresAt', message: 'must be in the future' }]);
    }
    const key = generateKey();
    const { displayPrefix, lastFour } = displayParts(key);
    const scopes = [...new Set(req.scopes)];
    const { id, accountId } = await this.keys.createKeyForAccount(req.accountName, {
      fundId: fund?.id ?? null, name: req.name, keyHash: hashKey(key), displayPrefix, lastFour,
      scopes, plan: req.plan, expiresAt: req.expiresAt, createdByKeyId,
    });
    const row = await this.keys.keyById(id);
    return {
      id,
      key,
      name: req.name,
      displayPrefix,
      lastFour,
      scopes,
      fund,
      plan: req.plan,
      account: { id: accountId, name: req.accountName },
      expiresAt: req.expiresAt ? req.expiresAt.toISOString() : null,
      createdAt: (row?.created_at ?? new Date()).toISOString(),
    };
  }

  async listVisibleTo(caller: Principal): Promise<KeyRow[]> {
    return this.keys.keysVisibleTo(caller.fund?.id ?? null, caller.accountId);
  }

  /** Revoke a key the caller may see; others are "not found" (their existence is not revealed). */
  async revokeFor(caller: Principal, keyId: string): Promise<KeyRow> {
    const visible = await this.listVisibleTo(caller);
    const target = visible.find((k) => k.id === keyId);
    if (!target) throw new ProblemError('not_found', `key ${keyId} was not found`);
    if (target.is_demo) throw new ProblemError('unprocessable', 'the shared demo key is managed by seed:demo');
    await this.keys.revokeKey(keyId);
    this.cache.clear();
    return (await this.keys.keyById(keyId))!;
  }
}

export function toPrincipal(row: KeyRow): Principal {
  return {
    keyId: row.id,
    keyName: row.name,
    displayPrefix: row.display_prefix,
    accountId: row.account_id,
    accountName: row.account_name,
    fund: row.fund_id ? { id: row.fund_id, slug: row.fund_slug!, name: row.fund_name! } : null,
    scopes: row.scopes,
    plan: row.plan,
    isDemo: row.is_demo,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}
