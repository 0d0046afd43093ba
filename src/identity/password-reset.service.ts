import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { ProblemError } from '../common/errors/problem';
import { clientBucket } from '../common/http/client-bucket';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Mailer, sendFailure } from '../mail/mailer';
import { ConnectedApps } from '../oauth/connected-apps';
import { REDIS } from '../redis/redis.module';
import type { PasswordResetPreviewDto, PasswordResetRequestedDto } from './dto/console.dto';
import { reserveAttempt } from './attempt-counter';
import { hashPassword } from './password';
import { PasswordResetRow, PasswordResetsRepository } from './password-resets.repository';
import { SessionAuth } from './session-auth';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export const RESET_MINUTES = 30;
/** Requests for one email, from all addresses together, in RESET_WINDOW_SECONDS (mails a stranger can make a person receive). */
export const RESET_PER_EMAIL = 3;
/** Requests from one address (an IPv6 /64), whatever the emails, in RESET_WINDOW_SECONDS. */
export const RESET_PER_ADDRESS = 10;
export const RESET_WINDOW_SECONDS = 15 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url
const REQUESTED: PasswordResetRequestedDto = {
  message: `if an active account uses this email, a link to choose a new password is on its way; it works once, for ${RESET_MINUTES} minutes`,
  expiresInMinutes: RESET_MINUTES,
};

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest();

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
 * happen after the answer (in `pending`, awaited at shutdown), a failed send logged without the link.
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
    const token = randomBytes(32).toString('base64url');
    const work = this.issueAndSend(spelled, token).finally(() => this.pending.delete(work));
    this.pending.add(work);
    return REQUESTED;
  }

  /** Resolves when every reset requested so far has been written and its mail sent (or its failure logged). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.settled(); // a deploy does not drop the mails of requests already answered
  }

  /** Public: what a link is for (masked email, expiry). 404 unknown, 410 used, superseded or expired. */
  async preview(token: string): Promise<PasswordResetPreviewDto> {
    const row = this.usable(TOKEN.test(token) ? await this.resets.byTokenHash(tokenHash(token)) : null);
    return { email: maskEmail(row.email), expiresAt: row.expires_at.toISOString() };
  }

  /**
   * Sets the new password, uses the link, closes the person's other links, ends every console
   * session and disconnects every OAuth app of the person, in one transaction (their API keys and
   * TOTP stay: the next sign-in still asks for a code). scrypt runs before any row is locked.
   */
  async reset(req: FastifyRequest, token: string, password: string): Promise<void> {
    this.auth.assertSameOrigin(req);
    const hash = tokenHash(token);
    const seen = this.usable(TOKEN.test(token) ? await this.resets.byTokenHash(hash) : null); // 404 / 410 before scrypt
    const passwordHash = await hashPassword(password);
    await this.users.transaction(async (m) => {
      await this.users.with(m).lockById(seen.user_id); // the person's row first, as every account change
      const row = this.usable(await this.resets.with(m).byTokenHash(hash, true));
      await this.users.with(m).setPassword(row.user_id, passwordHash);
      await this.resets.with(m).consume(row.id, row.user_id);
      await this.sessions.with(m).revokeAllOf(row.user_id);
      await this.apps.endAllOf(m, row.user_id);
    });
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
    let issued: { userId: string; email: string; expiresAt: Date } | null = null;
    try {
      issued = await this.users.transaction(async (m) => {
        const person = await this.resets.with(m).lockActivePerson(email);
        if (!person) return null;
        const row = await this.resets.with(m).issue(person.id, tokenHash(token), RESET_MINUTES);
        return { userId: person.id, email: person.email, expiresAt: row.expires_at };
      });
      if (!issued) return;
      await this.mailer.send({
        to: issued.email,
        ...resetMail(`${this.config.publicBaseUrl}/console/reset-password/${token}`),
      });
    } catch (err) {
      // never the token, the link or the mail server's reply text; the person is named by id
      this.logger.error(
        JSON.stringify({
          msg: issued ? 'password reset mail not sent' : 'password reset not issued',
          userId: issued?.userId ?? null,
          reason: sendFailure(err),
        }),
      );
    }
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
