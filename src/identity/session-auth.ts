import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import { sameBytes } from '../common/crypto/same-bytes';
import type { SessionResolver } from '../common/auth/credential-resolver';
import type { Principal } from '../common/auth/principal';
import { ROLE_SCOPES } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { setCookie, tokenCookie } from '../common/http/cookies';
import { APP_CONFIG, AppConfig } from '../config/config';
import { SessionRow, SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
export const FUND_HEADER = 'x-fundgate-fund';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session cookie's name (`__Host-fg_session` over HTTPS). */
const SESSION_COOKIE = 'fg_session';

/** A session is stored under its cookie value's hash, as every secret is. */
export const sessionIdOf = hashSecret;

/**
 * The console session path of authentication: cookie → live session → (X-Fundgate-Fund) membership →
 * Principal; CSRF on every state-changing request (same origin AND the session's token).
 */
@Injectable()
export class SessionAuth implements SessionResolver {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  cookieValue(req: FastifyRequest): string | null {
    return tokenCookie(req, SESSION_COOKIE);
  }

  /** The live session behind the request's cookie, or null. */
  async current(req: FastifyRequest): Promise<SessionRow | null> {
    const value = this.cookieValue(req);
    return value ? this.sessions.findLive(sessionIdOf(value)) : null;
  }

  /** Sets req.principal from the session cookie; throws 401 (no/expired session), 403 (CSRF, fund). */
  async authenticate(req: FastifyRequest): Promise<void> {
    const session = await this.current(req);
    if (!session) {
      throw new ProblemError(
        'unauthenticated',
        'sign in to the console: the session is missing, expired or signed out',
      );
    }
    if (!SAFE_METHODS.has(req.method)) this.assertCsrf(req, session.csrf_token);
    void this.sessions.touch(session.id, SESSION_IDLE_SECONDS).catch(() => undefined);
    req.principal = await this.principalOf(req, session);
  }

  assertSameOrigin(req: FastifyRequest): void {
    const origin = req.headers.origin;
    const own = [`${req.protocol}://${req.host}`, new URL(this.config.publicBaseUrl).origin];
    const ok = typeof origin === 'string' ? own.includes(origin) : req.headers['sec-fetch-site'] === 'same-origin';
    if (!ok)
      throw new ProblemError(
        'csrf_failed',
        "the request does not come from the console's own origin (Origin / Sec-Fetch-Site)",
      );
  }

  private assertCsrf(req: FastifyRequest, token: string): void {
    this.assertSameOrigin(req);
    const sent = req.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !sameBytes(sent, token)) {
      throw new ProblemError(
        'csrf_failed',
        'the X-CSRF-Token header is missing or does not match the session (GET /api/v1/console/session gives it)',
      );
    }
  }

  private async principalOf(req: FastifyRequest, s: SessionRow): Promise<Principal> {
    const slug = req.headers[FUND_HEADER];
    let fund: Principal['fund'] = null;
    let role: Principal['role'] = null;
    if (typeof slug === 'string' && slug !== '') {
      const membership = await this.users.membershipBySlug(s.user_id, slug);
      if (!membership) throw new ProblemError('forbidden', `you are not a member of fund "${slug}"`);
      fund = { id: membership.fund_id, slug: membership.fund_slug, name: membership.fund_name };
      role = membership.role;
    }
    return {
      via: 'session',
      keyId: null,
      keyName: null,
      displayPrefix: null,
      accountId: s.account_id,
      accountName: s.account_name,
      userId: s.user_id,
      role,
      fund,
      scopes: role ? ROLE_SCOPES[role] : [],
      plan: s.plan,
      isDemo: false,
      createdAt: s.created_at.toISOString(),
      expiresAt: null,
      lastUsedAt: s.last_seen_at.toISOString(),
      sessionId: s.id,
      totpVerifiedAt: s.totp_verified_at,
    };
  }

  /** A new session (new id every sign-in: no fixation); the request's previous session, if any, ends. */
  async start(req: FastifyRequest, reply: FastifyReply, userId: string, totpVerified: boolean): Promise<void> {
    const previous = this.cookieValue(req);
    if (previous) await this.sessions.revoke(sessionIdOf(previous));
    const value = newSecret();
    const ua = req.headers['user-agent'];
    await this.sessions.insert({
      id: sessionIdOf(value),
      userId,
      csrfToken: newSecret(),
      idleSeconds: SESSION_IDLE_SECONDS,
      absoluteSeconds: SESSION_ABSOLUTE_SECONDS,
      totpVerified,
      clientIp: req.ip ?? null,
      userAgent: typeof ua === 'string' ? ua.slice(0, 200) : null,
    });
    setCookie(req, reply, SESSION_COOKIE, value, SESSION_ABSOLUTE_SECONDS);
    req.sessionCookie = value;
  }

  clearCookie(req: FastifyRequest, reply: FastifyReply): void {
    setCookie(req, reply, SESSION_COOKIE, '', 0);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The cookie value of a session started during this request (sign-in, sign-up, invitation). */
    sessionCookie?: string;
  }
}
