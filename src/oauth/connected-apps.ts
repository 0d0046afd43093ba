import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { KeysRepository } from '../keys/keys.repository';
import { OAuthRepository } from './oauth.repository';

/**
 * Ends connected OAuth apps inside the caller's transaction: the grants, every token of them, and the
 * keys behind them through THE key revocation (`KeysRepository.revokeKeysAndDerived`: keys minted
 * from them go too, and the webhook subscriptions those keys created or changed are disabled). Nothing to clear
 * afterwards: access tokens are read from PostgreSQL on every request, and a grant key's secret is
 * never shown, so it is in no key cache. A person's own API keys are not touched.
 */
@Injectable()
export class ConnectedApps {
  constructor(
    private readonly oauth: OAuthRepository,
    private readonly keys: KeysRepository,
  ) {}

  /** For code without a Nest container (the users CLI, `upsertPerson`). */
  static over(db: DataSource): ConnectedApps {
    return new ConnectedApps(new OAuthRepository(db), new KeysRepository(db));
  }

  /** Every app a person connected (sign out everywhere, a password change or reset, disabling them); answers how many ended. */
  async endAllOf(m: EntityManager, userId: string): Promise<number> {
    return this.end(m, await this.oauth.with(m).revokeGrantsOfUser(userId));
  }

  /** The apps a person connected to one fund (they were removed from it); answers how many ended. */
  async endOnFund(m: EntityManager, userId: string, fundId: string): Promise<number> {
    return this.end(m, await this.oauth.with(m).revokeGrantsOfUserOnFund(userId, fundId));
  }

  /** One app of a person (Disconnect in the console); false when it is not theirs or already ended. */
  async endOne(m: EntityManager, userId: string, grantId: string): Promise<boolean> {
    const keyId = await this.oauth.with(m).revokeGrant(userId, grantId);
    return (await this.end(m, keyId ? [keyId] : [])) > 0;
  }

  /**
   * The app whose token family was revoked (a code used twice, a rotated refresh token presented
   * again, the client revoking its refresh token): no token can be issued in it again, so the grant
   * and its key end and it is no longer listed as connected.
   */
  async endOfFamily(m: EntityManager, familyId: string): Promise<void> {
    await this.end(m, await this.oauth.with(m).revokeGrantOfFamily(familyId));
  }

  private async end(m: EntityManager, keyIds: string[]): Promise<number> {
    if (keyIds.length > 0) await this.keys.with(m).revokeKeysAndDerived(keyIds);
    return keyIds.length;
  }
}
