import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { parseKeyRing, type SealingKey } from '../common/crypto/sealer';
import { redactUrl } from '../common/startup/reachability';
import { assertMailLinksSafe, type MailConfig, readMailConfig } from '../mail/mail-settings';

/**
 * The one typed configuration object. Built once at boot from the environment; nothing else in
 * the service reads process.env. A bad value stops the process with a message naming the variable.
 */
export type AppRole = 'all' | 'api' | 'worker';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type Plan = 'free' | 'developer' | 'platform';
export type PolicyName = 'calc-daily' | 'fund-minute' | 'propose-minute' | 'mcp-minute';
export type RateLimits = Record<PolicyName, Record<Plan, number>>;

export interface AppConfig extends MailConfig {
  databaseUrl: string;
  /** DATABASE_READ_URL: a streaming replica for read routes whose answer may lag; null: the primary. */
  databaseReadUrl: string | null;
  /** READ_REPLICA_MAX_LAG_MS: above this replay lag the replica is skipped and the primary answers. */
  readReplicaMaxLagMs: number;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster (redis:// URLs); empty: the one server of REDIS_URL. */
  redisClusterNodes: string[];
  port: number;
  host: string;
  role: AppRole;
  demoApiKey: string;
  /** NODE_ENV or APP_ENV is "production": unsafe development defaults refuse to start. */
  production: boolean;
  /** DEMO_API_KEY_ENABLED (default: true outside production): the shared demo key authenticates. */
  demoApiKeyEnabled: boolean;
  trustedProxies: string[];
  logLevel: LogLevel;
  rateLimits: RateLimits;
  /** Seconds an authenticated key stays in the in-process cache (revocation honoured within it). */
  keyCacheSeconds: number;
  bodyLimitBytes: number;
  activityFlushMs: number;
  activityBufferMax: number;
  navToleranceRatio: string;
  /** Seconds a live (non-run-derived) read answer may be cached. */
  liveCacheSeconds: number;
  /** Most valuation dates one admin NAV-run job may cover (NAV_RUN_MAX_DAYS). */
  navRunMaxDays: number;
  /** PostgreSQL statement_timeout / lock_timeout of the app's pool (DB_STATEMENT_TIMEOUT_MS, DB_LOCK_TIMEOUT_MS). */
  dbStatementTimeoutMs: number;
  dbLockTimeoutMs: number;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  webhookAllowPrivate: boolean;
  /** WEBHOOK_REQUIRE_HTTPS (default: on in production): fund events never travel in cleartext. */
  webhookRequireHttps: boolean;
  /** Client ID metadata documents may be fetched over http and from private/loopback addresses (development, tests). */
  oauthClientMetadataAllowPrivate: boolean;
  mcpAllowedOrigins: string[];
  /** CORS_ORIGINS: `*` (the keyless calculators only) and/or named origins (every public API surface). */
  corsOrigins: string[];
  /** Secret that signs opaque cursors (trades, activity). */
  cursorSecret: string;
  /** Where `npm run build:web` put the landing page, console and tools (WEB_DIST_DIR). */
  webDistDir: string;
  /** Key ring sealing secrets at rest (SECRETS_KEY); null: the public development ring. */
  secretsKeyRing: SealingKey[] | null;
  /** Public console sign-up (CONSOLE_SIGNUP). */
  consoleSignup: boolean;
  /** Base of links the service hands out (invitations, password resets), e.g. https://fundgate.example.com. */
  publicBaseUrl: string;
  /** seed:demo sets this password for the demo console people; null: generate and print one. */
  demoAdminPassword: string | null;
  /** CALC_WORKERS: worker threads for CPU-heavy calculator calls (default: cores − 1, at least 1; 0 = inline). */
  calcWorkers: number;
  /** CALC_QUEUE_MAX: heavy calls waiting for a worker before new ones answer 503 + Retry-After. */
  calcQueueMax: number;
  /** A heavy calculator call still running (or waiting) after this is stopped: 503 (CALC_TASK_TIMEOUT_MS). */
  calcTaskTimeoutMs: number;
  /** CALC_WORKER_NICE: the calculator threads' nice value (0–19; default 19: fund reads on the event loop come first). */
  calcWorkerNice: number;
  /** CALC_WORKER_SCHED: `idle` (default) puts calculator threads in Linux's SCHED_IDLE class; `normal` keeps only the nice value. */
  calcWorkerSched: 'idle' | 'normal';
  /** ACTIVITY_RETENTION_DAYS, WEBHOOK_RETENTION_DAYS: whole UTC days kept by the hourly retention sweep (0 = for ever). */
  activityRetentionDays: number;
  webhookRetentionDays: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

/** A syntactically valid demo key (checksum included); documented in the README. */
export const DEFAULT_DEMO_API_KEY = 'svc_dk_DemoDemoDemoDemoDemoDemoDemoDemo4SFPVU';
export const DEFAULT_RATE_LIMITS: RateLimits = {
  'calc-daily': { free: 500, developer: 10_000, platform: 100_000 },
  'fund-minute': { free: 120, developer: 600, platform: 3_000 },
  'propose-minute': { free: 20, developer: 60, platform: 300 },
  /** MCP messages that call no counted tool (initialize, ping, lists, prompts, notifications): per key or address. */
  'mcp-minute': { free: 300, developer: 1_200, platform: 6_000 },
};

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

/** A whole number within min..max, or `off` (a value outside the range that turns something off). */
function int(env: Env, name: string, fallback: number, min: number, max: number, off?: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  const or = off === undefined ? '' : `${off} or `;
  if (n !== off && (n < min || n > max))
    throw new ConfigError(name, `must be ${or}between ${min} and ${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const v = str(env, name, fallback);
  if (!allowed.includes(v as T)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${v}"`);
  return v as T;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const v = str(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return v;
}

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDurations(name: string, raw: string): number[] {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 20) throw new ConfigError(name, 'must list 1 to 20 durations like 5s,5m,2h');
  return parts.map((p) => {
    const m = DURATION.exec(p);
    if (!m) throw new ConfigError(name, `has a bad duration "${p}" (use ms, s, m or h)`);
    return Number(m[1]) * UNIT_MS[m[2]];
  });
}

export function parseRateLimits(raw: string | undefined): RateLimits {
  const merged: RateLimits = JSON.parse(JSON.stringify(DEFAULT_RATE_LIMITS));
  if (raw === undefined || raw === '') return merged;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('RATE_LIMITS', 'must be JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('RATE_LIMITS', 'must be a JSON object of policies');
  }
  for (const [policy, plans] of Object.entries(parsed)) {
    if (!(policy in merged)) throw new ConfigError('RATE_LIMITS', `names an unknown policy "${policy}"`);
    if (typeof plans !== 'object' || plans === null)
      throw new ConfigError('RATE_LIMITS', `policy "${policy}" must be an object`);
    for (const [plan, limit] of Object.entries(plans as Record<string, unknown>)) {
      if (!['free', 'developer', 'platform'].includes(plan))
        throw new ConfigError('RATE_LIMITS', `names an unknown plan "${plan}"`);
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
        throw new ConfigError('RATE_LIMITS', `${policy}.${plan} must be a positive whole number`);
      }
      merged[policy as PolicyName][plan as Plan] = limit;
    }
  }
  return merged;
}

const list = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * `*` or browser origins (`https://example.com`, `http://localhost:5173`): scheme, host and port
 * only. MCP_ALLOWED_ORIGINS takes named origins only (`*` is not an origin there).
 */
export function parseCorsOrigins(raw: string, name = 'CORS_ORIGINS'): string[] {
  const origins = list(raw);
  for (const o of origins) {
    if (o === '*' && name === 'CORS_ORIGINS') continue;
    let parsed: URL | null;
    try {
      parsed = new URL(o);
    } catch {
      parsed = null;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== o) {
      throw new ConfigError(
        name,
        `must list ${name === 'CORS_ORIGINS' ? '* or ' : ''}origins like https://example.com (no path or trailing slash), got "${o}"`,
      );
    }
  }
  return origins;
}

/** Fastify's trustProxy list (proxy-addr): addresses, CIDR ranges, or its names for special ranges. */
export function parseTrustedProxies(raw: string): string[] {
  const entries = list(raw);
  for (const e of entries) {
    const ok = PROXY_ADDR_NAMES.includes(e) || ipaddr.isValid(e) || isCidr(e);
    if (!ok)
      throw new ConfigError(
        'TRUSTED_PROXIES',
        `must list IP addresses or CIDR ranges (or ${PROXY_ADDR_NAMES.join(', ')}), got "${e}"; a host name is not resolved`,
      );
  }
  return entries;
}

const PROXY_ADDR_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `10.0.0.0/8`, or proxy-addr's netmask form `10.0.0.0/255.0.0.0`. */
function isCidr(value: string): boolean {
  const [ip, mask] = value.split('/');
  const dotted = (v: string) => ipaddr.IPv4.isValidFourPartDecimal(v);
  if (mask !== undefined && dotted(ip) && dotted(mask)) return true;
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

/** REDIS_CLUSTER_NODES: redis:// or rediss:// URLs of some of the cluster's nodes, without a database index (a cluster has one). */
function clusterNodes(env: Env): string[] {
  const nodes = list(str(env, 'REDIS_CLUSTER_NODES', ''));
  for (const node of nodes) {
    url({ REDIS_CLUSTER_NODES: node }, 'REDIS_CLUSTER_NODES', '', ['redis:', 'rediss:']);
    if (!/^\/?0?$/.test(new URL(node).pathname))
      throw new ConfigError(
        'REDIS_CLUSTER_NODES',
        `names a database index in "${redactUrl(node)}": a Redis Cluster has only database 0`,
      );
  }
  return nodes;
}

/** HOST: the address to listen on — an IP address or a host name (localhost), nothing else. */
function listenHost(env: Env): string {
  const host = str(env, 'HOST', '0.0.0.0');
  if (
    !ipaddr.isValid(host) &&
    !/^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
      host,
    )
  )
    throw new ConfigError('HOST', `must be an IP address or a host name to listen on, got "${host}"`);
  return host;
}

function keyRing(env: Env): SealingKey[] | null {
  const raw = env.SECRETS_KEY;
  if (raw === undefined || raw === '') return null;
  try {
    return parseKeyRing(raw);
  } catch (err) {
    throw new ConfigError('SECRETS_KEY', (err as Error).message);
  }
}

/** The public development default of CURSOR_SECRET: production refuses to start with it. */
export const DEVELOPMENT_CURSOR_SECRET = 'fundgate-dev-cursor-secret-change-me';
const isProduction = (env: Env) => env.NODE_ENV === 'production' || env.APP_ENV === 'production';

export function loadConfig(env: Env = process.env): AppConfig {
  const config = readConfig(env);
  if (config.production) assertProductionSafe(config);
  return config;
}

/** Production never runs on a public development secret or with the public demo key, nor mails unsafe links. */
export function assertProductionSafe(config: AppConfig): void {
  if (config.cursorSecret === DEVELOPMENT_CURSOR_SECRET || config.cursorSecret.length < 32) {
    throw new ConfigError(
      'CURSOR_SECRET',
      'must be a private value of at least 32 characters in production (the development default is public)',
    );
  }
  if (config.demoApiKeyEnabled)
    throw new ConfigError(
      'DEMO_API_KEY_ENABLED',
      'must be false in production (the demo key is published in the README)',
    );
  if (config.publicBaseUrl.startsWith('https:') && config.trustedProxies.length === 0) {
    throw new ConfigError(
      'TRUSTED_PROXIES',
      'must name the TLS-terminating proxy in production when PUBLIC_BASE_URL is https: without it the ' +
        "proxy's X-Forwarded-Proto and X-Forwarded-For are not believed, so session cookies lose Secure " +
        "and __Host- and every client shares the proxy's address in per-IP limits",
    );
  }
  assertMailLinksSafe(config); // mailed links: an https PUBLIC_BASE_URL that is not this machine
  if (!config.secretsKeyRing) {
    throw new ConfigError(
      'SECRETS_KEY',
      'is required in production (secrets at rest would be sealed under the public development key); ' +
        "generate one with: node -e \"console.log('k1:' + require('crypto').randomBytes(32).toString('base64'))\"",
    );
  }
}

function readConfig(env: Env): AppConfig {
  const demoApiKey = str(env, 'DEMO_API_KEY', DEFAULT_DEMO_API_KEY);
  if (!/^svc_dk_[0-9A-Za-z]{38}$/.test(demoApiKey)) {
    throw new ConfigError('DEMO_API_KEY', 'must be a svc_dk_ key (svc_dk_ + 38 base62 characters)');
  }
  const tolerance = str(env, 'NAV_TOLERANCE_RATIO', '0.0005');
  if (!/^0?\.\d{1,8}$/.test(tolerance))
    throw new ConfigError('NAV_TOLERANCE_RATIO', 'must be a decimal fraction below 1');
  const cursorSecret = str(env, 'CURSOR_SECRET', DEVELOPMENT_CURSOR_SECRET);
  const port = int(env, 'PORT', 3000, 0, 65535);
  const demoAdminPassword = env.DEMO_ADMIN_PASSWORD || null;
  if (demoAdminPassword !== null && demoAdminPassword.length < 12)
    throw new ConfigError('DEMO_ADMIN_PASSWORD', 'must be at least 12 characters');
  if (cursorSecret.length < 16) throw new ConfigError('CURSOR_SECRET', 'must be at least 16 characters');
  return {
    databaseUrl: url(env, 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/fundgate', ['postgres:', 'postgresql:']),
    databaseReadUrl: env.DATABASE_READ_URL ? url(env, 'DATABASE_READ_URL', '', ['postgres:', 'postgresql:']) : null,
    readReplicaMaxLagMs: int(env, 'READ_REPLICA_MAX_LAG_MS', 5_000, 0, 600_000),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379/0', ['redis:', 'rediss:']),
    redisClusterNodes: clusterNodes(env),
    port,
    host: listenHost(env),
    role: oneOf<AppRole>(env, 'APP_ROLE', 'all', ['all', 'api', 'worker']),
    demoApiKey,
    production: isProduction(env),
    demoApiKeyEnabled: bool(env, 'DEMO_API_KEY_ENABLED', !isProduction(env)),
    trustedProxies: parseTrustedProxies(str(env, 'TRUSTED_PROXIES', '')),
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error', 'silent']),
    rateLimits: parseRateLimits(env.RATE_LIMITS),
    keyCacheSeconds: int(env, 'KEY_CACHE_SECONDS', 2, 0, 5),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    activityFlushMs: int(env, 'ACTIVITY_FLUSH_MS', 500, 10, 60_000),
    activityBufferMax: int(env, 'ACTIVITY_BUFFER_MAX', 50_000, 10, 10_000_000),
    navToleranceRatio: tolerance,
    liveCacheSeconds: int(env, 'LIVE_CACHE_SECONDS', 5, 0, 300),
    navRunMaxDays: int(env, 'NAV_RUN_MAX_DAYS', 92, 1, 3660),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    dbLockTimeoutMs: int(env, 'DB_LOCK_TIMEOUT_MS', 5_000, 100, 600_000),
    webhookRetryDelaysMs: parseDurations(
      'WEBHOOK_RETRY_DELAYS',
      str(env, 'WEBHOOK_RETRY_DELAYS', '5s,5m,30m,2h,5h,10h,10h'),
    ),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookRequireHttps: bool(env, 'WEBHOOK_REQUIRE_HTTPS', isProduction(env)),
    oauthClientMetadataAllowPrivate: bool(env, 'OAUTH_CLIENT_METADATA_ALLOW_PRIVATE', false),
    mcpAllowedOrigins: parseCorsOrigins(str(env, 'MCP_ALLOWED_ORIGINS', ''), 'MCP_ALLOWED_ORIGINS'),
    corsOrigins: parseCorsOrigins(str(env, 'CORS_ORIGINS', '*')),
    cursorSecret,
    secretsKeyRing: keyRing(env),
    webDistDir: resolve(str(env, 'WEB_DIST_DIR', 'dist/web')),
    consoleSignup: bool(env, 'CONSOLE_SIGNUP', true),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(/\/+$/, ''),
    demoAdminPassword,
    calcWorkers: int(env, 'CALC_WORKERS', Math.max(1, availableParallelism() - 1), 0, 64),
    calcQueueMax: int(env, 'CALC_QUEUE_MAX', 2 * Math.max(1, availableParallelism() - 1), 0, 10_000),
    calcTaskTimeoutMs: int(env, 'CALC_TASK_TIMEOUT_MS', 10_000, 1, 600_000),
    calcWorkerNice: int(env, 'CALC_WORKER_NICE', 19, 0, 19),
    calcWorkerSched: oneOf(env, 'CALC_WORKER_SCHED', 'idle', ['idle', 'normal'] as const),
    activityRetentionDays: int(env, 'ACTIVITY_RETENTION_DAYS', 90, 0, 36_600),
    // at least 3: a final failure disables a subscription with no success for 3 days, so those must stay
    webhookRetentionDays: int(env, 'WEBHOOK_RETENTION_DAYS', 30, 3, 36_600, 0),
    ...readMailConfig(env, isProduction(env)),
  };
}

/** DI token for the config object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
