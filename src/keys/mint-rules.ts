import type { Principal } from '../common/auth/principal';
import { ProblemError } from '../common/errors/problem';
import type { FundRef, Minter } from './keys.service';

/** The refusals minting answers (403 naming the field), shared by every check of a mint. */
export function refuse(bad: string[], field: string, detail: (bad: string[]) => string): void {
  if (bad.length === 0) return;
  throw new ProblemError(
    'insufficient_scope',
    detail(bad),
    bad.map(() => ({ field, message: detail(bad) })).slice(0, 1),
  );
}

export function checkFund(minter: Minter, requested: string | null | undefined): FundRef | null {
  const slug = requested === undefined ? (minter.fund?.slug ?? null) : requested;
  if (slug !== (minter.fund?.slug ?? null)) {
    refuse(['fund'], 'fund', () => `a key can only be bound to the caller's fund (${minter.fund?.slug ?? 'none'})`);
  }
  return minter.fund;
}

/**
 * A key bound to a fund holds at least one scope: with none it could do nothing on the fund, yet it
 * would be listed as the fund's (a calculator-only key is minted without a fund). 400 naming scopes.
 */
export function checkScopes(fund: FundRef | null, scopes: readonly string[]): void {
  if (fund && scopes.length === 0) {
    const message = `must hold at least one scope for a key bound to ${fund.slug}; a calculator-only key is minted without a fund`;
    throw new ProblemError('invalid_parameter', `scopes: ${message}`, [{ field: 'scopes', message }]);
  }
}

export function checkExpiry(minter: Minter, expiresAt: Date | null): void {
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new ProblemError('invalid_parameter', 'expiresAt must be in the future', [
      { field: 'expiresAt', message: 'must be in the future' },
    ]);
  }
  if (minter.expiresAt && (!expiresAt || expiresAt > minter.expiresAt)) {
    refuse(
      ['expiresAt'],
      'expiresAt',
      () => `the key must expire no later than the minting key (${minter.expiresAt!.toISOString()})`,
    );
  }
}

/** The minting view of an authenticated caller. */
export function minterOf(p: Principal): Minter {
  return {
    accountId: p.accountId,
    accountName: p.accountName,
    userId: p.userId,
    fund: p.fund,
    scopes: p.scopes,
    plan: p.plan,
    expiresAt: p.via === 'key' && p.expiresAt ? new Date(p.expiresAt) : null,
    keyId: p.keyId,
    personBehind: p.userId ?? p.mintedBy ?? null,
  };
}
