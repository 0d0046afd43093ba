import { Inject, Injectable } from '@nestjs/common';
import { sameBytes } from '../common/crypto/same-bytes';
import { APP_CONFIG, AppConfig, Plan } from '../config/config';
import type { Principal } from '../common/auth/principal';
import { ROLE_SCOPES, SERVICE_FORBIDDEN_SCOPES, type Scope } from '../common/auth/scopes';
import type { EntityManager } from 'typeorm';
import { ProblemError } from '../common/errors/problem';
import { displayParts, generateKey, hashKey, isWellFormedKey } from './key-format';
import { type KeyRow, type KeyScope, KeysRepository } from './keys.repository';
import { CursorCodec } from '../common/pagination/cursor';
import { keysetPage } from '../common/pagination/keyset-page';
import { toPrincipal } from './key-principal';
import { checkExpiry, checkFund, checkScopes, minterOf, refuse } from './mint-rules';

import type { MaybePromise } from '../common/async/maybe-promise';
import type { AuthResult, CredentialResolver } from '../common/auth/credential-resolver';

export type { AuthResult } from '../common/auth/credential-resolver';

export type FundRef = { id: string; slug: string; name: string };

export interface MintRequest {
  name: string;
  scopes: Scope[];
  plan: Plan;
  expiresAt: Date | null;
  /** Fund slug; undefined: the minter's fund. Anything else than the minter's fund is refused. */
  fund?: string | null;
  /** Owning account; undefined: the minter's own. Only a service identity of the fund may be named. */
  account?: string;
}

/** Who mints: the caller's identity, fund, scopes, plan and (for a key) the key's expiry. */
export interface Minter {
  accountId: string;
  accountName: string;
  userId: string | null;
  fund: FundRef | null;
  scopes: readonly Scope[];
  plan: Plan;
  expiresAt: Date | null;
  keyId: string | null;
  /** The person accountable for what the minter mints: the caller, or the person behind a service key. */
  personBehind: string | null;
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
  row: KeyRow;
}

const PLAN_RANK: Record<Plan, number> = { free: 0, developer: 1, platform: 2 };

interface CacheEntry {
  row: KeyRow | null;
  principal: Principal | null;
  until: number;
}

