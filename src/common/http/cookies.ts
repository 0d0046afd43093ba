import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A random token as our cookies carry it: 32 bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The one way fundgate names, reads and sets a cookie: `__Host-` prefixed (Secure, Path=/, no Domain)
 * when the request is HTTPS as seen through trusted proxies, HttpOnly, SameSite=Lax.
 */
export function cookieName(req: FastifyRequest, base: string): string {
  return req.protocol === 'https' ? `__Host-${base}` : base;
}

/** The request's token cookie `base`, or null when absent or not a well-formed token. */
export function tokenCookie(req: FastifyRequest, base: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const value = parse(header)[cookieName(req, base)];
  return value && TOKEN.test(value) ? value : null;
}

/** Sets (or, with maxAgeSeconds 0, clears) cookie `base`. */
export function setCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  base: string,
  value: string,
  maxAgeSeconds: number,
): void {
  reply.header(
    'set-cookie',
    serialize(cookieName(req, base), value, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: req.protocol === 'https',
      maxAge: maxAgeSeconds,
    }),
  );
}
