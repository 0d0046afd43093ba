import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { ProblemError } from '../common/errors/problem';
import { clientBucket } from '../common/http/client-bucket';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Mailer, type OutgoingMail, sendFailure } from '../mail/mailer';
import { ConnectedApps } from '../oauth/connected-apps';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import { REDIS } from '../redis/redis.module';
import type { PasswordResetPreviewDto, PasswordResetRequestedDto } from './dto/console.dto';
import { reserveAttempt } from './attempt-counter';
import { hashPassword } from './password';
import { PasswordResetRow, PasswordResetsRepository } from './password-resets.repository';
import { SessionAuth } from './session-auth';
import { signInCounters } from './sign-in.service';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export const RESET_MINUTES = 30;
/** Requests for one email, from all addresses together, in RESET_WINDOW_SECONDS (mails a stranger can make a person receive). */
export const RESET_PER_EMAIL = 3;
/** Requests from one address (an IPv6 /64), whatever the emails, in RESET_WINDOW_SECONDS. */
export const RESET_PER_ADDRESS = 10;
export const RESET_WINDOW_SECONDS = 15 * 60;
/**
 * At shutdown, how long the mails already answered for (links, "password changed" notices) may still
 * take; those unsent then are abandoned and counted in the log. Below a container's stop grace (30 s in
 * docker/compose.yml), which one send alone could exceed (SMTP timeouts: 10 s to connect, 30 s idle).
 */
export const SHUTDOWN_WAIT_MS = 10_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url
const REQUESTED: PasswordResetRequestedDto = {
  message: `if an active account uses this email, a link to choose a new password is on its way; it works once, for ${RESET_MINUTES} minutes`,
  expiresInMinutes: RESET_MINUTES,
};

/** `a***@example.com`: enough for the person to recognise their account, not the whole address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * "Forgot your password?": a link by email, valid RESET_MINUTES once, that sets a new password and
 * ends every console session and connected OAuth app of the person (as an operator's
 * `users set-password` does). The request's answer is decided before anything about the email is
 * looked up — same body, same status, and no wait on the database or the mail server — so neither
 * its content nor its timing tells whether an account exists; the lookup, the token row and the mail
 * happen after the answer (in `pending`, awaited at shutdown for SHUTDOWN_WAIT_MS at most), a failed
 * send logged without the link. A reset mails the person that their password was changed (no link).
 */
@Injectable()
export class PasswordResetService implements OnModuleDestroy {
  private readonly logger = new Logger('PasswordReset');
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly apps: ConnectedApps,
    private readonly auth: SessionAuth,
    private readonly mailer: Mailer,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get enabled(): boolean {
    return this.mailer.configured;
  }

  async request(req: FastifyRequest, email: string): Promise<PasswordResetRequestedDto> {
    this.auth.assertSameOrigin(req);
    this.assertEnabled();
    const spelled = email.toLowerCase(); // one spelling for the counter and the lookup, as sign-in
    const perEmail = `pwreset:${createHash('sha256').update(spelled).digest('hex')}`;
    await this.reserve(`pwreset:ip:${clientBucket(req.ip)}`, RESET_PER_ADDRESS, 'from this address');
    await this.reserve(perEmail, RESET_PER_EMAIL, 'for this email');
    this.track(this.issueAndSend(spelled, newSecret() /* no prefix: the link's path is the token */));
    return REQUESTED;
  }

  /** Resolves when every reset requested so far has been written and its mails sent (or their failure logged). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Waits for the mails in flight, `ms` at most; answers how many were still not done then. */
  async settledWithin(ms: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    try {
      await Promise.race([this.settled(), late]);
    } finally {
      clearTimeout(timer);
    }
    return this.pending.size;
  }

  /** A deploy does not drop the mails of requests already answered, nor waits on a mail server for ever. */
  async onModuleDestroy(): Promise<void> {
    const abandoned = await this.settledWithin(SHUTDOWN_WAIT_MS);
    if (abandoned > 0)
      this.logger.warn(
        JSON.stringify({ msg: 'password reset mails abandoned at shutdown', abandoned, waitedMs: SHUTDOWN_WAIT_MS }),
      );
  }