@Injectable()
export class KeysService implements CredentialResolver {
  /** Hot keys cost no database round trip; entries live keyCacheSeconds (revocation window). */
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly keys: KeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cursors: CursorCodec,
  ) {}

  /** Synchronous when the key's row is cached (the hot path awaits nothing); a promise when it must be read. */
  authenticate(rawKey: string): MaybePromise<AuthResult> {
    if (!isWellFormedKey(rawKey)) return { ok: false, reason: 'malformed' };
    const hash = hashKey(rawKey);
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    const entry = this.cache.get(cacheKey);
    if (entry && entry.until > now) return this.verdict(entry, hash, now);
    return this.load(hash, cacheKey, now).then((loaded) => this.verdict(loaded, hash, now));
  }

  private async load(hash: Buffer, cacheKey: string, now: number): Promise<CacheEntry> {
    const row = await this.keys.keyByHash(hash);
    const entry = {
      row,
      principal: row ? Object.freeze(toPrincipal(row)) : null,
      until: now + this.config.keyCacheSeconds * 1000,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, entry);
    return entry;
  }

  private verdict(entry: CacheEntry, hash: Buffer, now: number): AuthResult {
    const row = entry.row;
    if (!row || !sameBytes(row.key_hash, hash)) {
      return { ok: false, reason: 'unknown' };
    }
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.expires_at && row.expires_at.getTime() <= now) return { ok: false, reason: 'expired' };
    if (row.is_demo && !this.config.demoApiKeyEnabled) return { ok: false, reason: 'unknown' }; // DEMO_API_KEY_ENABLED=false
    if (row.user_status === 'disabled') return { ok: false, reason: 'disabled' };
    this.touch(row.id, now);
    return { ok: true, principal: entry.principal! };
  }

  private touch(keyId: string, now: number): void {
    const last = this.lastTouched.get(keyId) ?? 0;
    if (now - last < 60_000) return;
    this.lastTouched.set(keyId, now);
    this.keys.touchLastUsed(keyId).catch(() => this.lastTouched.delete(keyId));
  }

  /** Clears the auth cache of this instance (other instances follow within keyCacheSeconds). */
  forget(): void {
    this.cache.clear();
  }

  /** Mint on behalf of an authenticated caller (admin API, console): all the rules of `mint`. */
  mintFor(caller: Principal, req: MintRequest): Promise<MintedKey> {
    return this.mint(minterOf(caller), req);
  }

  /** The operator CLI mints for a person as that person would: within their role and plan. */
  async minterForPerson(who: { email?: string; accountName?: string }, fundSlug: string | null): Promise<Minter> {
    const fund = fundSlug === null ? null : await this.fundOrFail(fundSlug);
    return this.keys.transaction(async (m) => {
      const id = await this.keys.with(m).identityOf(who);
      if (!id || id.kind !== 'person' || !id.user_id)
        throw new ProblemError('not_found', `no person ${who.email ?? who.accountName}`);
      const role = fund ? await this.keys.with(m).lockedRole(fund.id, id.user_id) : null;
      return {
        accountId: id.account_id,
        accountName: id.account_name,
        userId: id.user_id,
        fund,
        scopes: role ? ROLE_SCOPES[role] : [],
        plan: id.plan ?? 'free',
        expiresAt: null,
        keyId: null,
        personBehind: id.user_id,
      };
    });
  }

  /**
   * THE minting function (CLI, admin API, console). A key goes into the minter's own identity (or, by
   * a fund admin, into a service identity of that fund); its fund is the minter's fund; its scopes ⊆
   * the person's CURRENT role there (minus proposals:review for a service identity) and ⊆ the minter's
   * scopes; its expiry ≤ the minting key's; its plan ≤ the minter's and ≤ the owner's. Anything else is
   * 403 insufficient_scope naming the field, and nothing is written. A key with a fund and no scope
   * is a 400 naming scopes (it could do nothing on the fund).
   */
  async mint(minter: Minter, req: MintRequest, within?: EntityManager): Promise<MintedKey> {
    const fund = checkFund(minter, req.fund);
    checkExpiry(minter, req.expiresAt);
    const scopes = [...new Set(req.scopes)];
    checkScopes(fund, scopes);
    const key = generateKey();
    const { displayPrefix, lastFour } = displayParts(key);
    // `within`: the caller's transaction (an OAuth grant is written with its key, or neither is).
    const transaction = <T>(work: (m: EntityManager) => Promise<T>): Promise<T> =>
      within ? work(within) : this.keys.transaction(work);
    const { id, owner } = await transaction(async (m) => {
      const owner = await this.targetOf(m, minter, req.account, fund);
      const allowed = await this.allowedScopes(m, minter, owner, fund);
      // after the membership row's lock: member removal locks memberships, then revokes keys
      await this.assertMinterKey(m, minter);
      refuse(
        scopes.filter((s) => !allowed.includes(s)),
        'scopes',
        (bad) =>
          `cannot grant ${bad.join(', ')}: beyond ${fund ? 'the role on this fund' : 'a key without a fund (no fund scopes)'}`,
      );
      refuse(
        scopes.filter((s) => !minter.scopes.includes(s)),
        'scopes',
        (bad) => `cannot grant scopes the caller does not hold: ${bad.join(', ')}`,
      );
      if (PLAN_RANK[req.plan] > PLAN_RANK[minter.plan] || PLAN_RANK[req.plan] > PLAN_RANK[owner.plan]) {
        refuse(
          ['plan'],
          'plan',
          () =>
            `cannot grant plan ${req.plan}: above the caller's plan (${minter.plan}) or the owner's (${owner.plan})`,
        );
      }
      const id = await this.keys.with(m).insertKey({
        accountId: owner.accountId,
        fundId: fund?.id ?? null,
        name: req.name,
        keyHash: hashKey(key),
        displayPrefix,
        lastFour,
        scopes,
        plan: req.plan,
        expiresAt: req.expiresAt,
        createdByKeyId: minter.keyId,
        createdByUserId: minter.personBehind,
      });
      return { id, owner };
    });
    const row = (await (within ? this.keys.with(within) : this.keys).keyById(id))!;
    return {
      id,
      key,
      name: req.name,
      displayPrefix,
      lastFour,
      scopes,
      fund,
      plan: req.plan,
      account: { id: owner.accountId, name: owner.accountName },
      expiresAt: req.expiresAt?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
      row,
    };
  }

  /**
   * A key mints only while it is live (share-locked until the mint commits, so a revocation racing
   * it, or a revoked key still in another instance's cache, cannot leave a child behind), and a
   * service key only when the person behind it is known: its children carry that person.
   */
  private async assertMinterKey(m: EntityManager, minter: Minter): Promise<void> {
    if (!minter.keyId) return;
    if (!(await this.keys.with(m).lockLiveKey(minter.keyId)))
      throw new ProblemError('unauthenticated', 'this key has been revoked or has expired');
    if (!minter.personBehind) {
      throw new ProblemError(
        'forbidden',
        'this service key was minted before fundgate recorded who mints keys, so keys minted with it could not be traced to a person; an admin mints a new service key in the console',
      );
    }
  }

  private async fundOrFail(slug: string): Promise<FundRef> {
    const fund = await this.keys.fundBySlug(slug);
    if (!fund)
      throw new ProblemError('unprocessable', `fund "${slug}" does not exist`, [
        { field: 'fund', message: 'unknown fund' },
      ]);
    return fund;
  }

  /** The caller's own identity, or a service identity of the caller's fund when the caller is its admin. */
  private async targetOf(
    m: EntityManager,
    minter: Minter,
    account: string | undefined,
    fund: FundRef | null,
  ): Promise<MintTarget> {
    if (account === undefined || account === minter.accountName) {
      const own = await this.keys.with(m).identityOf({ accountId: minter.accountId });
      if (!own || (own.kind === 'person' && own.status !== 'active'))
        refuse(['account'], 'account', () => "the caller's identity is not active");
      return {
        accountId: own!.account_id,
        accountName: own!.account_name,
        service: own!.kind === 'service',
        plan: own!.plan ?? minter.plan,
      };
    }
    const service = fund && minter.userId ? await this.keys.with(m).serviceAccountOfFund(fund.id, account) : null;
    const role = service ? await this.keys.with(m).lockedRole(fund!.id, minter.userId!) : null;
    if (!service || role !== 'admin') {
      refuse(
        ['account'],
        'account',
        () =>
          "a key can only be minted into the caller's own identity (or, by a fund admin, a service identity of that fund)",
      );
    }
    return { accountId: service!.account_id, accountName: service!.account_name, service: true, plan: minter.plan };
  }

  private async allowedScopes(
    m: EntityManager,
    minter: Minter,
    owner: MintTarget,
    fund: FundRef | null,
  ): Promise<readonly Scope[]> {
    if (!fund) return [];
    let base: readonly Scope[];
    if (minter.userId) {
      const role = await this.keys.with(m).lockedRole(fund.id, minter.userId);
      base = role ? ROLE_SCOPES[role] : [];
    } else {
      base = minter.scopes; // a service identity minting for itself: within what it holds
    }
    return owner.service ? base.filter((s) => !SERVICE_FORBIDDEN_SCOPES.includes(s)) : base;
  }

  /** The caller's own keys on its fund (or its calculator-only keys without a fund). */
  ownKeys(caller: Principal): Promise<KeyRow[]> {
    return this.keys.keysOf({ accountId: caller.accountId, fundId: caller.fund?.id ?? null });
  }

  /** Whether the caller sees every key of its fund (keys:manage on it), not only its own. */
  seesFundKeys(caller: Principal): caller is Principal & { fund: NonNullable<Principal['fund']> } {
    return caller.fund !== null && caller.scopes.includes('keys:manage');
  }

  /** What the caller may see: keys:manage on a fund sees the fund's keys; anyone else, their own. */
  private visibleScope(caller: Principal): KeyScope {
    return this.seesFundKeys(caller)
      ? { fundId: caller.fund.id }
      : { accountId: caller.accountId, fundId: caller.fund?.id ?? null };
  }

  /** Every key the caller may see (the activity log's subjects). */
  listVisibleTo(caller: Principal): Promise<KeyRow[]> {
    return this.keys.keysOf(this.visibleScope(caller));
  }

  /** One page of the keys the caller may see, newest first; the cursor is bound to the caller's scope. */
  async pageVisibleTo(
    caller: Principal,
    q: { limit?: number; cursor?: string },
  ): Promise<{ rows: KeyRow[]; total: number; hasMore: boolean; nextCursor: string | null }> {
    const scope = this.visibleScope(caller);
    const kind = `keys:${JSON.stringify(scope)}`;
    const after = q.cursor ? this.cursors.decode(kind, q.cursor, { createdAt: 'timestamp', id: 'uuid' }) : null;
    const limit = q.limit ?? 100;
    const [rows, total] = await Promise.all([this.keys.keysPageOf(scope, after, limit + 1), this.keys.countOf(scope)]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { createdAt: last.created_key, id: last.id }),
    );
    return { rows: page.rows, total, hasMore: page.hasMore, nextCursor: page.nextCursor };
  }

  /**
   * Revoke a key the caller may see, with every key minted from it (a leaked key's offspring go with
   * it) and the webhook subscriptions they created; others are "not found" (their existence is not
   * revealed). Answers the key, how many keys minted from it were revoked with it and how many
   * subscriptions were disabled.
   */
  async revokeFor(
    caller: Principal,
    keyId: string,
  ): Promise<{ row: KeyRow; derivedRevoked: number; disabledWebhooks: number }> {
    const target = await this.keys.keyOf(this.visibleScope(caller), keyId);
    if (!target) throw new ProblemError('not_found', `key ${keyId} was not found`);
    if (target.is_demo) throw new ProblemError('unprocessable', 'the shared demo key is managed by seed:demo');
    const revoked = await this.keys.revokeKeyAndDerived(keyId);
    this.cache.clear();
    return {
      row: (await this.keys.keyById(keyId))!,
      derivedRevoked: revoked.derived,
      disabledWebhooks: revoked.webhooks,
    };
  }
}

interface MintTarget {
  accountId: string;
  accountName: string;
  service: boolean;
  plan: Plan;
}
