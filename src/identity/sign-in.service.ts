import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import type { Principal } from '../common/auth/principal';
import { ROLE_SCOPES } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { clientBucket } from '../common/http/client-bucket';
import { SecretSealer } from '../common/crypto/sealer';
import { APP_CONFIG, AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.module';
import { ConnectedApps } from '../oauth/connected-apps';
import type { SessionDto, SignedOutEverywhereDto } from './dto/console.dto';
import { hashPassword, verifyPassword } from './password';
import { PasswordResetsRepository } from './password-resets.repository';
import { SessionAuth, sessionIdOf } from './session-auth';
import { SessionsRepository } from './sessions.repository';
import { giveBackAttempt, reserveAttempt } from './attempt-counter';
import { matchTotp } from './totp';
import { UserRow, UsersRepository } from './users.repository';

export const LOCKOUT_FAILURES = 5;
/** Failures for one email from all addresses together before it locks for everyone (bounds guessing from many addresses). */
export const EMAIL_LOCKOUT_FAILURES = 50;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;
const INVALID = 'the email or password is not correct';

/**
 * The Redis counters of failed sign-ins for an email (spelled as sign-in spells it: lower case): from
 * every address together, and from the address `ip` (its bucket).
 */
export function signInCounters(email: string, ip: string): { everywhere: string; here: string } {
  const everywhere = `signin:fail:${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;
  return { everywhere, here: `${everywhere}:${clientBucket(ip)}` };
}

export function recoveryCodeHash(code: string): Buffer {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase(), 'utf8').digest();
}

/**
 * Sign-in, sign-up and sign-out. The same 401 for an unknown email and a wrong password; 5 failures
 * in 15 minutes for an email (existing or not) from one address (an IPv6 /64) lock that email for
 * that address for the rest of the window (429, Retry-After), and 50 from all addresses together
 * lock it for everyone — so a stranger cannot lock a person out with five wrong passwords, and
 * guessing from many addresses stays bounded. Counted in Redis so every instance shares the counts.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly auth: SessionAuth,
    private readonly sealer: SecretSealer,
    private readonly apps: ConnectedApps,
    private readonly resets: PasswordResetsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async signIn(
    req: FastifyRequest,
    reply: FastifyReply,
    body: { email: string; password: string; totpCode?: string },
  ): Promise<SessionDto> {
    this.auth.assertSameOrigin(req);
    // the counter and the lookup use one spelling: PostgreSQL's lower() folds some letters JavaScript's
    // does not (İ), and a spelling that signs in to the same person must not get a count of its own
    const email = body.email.toLowerCase();
    const { everywhere, here } = signInCounters(email, req.ip);
    await this.reserveAttempt(here, 'too many failed sign-ins for this email from this address');
    await this.reserveAttempt(everywhere, 'too many failed sign-ins for this email', EMAIL_LOCKOUT_FAILURES).catch(
      async (err: unknown) => {
        await this.giveBack(here);
        throw err;
      },
    );
    const { user, totpVerified } = await this.credentialsOf({ ...body, email }).catch(async (err: unknown) => {
      // a wrong password or code keeps its counts; anything else (a TOTP code still to come, an error) gives them back
      if (!(err instanceof ProblemError && err.code === 'invalid_credentials'))
        await Promise.all([this.giveBack(here), this.giveBack(everywhere)]);
      throw err;
    });
    // a success clears this address's count; the email's own failures elsewhere still stand
    await Promise.all([this.redis.del(here), this.giveBack(everywhere)]);
    await this.auth.start(req, reply, user.id, totpVerified);
    return this.sessionViewOf(req, user.id);
  }

  /** The active person these credentials sign in, and whether a TOTP code was verified; invalid_credentials otherwise. */
  private async credentialsOf(body: {
    email: string;
    password: string;
    totpCode?: string;
  }): Promise<{ user: UserRow; totpVerified: boolean }> {
    const user = await this.users.byEmail(body.email);
    const passwordOk = await verifyPassword(body.password, user?.password_hash ?? null);
    if (!user || !passwordOk || user.status !== 'active') throw new ProblemError('invalid_credentials', INVALID);
    return { user, totpVerified: await this.secondFactorOf(user, body.totpCode) };
  }

  /** True when the account has TOTP and `code` is right; throws when a code is missing or wrong. */
  private async secondFactorOf(user: UserRow, code: string | undefined): Promise<boolean> {
    if (!user.totp_enabled_at) return false;
    if (!code)
      throw new ProblemError(
        'totp_required',
        'enter the 6-digit code from your authenticator app (or a recovery code)',
        [{ field: 'totpCode', message: 'is required for this account' }],
      );
    if (!(await this.checkSecondFactor(user, code)))
      throw new ProblemError('invalid_credentials', 'the one-time code is not correct');
    return true;
  }

  /**
   * Counts the attempt before the password is checked (INCR, then the check of its answer): with the
   * count taken after a failed check instead, parallel attempts all passed the lock before any
   * failure was counted (200 guesses at once for one email were 200 password checks). An attempt
   * that ends in neither a failure nor a success gives its count back; a success clears it.
   */
  private reserveAttempt(counter: string, refusal: string, allowed = LOCKOUT_FAILURES): Promise<void> {
    return reserveAttempt(this.redis, counter, { allowed, windowSeconds: LOCKOUT_WINDOW_SECONDS, refusal });
  }

  private giveBack(counter: string): Promise<void> {
    return giveBackAttempt(this.redis, counter);
  }

  /**
   * A check a signed-in person answers with a code or their password (step-up, turning TOTP on or
   * off), counted per person as sign-in counts per email: LOCKOUT_FAILURES wrong answers
   * (invalid_credentials) in LOCKOUT_WINDOW_SECONDS, then 429 — a stolen session cannot guess codes
   * at the route's rate limit. A right answer that includes a code clears the count; a right password
   * alone (`clears: false`) only gives its own attempt back, so knowing the password never resets
   * the count of wrong codes. Any other error gives its count back.
   */
  async counted<T>(userId: string, check: () => Promise<T>, { clears = true } = {}): Promise<T> {
    const counter = `account:fail:${userId}`;
    await this.reserveAttempt(counter, 'too many wrong codes or passwords for this account');
    try {
      const answer = await check();
      if (clears) await this.redis.del(counter);
      else await this.giveBack(counter);
      return answer;
    } catch (err) {
      if (!(err instanceof ProblemError && err.code === 'invalid_credentials')) await this.giveBack(counter);
      throw err;
    }
  }

  /** A TOTP code (±1 step, each step once) or an unused recovery code. */
  async checkSecondFactor(user: UserRow, code: string): Promise<boolean> {
    if (!user.totp_secret) return false;
    const trimmed = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(trimmed)) {
      const step = matchTotp(this.sealer.unseal(user.totp_secret), trimmed);
      return step !== null && (await this.users.useTotpStep(user.id, step));
    }
    return this.users.useRecoveryCode(user.id, recoveryCodeHash(trimmed));
  }

  async signUp(
    req: FastifyRequest,
    reply: FastifyReply,
    body: { email: string; displayName: string; password: string },
  ): Promise<SessionDto> {
    this.auth.assertSameOrigin(req);
    if (!this.config.consoleSignup)
      throw new ProblemError('forbidden', 'public sign-up is turned off here; ask a fund admin for an invitation');
    const passwordHash = await hashPassword(body.password);
    const created = await this.users
      .transaction(async (m) => {
        if (await this.users.with(m).byEmail(body.email)) return null;
        return this.users
          .with(m)
          .createPerson({ email: body.email, displayName: body.displayName, passwordHash, plan: 'free' });
      })
      .catch((err: Error & { code?: string }) => (err.code === '23505' ? null : Promise.reject(err)));
    if (!created)
      throw new ProblemError('invalid_state', 'an account with this email already exists; sign in instead', [
        { field: 'email', message: 'already registered' },
      ]);
    await this.auth.start(req, reply, created.userId, false);
    return this.sessionViewOf(req, created.userId);
  }

  async signOut(req: FastifyRequest, reply: FastifyReply, p: Principal): Promise<void> {
    if (p.sessionId) await this.sessions.revoke(p.sessionId);
    this.auth.clearCookie(req, reply);
  }

  /**
   * Ends every console session of the person and disconnects every OAuth app they connected (grants,
   * tokens and the keys behind them), in one transaction. Their own API keys keep working: revoke
   * those on the keys page.
   */
  async signOutEverywhere(req: FastifyRequest, reply: FastifyReply, p: Principal): Promise<SignedOutEverywhereDto> {
    const ended = await this.users.transaction(async (m) => {
      await this.resets.with(m).closeOpenOf(p.userId!); // a mailed reset link would let the intruder back in
      return {
        revokedSessions: await this.sessions.with(m).revokeAllOf(p.userId!),
        disconnectedApps: await this.apps.endAllOf(m, p.userId!),
      };
    });
    this.auth.clearCookie(req, reply);
    return ended;
  }

  /** What the console needs to render: the person, memberships with scopes, CSRF token, step-up state. */
  async sessionViewOf(req: FastifyRequest, userId: string): Promise<SessionDto> {
    const value = req.sessionCookie ?? this.auth.cookieValue(req);
    const session = value ? await this.sessions.findLive(sessionIdOf(value)) : null;
    if (!session || session.user_id !== userId) throw new ProblemError('unauthenticated', 'sign in to the console');
    const memberships = await this.users.memberships(userId);
    return {
      user: {
        id: userId,
        email: session.email,
        displayName: session.display_name,
        plan: session.plan,
        totpEnabled: session.totp_enabled_at !== null,
      },
      memberships: memberships.map((ms) => ({
        fund: { slug: ms.fund_slug, name: ms.fund_name },
        role: ms.role,
        scopes: [...ROLE_SCOPES[ms.role]],
        approvalRequiresTotp: ms.approval_requires_totp,
      })),
      csrfToken: session.csrf_token,
      totpVerifiedAt: session.totp_verified_at?.toISOString() ?? null,
      signupEnabled: this.config.consoleSignup,
    };
  }
}
