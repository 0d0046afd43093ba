import type { Principal } from './principal';

export type AuthFailure = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'disabled';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

/**
 * What the AuthGuard needs from whoever owns API keys: a raw bearer key → the principal it stands
 * for, or why not. Implemented by `KeysService` (provided under this token by `KeysModule`), so
 * `common/` depends on this interface, never on a feature.
 */
export interface CredentialResolver {
  authenticate(rawKey: string): Promise<AuthResult>;
}

export const CREDENTIAL_RESOLVER = Symbol('CREDENTIAL_RESOLVER');