  /** Public: what a link is for (masked email, expiry). 404 unknown, 410 used, superseded or expired. */
  async preview(token: string): Promise<PasswordResetPreviewDto> {
    const row = this.usable(TOKEN.test(token) ? await this.resets.byTokenHash(hashSecret(token)) : null);
    return { email: maskEmail(row.email), expiresAt: row.expires_at.toISOString() };
  }

  /**
   * Sets the new password, uses the link, closes the person's other links, ends every console
   * session and disconnects every OAuth app of the person, in one transaction (their API keys and
   * TOTP stay: the next sign-in still asks for a code). scrypt runs before any row is locked. Once
   * committed, the email's failed sign-ins (counted from all addresses together, and from the address
   * of the reset) are forgotten, so someone who locked the account by guessing does not keep its owner
   * out of the new password — unless the person has TOTP on: then the count also bounds guesses of the
   * code, and a mailbox reader resetting again and again must not get a fresh budget each time. The
   * person is then mailed that their password was changed (after the answer, as the link).
   */
  async reset(req: FastifyRequest, token: string, password: string): Promise<void> {
    this.auth.assertSameOrigin(req);
    const hash = hashSecret(token);
    const seen = this.usable(TOKEN.test(token) ? await this.resets.byTokenHash(hash) : null); // 404 / 410 before scrypt
    const passwordHash = await hashPassword(password);
    const { row, totp } = await this.users.transaction(async (m) => {
      const person = await this.users.with(m).lockById(seen.user_id); // the person's row first, as every account change
      const locked = this.usable(await this.resets.with(m).byTokenHash(hash, true));
      await this.users.with(m).setPassword(locked.user_id, passwordHash);
      await this.resets.with(m).consume(locked.id, locked.user_id);
      await this.sessions.with(m).revokeAllOf(locked.user_id);
      await this.apps.endAllOf(m, locked.user_id);
      return { row: locked, totp: person?.totp_enabled_at != null };
    });
    if (!totp) await this.forgetFailedSignIns(row.email, req.ip);
    this.passwordChanged(row.user_id, row.email, 'reset');
  }

  /**
   * Mails the person that their password was changed (by a reset link, or in the console: the mailbox
   * owner learns of a change made with a stolen session), after the answer; nothing where no mail is
   * configured. The mail names the account and the time, no link.
   */
  passwordChanged(userId: string, email: string, how: PasswordChange): void {
    if (!this.enabled) return;
    const notice = { to: email, ...passwordChangedMail(email, new Date(), how) };
    this.track(this.deliver(userId, notice, 'password changed notice not sent'));
  }

