import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../common/errors/problem';

/** The OAuth endpoints that take application/x-www-form-urlencoded (RFC 6749 §3.2, RFC 7009 §2.1). */
const FORM_PATHS = new Set(['/oauth/token', '/oauth/revoke']);

/**
 * Form bodies for the token and revocation endpoints only; every other route still reads JSON alone
 * (a form body there is a 415). A parameter sent twice becomes an array, which the endpoints refuse.
 */
export function installOAuthFormParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      if (!FORM_PATHS.has(req.url.split('?')[0])) {
        return done(new ProblemError('unsupported_media_type', 'this route reads application/json only'));
      }
      const params: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))) {
        const prev = params[k];
        params[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
      }
      done(null, params);
    },
  );
}
