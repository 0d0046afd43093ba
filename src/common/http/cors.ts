import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/config';

/**
 * CORS for the public API surfaces, in one place (CORS_ORIGINS):
 * - the keyless calculators (`/api/v1/calc/*`): `*` (the default) or the named origins;
 * - both MCP servers (`/api/mcp/public`, `/api/mcp`): named origins only — CORS_ORIGINS' and
 *   MCP_ALLOWED_ORIGINS, the same list their Origin check (the MCP spec's DNS-rebinding rule, which
 *   does not honour `*`) lets through — with a POST preflight whatever CORS_ORIGINS holds, so browser
 *   MCP clients can reach the fund server with a key or an OAuth token (a console session is refused
 *   there, and no cookie crosses origins: credentials are never allowed);
 * - OAuth discovery, token, revocation and registration (`/.well-known/oauth-*`, `/oauth/token|revoke|register`):
 *   `*`, so MCP clients that run in a browser can sign in (these answer no cookie-authenticated data;
 *   `/oauth/authorize` is a top-level navigation and needs no CORS);
 * - every other `/api/` route (fund data, proposals, /me, /usage): named origins only, so with
 *   the default they stay same-origin (no preflight route, no header).
 * Credentials are never allowed (no Access-Control-Allow-Credentials): cookies do not cross
 * origins, keys travel in the Authorization header. Preflights are plain Fastify routes that
 * answer 204 before Nest's guards, so they are never authenticated nor counted by a rate limit.
 */
/** Mcp-Method and Mcp-Name: MCP 2026-07-28 requires them on every request (modern-era.ts). */
export const CORS_ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Idempotency-Key, X-Request-Id';
/** WWW-Authenticate: an MCP client reads resource_metadata from the fund server's 401. */
export const CORS_EXPOSE_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Location, WWW-Authenticate';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

type Surface = 'calc' | 'mcp' | 'oauth' | 'api';

const MCP_PATHS = new Set(['/api/mcp', '/api/mcp/public', '/api/mcp/public/mcp']);

const OAUTH_PUBLIC =
  /^\/(\.well-known\/oauth-(protected-resource|authorization-server)(\/.*)?|oauth\/(token|revoke|register))$/;

function surfaceOf(url: string): Surface | null {
  const path = url.split('?')[0];
  if (OAUTH_PUBLIC.test(path)) return 'oauth';
  if (path.startsWith('/api/v1/calc/')) return 'calc';
  if (MCP_PATHS.has(path)) return 'mcp';
  if (path.startsWith('/api/')) return 'api';
  return null;
}

export class CorsPolicy {
  private readonly any: boolean;
  private readonly named: Set<string>;
  private readonly mcpNamed: Set<string>;

  constructor(config: Pick<AppConfig, 'corsOrigins' | 'mcpAllowedOrigins'>) {
    this.any = config.corsOrigins.includes('*');
    this.named = new Set(config.corsOrigins.filter((o) => o !== '*'));
    this.mcpNamed = new Set([...this.named, ...config.mcpAllowedOrigins]);
  }

  /** The Access-Control-Allow-Origin value for `origin` on `url`, or null (no CORS). */
  allowOrigin(url: string, origin: string | undefined): string | null {
    if (origin === undefined) return null;
    const surface = surfaceOf(url);
    if (surface === 'calc') return this.named.has(origin) ? origin : this.any ? '*' : null;
    if (surface === 'mcp') return this.mcpNamed.has(origin) ? origin : null;
    if (surface === 'oauth') return '*';
    if (surface === 'api') return this.named.has(origin) ? origin : null;
    return null;
  }

  /** The MCP servers' Origin check accepts these (besides no Origin at all). */
  mcpOriginAllowed(origin: string): boolean {
    return this.mcpNamed.has(origin);
  }

  get hasNamedOrigins(): boolean {
    return this.named.size > 0;
  }
}

function allowHeaders(reply: FastifyReply, allow: string): void {
  reply.header('access-control-allow-origin', allow);
  if (allow !== '*') reply.header('vary', 'Origin');
}

/** Preflight and response headers for the surfaces above. Call once, before the app's routes. */
export function registerCors(fastify: FastifyInstance, policy: CorsPolicy): void {
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (req.method !== 'OPTIONS') {
      const allow = policy.allowOrigin(req.url, req.headers.origin);
      if (allow !== null) {
        allowHeaders(reply, allow);
        reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
      }
    }
    done();
  });
  const preflight = (methods: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const allow = policy.allowOrigin(req.url, req.headers.origin);
    if (allow !== null) {
      allowHeaders(reply, allow);
      reply.header('access-control-allow-methods', methods);
      reply.header('access-control-allow-headers', CORS_ALLOW_HEADERS);
      reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    }
    return reply.code(204).send();
  };
  fastify.options('/api/v1/calc/*', preflight('POST, OPTIONS'));
  for (const path of MCP_PATHS) fastify.options(path, preflight('POST, OPTIONS'));
  fastify.options('/.well-known/oauth-protected-resource', preflight('GET, OPTIONS'));
  fastify.options('/.well-known/oauth-protected-resource/*', preflight('GET, OPTIONS'));
  fastify.options('/.well-known/oauth-authorization-server', preflight('GET, OPTIONS'));
  for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/register'])
    fastify.options(path, preflight('POST, OPTIONS'));
  if (policy.hasNamedOrigins) fastify.options('/api/*', preflight('GET, POST, PATCH, PUT, DELETE, OPTIONS'));
}