  /**
   * Past failures were against the old password; a Redis failure here is logged, the reset stands.
   * One key per DEL: the two counters are in different Redis Cluster slots.
   */
  private async forgetFailedSignIns(email: string, ip: string): Promise<void> {
    const { everywhere, here } = signInCounters(email, ip);
    await Promise.all([this.redis.del(everywhere), this.redis.del(here)]).catch((err: unknown) =>
      this.logger.warn(
        JSON.stringify({ msg: 'failed sign-ins not cleared after a password reset', error: String(err) }),
      ),
    );
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private assertEnabled(): void {
    if (!this.enabled)
      throw new ProblemError(
        'forbidden',
        'password reset by email is not available here: the operator has not configured mail (SMTP_URL); ask an operator to set a new password',
      );
  }

  private usable(row: PasswordResetRow | null): PasswordResetRow {
    if (!row) throw new ProblemError('not_found', 'this password reset link is not valid');
    if (row.used_at) throw new ProblemError('gone', 'this password reset link was already used; ask for a new one');
    if (row.superseded_at)
      throw new ProblemError('gone', 'a newer password reset link was sent; use the latest one, or ask for a new one');
    if (row.expires_at.getTime() <= Date.now())
      throw new ProblemError(
        'gone',
        `this password reset link has expired (after ${RESET_MINUTES} minutes); ask for a new one`,
      );
    if (row.user_status !== 'active') throw new ProblemError('gone', 'this account is disabled; ask an operator');
    return row;
  }

  /** The lookup, the row (committed) and then the mail; an unknown or disabled email does nothing more. */
  private async issueAndSend(email: string, token: string): Promise<void> {
    let person: { id: string; email: string } | null;
    try {
      person = await this.users.transaction(async (m) => {
        const found = await this.resets.with(m).lockActivePerson(email);
        if (found) await this.resets.with(m).issue(found.id, hashSecret(token), RESET_MINUTES);
        return found;
      });
    } catch (err) {
      return this.logFailure('password reset not issued', null, err);
    }
    if (!person) return;
    const link = `${this.config.publicBaseUrl}/console/reset-password/${token}`;
    await this.deliver(person.id, { to: person.email, ...resetMail(link) }, 'password reset mail not sent');
  }

  /** Sends a mail; a failure is logged (`failure`, the person's id, the SMTP code), never thrown. */
  private async deliver(userId: string, mail: OutgoingMail, failure: string): Promise<void> {
    await this.mailer.send(mail).catch((err: unknown) => this.logFailure(failure, userId, err));
  }

  /** Never the token, the link, the address or the mail server's reply text: the person is named by id. */
  private logFailure(msg: string, userId: string | null, err: unknown): void {
    this.logger.error(JSON.stringify({ msg, userId, reason: sendFailure(err) }));
  }

  /** Counts a request as sign-in counts attempts; 429 with Retry-After past `allowed` in the window. */
  private reserve(counter: string, allowed: number, scope: string): Promise<void> {
    const refusal = `too many password reset requests ${scope}`;
    return reserveAttempt(this.redis, counter, { allowed, windowSeconds: RESET_WINDOW_SECONDS, refusal });
  }
}

function resetMail(link: string): { subject: string; text: string } {
  return {
    subject: 'Reset your fundgate console password',
    text: [
      'Someone asked to reset the password of the fundgate console account for this email address.',
      '',
      `To choose a new password, open this link within ${RESET_MINUTES} minutes (it works once):`,
      '',
      link,
      '',
      'Choosing a new password signs you out everywhere and disconnects the apps you connected; your API keys',
      'and your authenticator app (TOTP) stay as they are.',
      '',
      'If you did not ask for this, ignore this email: your password has not changed. Never share this link.',
    ].join('\n'),
  };
}

/** How a password was changed: with a mailed reset link, in the console by someone signed in, or by an operator (users set-password). */
export type PasswordChange = 'reset' | 'console' | 'operator';

const SIGNED_OUT =
  'Every console session of the account was signed out and the apps connected to it were disconnected;';
const NEW_PASSWORD_HOW =
  'choose a new password with "Forgot your password?" on the console\'s sign-in page (or ask your fundgate';
const CLEAN_UP =
  'operator to set one), revoke on the keys page any API key you do not recognise, and tell your fund admin.';

/** Per way of changing: how it was done, what it ended, and what to do if the person did not do it. */
const CHANGED_BY: Record<PasswordChange, { how: string; ended: string; ifNotYou: string[] }> = {
  reset: {
    how: 'with a password reset link sent to this address.',
    ended: SIGNED_OUT,
    ifNotYou: [
      'If you did not change it, someone may be reading this mailbox: secure your email account first, then',
      NEW_PASSWORD_HOW,
      CLEAN_UP,
    ],
  },
  console: {
    how: 'in the console, by someone signed in to this account.',
    ended: 'Its other console sessions were signed out and the apps connected to it were disconnected;',
    ifNotYou: [
      'If you did not change it, someone used a signed-in session of yours (a shared or unlocked computer):',
      NEW_PASSWORD_HOW,
      CLEAN_UP,
    ],
  },
  operator: {
    how: 'by a fundgate operator.',
    ended: SIGNED_OUT,
    ifNotYou: [
      'Operators set a password when a person asks them to. If you did not ask for this, tell your fund admin',
      'and your fundgate operator before using the account, and revoke on the keys page any API key you do not',
      'recognise.',
    ],
  },
};

/** After a change: who (the account), when and how, what it ended, what to do if it was not them; no link. */
export function passwordChangedMail(
  email: string,
  at: Date,
  change: PasswordChange,
): { subject: string; text: string } {
  const [day, time] = at.toISOString().slice(0, 16).split('T');
  const { how, ended, ifNotYou } = CHANGED_BY[change];
  return {
    subject: 'Your fundgate console password was changed',
    text: [
      `The password of the fundgate console account ${email} was changed on ${day} at ${time} UTC,`,
      how,
      '',
      ended,
      change === 'operator'
        ? 'its API keys and authenticator app (TOTP) stay as they were.'
        : 'its API keys and authenticator app (TOTP) stay as they were. If this was you, there is nothing more to do.',
      '',
      ...ifNotYou,
    ].join('\n'),
  };
}
