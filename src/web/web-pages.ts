import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_POLICY } from '../common/http/page-policy';

/**
 * The web surfaces built by `npm run build:web` (Vite, sources in web/) into dist/web:
 * `/` the landing page, `/console/*` the developer console, `/tools/*` the free web tools.
 * Each is a single-page app, so every path under its prefix answers its index.html; the hashed
 * bundles under /assets/ are immutable. These routes are public by nature (no data in them):
 * the pages call the REST API, which applies its own auth. They are plain Fastify routes, not Nest
 * controllers, so they never reach the API's guards, redaction or problem filter.
 */
const PAGES: { prefix: string; file: string }[] = [
  { prefix: '/', file: 'index.html' },
  { prefix: '/console', file: 'console/index.html' },
  { prefix: '/tools', file: 'tools/index.html' },
];

const HTML_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  ...PAGE_POLICY,
};

/**
 * Console pages whose path is a credential (a password reset link, an invitation link): no Referer
 * leaves them, not even to our own API (a proxy or log that records Referer would keep the token),
 * and the browser stores no copy under that address.
 */
const TOKEN_PAGES = ['/console/reset-password/*', '/console/invite/*', '/console/invitations/*'];
const TOKEN_PAGE_HEADERS: Record<string, string> = {
  ...HTML_HEADERS,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

export function registerWebPages(fastify: FastifyInstance, distDir: string): void {
  const html = new Map<string, string>();
  const load = (file: string): string | null => {
    const cached = html.get(file);
    if (cached !== undefined) return cached;
    const path = join(distDir, file);
    if (!existsSync(path)) return null; // not built yet: answered below, looked up again next time
    const text = readFileSync(path, 'utf8');
    html.set(file, text);
    return text;
  };
  const send =
    (file: string, headers = HTML_HEADERS) =>
    async (_req: unknown, reply: FastifyReply) => {
      const text = load(file);
      if (text === null) {
        return reply.code(503).type('application/problem+json').send({
          type: 'about:blank',
          title: 'Service unavailable',
          status: 503,
          code: 'unavailable',
          detail: 'the web pages are not built: run npm run build:web (npm run build does it too)',
        });
      }
      return reply.headers(headers).send(text);
    };
  for (const { prefix, file } of PAGES) {
    fastify.get(prefix, send(file));
    if (prefix !== '/') fastify.get(`${prefix}/*`, send(file));
  }
  for (const path of TOKEN_PAGES) fastify.get(path, send('console/index.html', TOKEN_PAGE_HEADERS));
  fastify.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
    // A path ending in "/" names a folder (the assets folder itself, /assets/): there is no listing, so
    // it is not found. Without this, @fastify/static answers such a path with a bare 403 error.
    allowedPath: (path: string) => !path.endsWith('/'),
  });
}
