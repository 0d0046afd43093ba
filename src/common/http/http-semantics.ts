import { createHash } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ProblemError } from '../errors/problem';
import { sendProblem } from '../errors/problem.filter';
import { PAGE_POLICY } from './page-policy';

/**
 * HTTP behaviour clients and proxies expect (issue 14): gzip/br over 1 KB, ETag + If-None-Match → 304
 * on run-derived and static answers, Cache-Control on every API answer, 405 with Allow for a known
 * path asked with a method it does not serve.
 */

/** Answers that change only when a NAV run, the fund's configuration or the deployment changes. */
export const ETAG_ROUTES = new Set([
  '/api/openapi.json',
  '/api/openapi.yaml',
  '/api/v1/fund/overview',
  '/api/v1/fund/fee-terms',
  '/api/v1/fund/dealing-calendar',
  '/api/v1/fund/risk/stress-presets',
  '/api/v1/fund/ledger/accounts',
  '/api/v1/fund/nav/history',
  '/api/v1/fund/nav/reconciliation',
  '/api/v1/fund/capital-accounts',
  '/api/v1/fund/performance',
  '/api/v1/fund/pnl/attribution',
  '/api/v1/fund/pnl/attribution-dates',
]);

export const COMPRESS_THRESHOLD_BYTES = 1024;

export function hasEtag(method: string, route: string): boolean {
  return method.toUpperCase() === 'GET' && ETAG_ROUTES.has(route);
}

/** Registers everything; call before the routes are added (compression hooks apply to later routes). */
export async function registerHttpSemantics(fastify: FastifyInstance): Promise<void> {
  registerMethodNotAllowed(fastify);
  fastify.addHook('onSend', cachingHook);
  await fastify.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }, // fast: these answers are made per request
  });
}

function cachingHook(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, p?: unknown) => void,
): void {
  const route = req.routeOptions?.url ?? '';
  securityHeaders(reply);
  if (!route.startsWith('/api/') || reply.getHeader('cache-control')) return done(null, payload);
  const cacheable =
    hasEtag(req.method, route) && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload));
  if (!cacheable) {
    reply.header('cache-control', 'private, no-store');
    return done(null, payload);
  }
  // weak: one tag for the identity, gzip and br bytes alike (a strong one must differ per content coding, RFC 9110 §8.8.1)
  const tag = `"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;
  const etag = `W/${tag}`;
  reply
    .header('etag', etag)
    .header('cache-control', route.startsWith('/api/openapi') ? 'public, no-cache' : 'private, no-cache');
  if (matches(req.headers['if-none-match'], tag)) {
    // RFC 9110 §15.4.5: no content headers on a 304, and the Vary the 200 would carry
    reply.code(304).removeHeader('content-type').removeHeader('content-length').header('vary', 'accept-encoding');
    return done(null, null);
  }
  done(null, payload);
}

/**
 * Every answer is exactly its content-type (JSON, problem+json, pages): no browser guesses another.
 * An HTML page that set no policy (the API docs, served by @nestjs/swagger) gets the pages' one.
 */
function securityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
  if (html && !reply.hasHeader('content-security-policy')) reply.headers(PAGE_POLICY);
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): the opaque tags compared, W/ ignored on both sides. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

interface KnownRoute {
  re: RegExp;
  methods: Set<string>;
  wildcard: boolean;
}

function registerMethodNotAllowed(fastify: FastifyInstance): void {
  const routes = new Map<string, KnownRoute>();
  fastify.addHook('onRoute', (r: RouteOptions) => {
    const known = routes.get(r.url) ?? {
      re: patternOf(r.url),
      methods: new Set<string>(),
      wildcard: r.url.includes('*'),
    };
    for (const m of [r.method].flat()) known.methods.add(String(m).toUpperCase());
    routes.set(r.url, known);
  });
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (req.routeOptions?.url !== undefined) return done();
    const path = req.url.split('?')[0];
    const hits = [...routes.values()].filter((r) => r.re.test(path));
    if (!hits.some((r) => !r.wildcard) || hits.some((r) => r.methods.has(req.method))) return done();
    const allow = [...new Set(hits.flatMap((r) => [...r.methods]))].sort().join(', ');
    reply.header('allow', allow);
    sendProblem(
      reply,
      req,
      new ProblemError('method_not_allowed', `${req.method} is not allowed on ${path}; allowed: ${allow}`),
    );
  });
}

function patternOf(url: string): RegExp {
  const body = url
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}
