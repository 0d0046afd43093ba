import { sameBytes } from '../common/crypto/same-bytes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setCookie, tokenCookie } from '../common/http/cookies';
import { hashSecret, newSecret } from '../common/crypto/secrets';

/** The cookie binding an authorization request to the browser that started it (`__Host-` over HTTPS). */
const BROWSER_COOKIE = 'fg_oauth_browser';

/**
 * The browser's token for authorization requests: the one it carries (so two apps connecting at once
 * in one browser both go through), or a new one; set for `seconds`, the life of a request. Answers the
 * token's hash, which the request stores.
 */
export function bindBrowser(req: FastifyRequest, reply: FastifyReply, seconds: number): Buffer {
  const token = tokenCookie(req, BROWSER_COOKIE) ?? newSecret();
  setCookie(req, reply, BROWSER_COOKIE, token, seconds);
  return hashSecret(token);
}

/** The hash of the request's browser token, or null when it carries none. */
export function browserOf(req: FastifyRequest): Buffer | null {
  const token = tokenCookie(req, BROWSER_COOKIE);
  return token ? hashSecret(token) : null;
}

/** Whether the browser is the one that started the request (constant time). */
export function sameBrowser(stored: Buffer | null, presented: Buffer | null): boolean {
  return stored !== null && presented !== null && sameBytes(stored, presented);
}
