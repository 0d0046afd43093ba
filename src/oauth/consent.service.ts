import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ROLE_SCOPES, type Scope } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { UsersRepository } from '../identity/users.repository';
import { KeysService } from '../keys/keys.service';
import { TOTP_STEP_UP_MS } from '../proposals/proposals.service';
import { ConnectedApps } from './connected-apps';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import { CODE_PREFIX, GRANTABLE_SCOPES } from './oauth-tokens';
import { sameBrowser } from './oauth-browser';
import { AuthorizationRow, GrantView, OAuthRepository } from './oauth.repository';
import { CODE_SECONDS, OAuthService } from './oauth.service';

export interface ConsentView {
  requestId: string;
  client: { id: string; name: string; kind: string; redirectHost: string; clientUri: string | null };
  requestedScopes: string[];
  funds: { slug: string; name: string; role: string; grantableScopes: string[] }[];
  totpRequired: boolean;
  expiresAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The console side of authorization: a signed-in person sees the pending request, picks a fund and
 * scopes (within their role there, never proposals:review nor keys:manage) and approves — which
 * mints the grant's key through the one minting function and issues a single-use code — or denies.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly oauth: OAuthService,
    private readonly keys: KeysService,
    private readonly connected: ConnectedApps,
    private readonly users: UsersRepository,
  ) {}

  async view(person: Principal, requestId: string, browser: Buffer | null): Promise<ConsentView> {
    const a = pending(await this.find(requestId), browser);
    const client = (await this.repo.client(a.client_id))!;
    const memberships = await this.users.memberships(person.userId!);
    return {
      requestId: a.id,
      client: {
        id: client.client_id,
        name: client.client_name,
        kind: client.kind,
        redirectHost: hostOf(a.redirect_uri),
        clientUri: client.client_uri,
      },
      requestedScopes: a.scope,
      funds: memberships.map((m) => ({
        slug: m.fund_slug,
        name: m.fund_name,
        role: m.role,
        grantableScopes: ROLE_SCOPES[m.role].filter((s) => (GRANTABLE_SCOPES as readonly string[]).includes(s)),
      })),
      totpRequired: await this.needsTotp(person),
      expiresAt: a.expires_at.toISOString(),
    };
  }

  /** Records the grant and answers the client's redirect URI carrying the code. */
  async approve(
    person: Principal,
    requestId: string,
    browser: Buffer | null,
    choice: { fund: string; scopes: Scope[] },
  ): Promise<string> {
    const scopes = [...new Set(choice.scopes)];
    const forbidden = scopes.filter((s) => !(GRANTABLE_SCOPES as readonly string[]).includes(s));
    if (forbidden.length > 0) {
      throw new ProblemError('insufficient_scope', `an app can never hold ${forbidden.join(', ')}`, [
        { field: 'scopes', message: `not grantable to an app: ${forbidden.join(', ')}` },
      ]);
    }
    if (await this.needsTotp(person))
      throw new ProblemError('totp_required', 'enter a code from your authenticator app before connecting an app');
    const minter = await this.keys.minterForPerson({ accountName: person.accountName }, choice.fund);
    if (!minter.fund || minter.scopes.length === 0) {
      throw new ProblemError('forbidden', `you are not a member of fund "${choice.fund}"`, [
        { field: 'fund', message: 'not one of your funds' },
      ]);
    }
    const code = newSecret(CODE_PREFIX);
    const redirect = await this.repo.transaction(async (m) => {
      const a = pending(UUID.test(requestId) ? await this.repo.with(m).authorization(requestId, true) : null, browser);
      const client = (await this.repo.client(a.client_id))!;
      const key = await this.keys.mint(
        minter,
        { name: `${client.client_name} (OAuth app)`.slice(0, 200), scopes, plan: minter.plan, expiresAt: null },
        m,
      );
      const grantId = await this.repo.with(m).insertGrant({
        clientId: client.client_id,
        userId: person.userId!,
        fundId: minter.fund!.id,
        keyId: key.id,
        scopes,
        resource: a.resource,
      });
      await this.repo
        .with(m)
        .decide(a.id, { userId: person.userId!, grantId, codeHash: hashSecret(code), codeTtlSeconds: CODE_SECONDS });
      return this.oauth.redirect(a.redirect_uri, { code, state: a.state });
    });
    return redirect;
  }

  async deny(person: Principal, requestId: string, browser: Buffer | null): Promise<string> {
    return this.repo.transaction(async (m) => {
      const a = pending(UUID.test(requestId) ? await this.repo.with(m).authorization(requestId, true) : null, browser);
      await this.repo
        .with(m)
        .decide(a.id, { userId: person.userId!, grantId: null, codeHash: null, codeTtlSeconds: 0 });
      return this.oauth.redirect(a.redirect_uri, {
        error: 'access_denied',
        error_description: 'the person declined',
        state: a.state,
      });
    });
  }

  apps(person: Principal): Promise<GrantView[]> {
    return this.repo.grantsOfUser(person.userId!);
  }

  /** Disconnects an app: its grant, tokens and key end, with the webhook subscriptions the app created or changed. */
  async revokeApp(person: Principal, grantId: string): Promise<void> {
    if (!UUID.test(grantId)) throw new ProblemError('not_found', `connected app ${grantId} was not found`);
    await this.repo.transaction(async (m) => {
      if (!(await this.connected.endOne(m, person.userId!, grantId)))
        throw new ProblemError('not_found', `connected app ${grantId} was not found`);
    });
    // nothing to clear: the app's key is never in the key cache (see ConnectedApps)
  }

  private async find(requestId: string): Promise<AuthorizationRow | null> {
    return UUID.test(requestId) ? this.repo.authorization(requestId) : null;
  }

  /** A person with TOTP enrolled connects an app only within 10 minutes of a code check in this session. */
  private async needsTotp(person: Principal): Promise<boolean> {
    const user = await this.users.byId(person.userId!);
    if (!user?.totp_enabled_at) return false;
    return Date.now() - (person.totpVerifiedAt?.getTime() ?? 0) > TOTP_STEP_UP_MS;
  }
}

/**
 * The request, still to be answered, in the browser that started it: a consent link opened in another
 * browser (leaked, or passed on) is refused, so nobody else connects the starting app to their account.
 */
function pending(a: AuthorizationRow | null, browser: Buffer | null): AuthorizationRow {
  if (!a) throw new ProblemError('not_found', 'this authorization request does not exist; start again from the app');
  if (!sameBrowser(a.browser_hash, browser))
    throw new ProblemError(
      'forbidden',
      'this authorization request was started in another browser; connect the app again from this browser',
    );
  if (a.decided_at) throw new ProblemError('invalid_state', 'this authorization request was already answered');
  if (a.expires_at.getTime() <= Date.now())
    throw new ProblemError('gone', 'this authorization request has expired; start again from the app');
  return a;
}

/** The host a redirect URI returns to; a native app's private-use scheme (no host) as `scheme://`. */
export function hostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || `${url.protocol}//`;
}
