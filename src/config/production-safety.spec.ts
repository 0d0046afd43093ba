import { randomBytes } from 'node:crypto';
import { ConfigError, DEVELOPMENT_CURSOR_SECRET, loadConfig } from './config';

const ring = `k1:${randomBytes(32).toString('base64')}`;
const safe = {
  NODE_ENV: 'production',
  CURSOR_SECRET: 'x'.repeat(40),
  DEMO_API_KEY_ENABLED: 'false',
  SECRETS_KEY: ring,
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).variable;
  }
  return 'started';
}

describe('production refuses unsafe development defaults', () => {
  it('starts with private settings, under NODE_ENV or APP_ENV', () => {
    expect(loadConfig(safe)).toMatchObject({ production: true, demoApiKeyEnabled: false, webhookRequireHttps: true });
    expect(loadConfig({ ...safe, NODE_ENV: 'test', APP_ENV: 'production' }).production).toBe(true);
  });

  it.each([
    ['the development CURSOR_SECRET (default)', { CURSOR_SECRET: '' }, 'CURSOR_SECRET'],
    ['the development CURSOR_SECRET (spelled out)', { CURSOR_SECRET: DEVELOPMENT_CURSOR_SECRET }, 'CURSOR_SECRET'],
    ['a short CURSOR_SECRET', { CURSOR_SECRET: 'short-but-16-chars' }, 'CURSOR_SECRET'],
    ['the demo key enabled', { DEMO_API_KEY_ENABLED: 'true' }, 'DEMO_API_KEY_ENABLED'],
    ['the demo key left at its default', { DEMO_API_KEY_ENABLED: '' }, 'started'],
    ['no SECRETS_KEY', { SECRETS_KEY: '' }, 'SECRETS_KEY'],
    ['a malformed SECRETS_KEY', { SECRETS_KEY: 'k1:short' }, 'SECRETS_KEY'],
    ['an https PUBLIC_BASE_URL with no trusted proxy', { PUBLIC_BASE_URL: 'https://fund.example' }, 'TRUSTED_PROXIES'],
    [
      'an https PUBLIC_BASE_URL behind a named proxy',
      { PUBLIC_BASE_URL: 'https://fund.example', TRUSTED_PROXIES: '10.0.0.2' },
      'started',
    ],
  ])('%s → %s', (_name, change, variable) => {
    expect(refusal({ ...safe, ...change })).toBe(variable);
  });

  const mail = {
    SMTP_URL: 'smtp://mailer:s3cret-pass@smtp.fund.example:587',
    MAIL_FROM: 'fundgate <no-reply@fund.example>',
    PUBLIC_BASE_URL: 'https://fund.example',
    TRUSTED_PROXIES: '10.0.0.2',
  };
  it.each([
    ['smtp:// (STARTTLS required by default)', {}, 'started'],
    ['smtps://', { SMTP_URL: 'smtps://mailer:s3cret-pass@smtp.fund.example' }, 'started'],
    ['STARTTLS turned off for a remote mail server', { SMTP_REQUIRE_TLS: 'false' }, 'SMTP_REQUIRE_TLS'],
    [
      'STARTTLS turned off for a relay on this host',
      { SMTP_URL: 'smtp://127.0.0.1:25', SMTP_REQUIRE_TLS: 'false' },
      'started',
    ],
    ['STARTTLS turned off for localhost', { SMTP_URL: 'smtp://localhost:25', SMTP_REQUIRE_TLS: '0' }, 'started'],
    ['SMTP_URL without MAIL_FROM', { MAIL_FROM: '' }, 'MAIL_FROM'],
    [
      'TLS options in a query (nodemailer would read tls.rejectUnauthorized)',
      { SMTP_URL: 'smtp://h.example?tls.rejectUnauthorized=false' },
      'SMTP_URL',
    ],
  ])('mail: %s → %s', (_name, change, variable) => {
    expect(refusal({ ...safe, ...mail, ...change })).toBe(variable);
  });

  it.each([
    ['the default PUBLIC_BASE_URL (http://localhost:PORT)', { PUBLIC_BASE_URL: '' }, 'PUBLIC_BASE_URL'],
    ['an http:// PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'http://fund.example' }, 'PUBLIC_BASE_URL'],
    ['an https://localhost PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'https://localhost:3000' }, 'PUBLIC_BASE_URL'],
    ['an https:// loopback address', { PUBLIC_BASE_URL: 'https://127.0.0.2' }, 'PUBLIC_BASE_URL'],
    ['an https:// IPv6 loopback', { PUBLIC_BASE_URL: 'https://[::1]:8443' }, 'PUBLIC_BASE_URL'],
    ['a *.localhost name', { PUBLIC_BASE_URL: 'https://console.localhost' }, 'PUBLIC_BASE_URL'],
    ['the unspecified address', { PUBLIC_BASE_URL: 'https://0.0.0.0' }, 'PUBLIC_BASE_URL'],
    ['a public https:// origin', {}, 'started'],
  ])('mail: links mailed to people need a public https PUBLIC_BASE_URL: %s → %s', (_name, change, variable) => {
    expect(refusal({ ...safe, ...mail, ...change })).toBe(variable);
  });

  it('without mail, production still starts on http://localhost (docker/compose.yml, no SMTP_URL)', () => {
    expect(loadConfig({ ...safe, PUBLIC_BASE_URL: 'http://localhost:3000' }).mail).toBeNull();
  });

  it('mail: production requires STARTTLS on smtp:// and never says the SMTP password', () => {
    expect(loadConfig({ ...safe, ...mail }).mail).toMatchObject({ implicitTls: false, requireTls: true, port: 587 });
    expect(loadConfig({ ...safe, ...mail, SMTP_URL: 'smtps://smtp.fund.example' }).mail).toMatchObject({
      implicitTls: true,
      requireTls: false,
      port: 465,
    });
    for (const change of [
      { SMTP_REQUIRE_TLS: 'false' },
      { MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' },
      { SMTP_URL: 'smtp://mailer:s3cret-pass@h/x' },
    ]) {
      let message = '';
      try {
        loadConfig({ ...safe, ...mail, ...change });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^Invalid configuration: /);
      expect(message).not.toContain('s3cret-pass');
    }
  });

  it('outside production the development defaults still work (demo key on by default)', () => {
    const dev = loadConfig({});
    expect(dev).toMatchObject({
      production: false,
      demoApiKeyEnabled: true,
      cursorSecret: DEVELOPMENT_CURSOR_SECRET,
      secretsKeyRing: null,
    });
    expect(loadConfig({ DEMO_API_KEY_ENABLED: 'false' }).demoApiKeyEnabled).toBe(false);
  });
});
