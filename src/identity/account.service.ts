import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../common/auth/principal';
import { SecretSealer } from '../common/crypto/sealer';
import { ConnectedApps } from '../oauth/connected-apps';
import { ProblemError } from '../common/errors/problem';
import type { RecoveryCodesDto, TotpEnrolmentDto } from './dto/console.dto';
import { hashPassword, verifyPassword } from './password';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionsRepository } from './sessions.repository';
import { recoveryCodeHash, SignInService } from './sign-in.service';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';
import { UserRow, UsersRepository } from './users.repository';

const RECOVERY_CODES = 10;

/** A signed-in person's own account: password and TOTP (enrol, confirm, step-up verify, disable). */
@Injectable()
export class AccountService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly sealer: SecretSealer,
    private readonly signIn: SignInService,
    private readonly apps: ConnectedApps,
    private readonly resets: PasswordResetsRepository,
    private readonly mail: PasswordResetService,
  ) {}

  private async me(p: Principal): Promise<UserRow> {
    const user = await this.users.byId(p.userId!);
    if (!user) throw new ProblemError('unauthenticated', 'sign in to the console');
    return user;
  }

  /**
   * Changes the password, signs out every other session of the person, disconnects every OAuth app
   * they connected and closes their open reset links, in one transaction: a password changed because a
   * session (or the mailbox) was stolen never stays changed with that session, an app connected through
   * it, or a reset link mailed before, still live. Their API keys are kept. Once committed, the person
   * is mailed that their password was changed (where mail is configured).
   * Both scrypt runs happen before the person's row is locked; under the lock the password must still
   * be the one the current password was checked against.
   */
  async changePassword(p: Principal, current: string, next: string): Promise<void> {
    const user = await this.me(p);
    await this.signIn.counted(user.id, () => this.checkPassword(user, current, 'currentPassword'), { clears: false });
    const newHash = await hashPassword(next);
    await this.users.transaction(async (m) => {
      const locked = await this.lockedMe(m, p);
      if (locked.password_hash !== user.password_hash)
        throw new ProblemError('invalid_state', 'the password was changed meanwhile; sign in again and retry');
      await this.users.with(m).setPassword(user.id, newHash);
      await this.sessions.with(m).revokeAllOf(user.id, p.sessionId ?? null);
      await this.apps.endAllOf(m, user.id);
      await this.resets.with(m).closeOpenOf(user.id);
    });
    this.mail.passwordChanged(user.id, user.email, 'console');
  }

  private async lockedMe(m: EntityManager, p: Principal): Promise<UserRow> {
    const user = await this.users.with(m).lockById(p.userId!);
    if (!user) throw new ProblemError('unauthenticated', 'sign in to the console');
    return user;
  }

  /** Starts enrolment: a new secret (sealed at rest) that is not active until confirmed with a code. */
  async enroll(p: Principal, password: string): Promise<TotpEnrolmentDto> {
    const me = await this.me(p);
    if (me.totp_enabled_at)
      throw new ProblemError('invalid_state', 'TOTP is already enabled; disable it first to enrol again');
    await this.signIn.counted(me.id, () => this.checkPassword(me, password), { clears: false });
    const secret = newTotpSecret();
    // on the locked row: an enrolment racing a confirmation cannot switch TOTP back off after it
    const email = await this.users.transaction(async (m) => {
      const user = await this.lockedMe(m, p);
      if (user.totp_enabled_at)
        throw new ProblemError('invalid_state', 'TOTP is already enabled; disable it first to enrol again');
      await this.users.with(m).setTotp(user.id, this.sealer.seal(secret), false);
      return user.email;
    });
    return { secret, otpauthUrl: otpauthUrl(secret, email) };
  }

  /** Confirms enrolment with a first code; answers the recovery codes (shown once, stored hashed). */
  async confirm(p: Principal, code: string): Promise<RecoveryCodesDto> {
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(8).toString('hex');
      return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
    });
    // One transaction on the locked row: two confirmations at once cannot both hand out recovery
    // codes, and TOTP is never on without its codes stored, the code's step used and the session verified.
    await this.signIn.counted(p.userId!, () => this.turnOn(p, code, codes));
    return { recoveryCodes: codes };
  }

  private async turnOn(p: Principal, code: string, codes: string[]): Promise<void> {
    await this.users.transaction(async (m) => {
      const user = await this.lockedMe(m, p);
      if (user.totp_enabled_at || !user.totp_secret)
        throw new ProblemError('invalid_state', 'there is no TOTP enrolment to confirm; start one first');
      const step = matchTotp(this.sealer.unseal(user.totp_secret), code);
      if (step === null)
        throw new ProblemError('invalid_credentials', 'the one-time code is not correct', [
          { field: 'code', message: 'is not correct' },
        ]);
      const users = this.users.with(m);
      await users.setTotp(user.id, user.totp_secret, true);
      await users.replaceRecoveryCodes(user.id, codes.map(recoveryCodeHash));
      await users.useTotpStep(user.id, step);
      if (p.sessionId) await this.sessions.with(m).markTotpVerified(p.sessionId);
      await this.sessions.with(m).revokeAllOf(user.id, p.sessionId ?? null); // sign-in now asks for a code
    });
  }

  /** Step-up: a TOTP code (or a recovery code, once) marks this session verified now. */
  async verify(p: Principal, code: string): Promise<void> {
    const user = await this.me(p);
    if (!user.totp_enabled_at)
      throw new ProblemError('invalid_state', 'TOTP is not enabled for this account; enrol first');
    await this.signIn.counted(user.id, () => this.checkCode(user, code, ' (or was already used)'));
    await this.sessions.markTotpVerified(p.sessionId!);
  }

  /** Turns TOTP off: needs the password and a current (or recovery) code; other sessions end. */
  async disable(p: Principal, code: string, password: string): Promise<void> {
    const user = await this.me(p);
    if (!user.totp_enabled_at) throw new ProblemError('invalid_state', 'TOTP is not enabled');
    await this.signIn.counted(user.id, async () => {
      await this.checkPassword(user, password);
      await this.checkCode(user, code, '');
    });
    await this.users.transaction(async (m) => {
      await this.users.with(m).setTotp(user.id, null, false);
      await this.users.with(m).replaceRecoveryCodes(user.id, []);
      await this.sessions.with(m).revokeAllOf(user.id, p.sessionId ?? null);
    });
  }

  private async checkPassword(user: UserRow, password: string, field = 'password'): Promise<void> {
    if (!(await verifyPassword(password, user.password_hash)))
      throw new ProblemError(
        'invalid_credentials',
        `the ${field === 'password' ? '' : 'current '}password is not correct`,
        [{ field, message: 'is not correct' }],
      );
  }

  private async checkCode(user: UserRow, code: string, note: string): Promise<void> {
    if (!(await this.signIn.checkSecondFactor(user, code)))
      throw new ProblemError('invalid_credentials', `the one-time code is not correct${note}`, [
        { field: 'code', message: 'is not correct' },
      ]);
  }
}
