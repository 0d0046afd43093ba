import ipaddr from 'ipaddr.js';
import { bool, ConfigError } from '../config/config';

/**
 * Outgoing mail (password reset links) from the environment: SMTP_URL, MAIL_FROM, SMTP_REQUIRE_TLS.
 * Read by config.ts like every other setting; nothing here reads process.env. SMTP_URL unset: no
 * mail, and password reset by email is not offered.
 */
export interface MailSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte (port 465 by default). */
  implicitTls: boolean;
  /** smtp://: STARTTLS must succeed or nothing is sent (SMTP_REQUIRE_TLS; on by default in production). */
  requireTls: boolean;
  user: string | null;
  password: string | null;
  /** MAIL_FROM as given: `fundgate <no-reply@fund.example>` or a bare address. */
  from: string;
}

export interface MailConfig {
  /** SMTP_URL, MAIL_FROM, SMTP_REQUIRE_TLS; null when SMTP_URL is unset (no mail, no password reset by email). */
  mail: MailSettings | null;
}

type Env = Record<string, string | undefined>;

/** An address alone or in `Name <address>`; no line breaks (a header injection) and one address only. */
const FROM = /^(?:[^<>\r\n@,;]*<[^\s<>@,;]+@[^\s<>@,;]+\.[^\s<>@,;]+>|[^\s<>@,;]+@[^\s<>@,;]+\.[^\s<>@,;]+)$/;

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/** Loopback, `*.localhost` (RFC 6761) or the unspecified address: a link there reaches no one else's browser. */
function isLocalOnly(host: string): boolean {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isLoopback(bare) || bare.endsWith('.localhost')) return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'unspecified';
}

/**
 * Production with mail: the password reset links mailed carry a token and point at PUBLIC_BASE_URL,
 * so it must be https (opened over http the token crosses the network in cleartext) and a host other
 * than this machine (the default, http://localhost:PORT, would mail people links to their own computer).
 * Without SMTP_URL nothing is mailed, and a local http origin stays allowed (docker/compose.yml).
 */
export function assertMailLinksSafe(config: MailConfig & { publicBaseUrl: string }): void {
  if (!config.mail) return;
  const base = new URL(config.publicBaseUrl);
  if (base.protocol !== 'https:' || isLocalOnly(base.hostname))
    throw new ConfigError(
      'PUBLIC_BASE_URL',
      `must be the service's public https:// origin in production when SMTP_URL is set (got ${base.origin}): ` +
        'the password reset links mailed to people carry a token and point there',
    );
}

/** A user or password of SMTP_URL, percent-decoded; a malformed escape names the part, never quotes it. */
function credential(encoded: string, part: 'user' | 'password'): string | null {
  if (!encoded) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new ConfigError('SMTP_URL', `has a malformed percent-encoding in its ${part} (write a % as %25)`);
  }
}

function smtpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', 'must be a URL like smtp://user:password@host:587 or smtps://host:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new ConfigError('SMTP_URL', 'must use smtp: or smtps:');
  if (!url.hostname) throw new ConfigError('SMTP_URL', 'must name a host');
  // options are ours to set (TLS, timeouts): nodemailer would read tls.rejectUnauthorized=false or ignoreTLS from a query
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash)
    throw new ConfigError('SMTP_URL', 'takes scheme, credentials, host and port only (no path or query)');
  return url;
}

/**
 * SMTP_URL and its companions; null when SMTP_URL is unset. In production the reset link (a
 * credential) never crosses a network in cleartext: smtps://, or smtp:// with STARTTLS required
 * (the default there); SMTP_REQUIRE_TLS=false is accepted in production only for a relay on this
 * host (loopback), which is the documented override.
 */
export function readMailConfig(env: Env, production: boolean): MailConfig {
  return { mail: readMailSettings(env, production) };
}

function readMailSettings(env: Env, production: boolean): MailSettings | null {
  const raw = env.SMTP_URL;
  if (raw === undefined || raw === '') {
    if (env.MAIL_FROM) throw new ConfigError('MAIL_FROM', 'is set but SMTP_URL is not: set both, or neither');
    return null;
  }
  const url = smtpUrl(raw);
  const from = (env.MAIL_FROM ?? '').trim();
  if (!from)
    throw new ConfigError('MAIL_FROM', 'is required when SMTP_URL is set (e.g. fundgate <no-reply@fund.example>)');
  if (!FROM.test(from))
    throw new ConfigError('MAIL_FROM', `must be one address, alone or as Name <address>, got "${from.slice(0, 100)}"`);
  const implicitTls = url.protocol === 'smtps:';
  const requireTls = bool(env, 'SMTP_REQUIRE_TLS', production);
  if (production && !implicitTls && !requireTls && !isLoopback(url.hostname))
    throw new ConfigError(
      'SMTP_REQUIRE_TLS',
      'must not be false in production for a mail server on another host: reset links would travel in cleartext ' +
        '(use smtps://, keep STARTTLS required, or relay through a server on this host)',
    );
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
    implicitTls,
    requireTls: !implicitTls && requireTls,
    user: credential(url.username, 'user'),
    password: credential(url.password, 'password'),
    from,
  };
}
