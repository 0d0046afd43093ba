import { ConfigError, DEFAULT_DEMO_API_KEY, loadConfig, parseDurations } from './config';
import { isWellFormedKey } from '../keys/key-format';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.role).toBe('all');
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/fundgate');
    expect(c.rateLimits['calc-daily'].free).toBe(500);
    expect(c.webhookRetryDelaysMs).toEqual([5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000]);
  });

  it('refuses http webhook targets in production by default, and where asked', () => {
    expect(loadConfig({}).webhookRequireHttps).toBe(false);
    expect(loadConfig({ WEBHOOK_REQUIRE_HTTPS: 'true' }).webhookRequireHttps).toBe(true);
  });

  it('ships a demo key with a valid checksum', () => {
    expect(isWellFormedKey(DEFAULT_DEMO_API_KEY)).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_ROLE', 'boss'],
    ['DATABASE_URL', 'mysql://x'],
    ['DEMO_API_KEY', 'nope'],
    ['RATE_LIMITS', '{"calc-daily":{"free":-1}}'],
    ['RATE_LIMITS', '{"bogus":{}}'],
    ['WEBHOOK_RETRY_DELAYS', '5s,soon'],
    ['WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['TRUSTED_PROXIES', 'nginx'], // a host name is not resolved: it crashed at boot with a TypeError
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['HOST', 'http://0.0.0.0'],
    ['MCP_ALLOWED_ORIGINS', 'https://agent.example/'], // a trailing slash never matched an Origin
    ['MCP_ALLOWED_ORIGINS', '*'],
    ['ACTIVITY_RETENTION_DAYS', '-1'],
    ['ACTIVITY_RETENTION_DAYS', '90d'],
    ['ACTIVITY_RETENTION_DAYS', '36601'],
    ['WEBHOOK_RETENTION_DAYS', '2'], // fewer days than a failing subscription's 3 would delete the successes it is judged by
    ['WEBHOOK_RETENTION_DAYS', '1.5'],
  ])('a bad %s (%s) stops with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('takes addresses, ranges and proxy-addr names as trusted proxies, and names and addresses as HOST', () => {
    const c = loadConfig({
      TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback,192.168.0.0/255.255.0.0',
      HOST: '::',
      MCP_ALLOWED_ORIGINS: 'https://agent.example,http://localhost:5173',
    });
    expect(c.trustedProxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
      '192.168.0.0/255.255.0.0',
    ]);
    expect(c.host).toBe('::');
    expect(c.mcpAllowedOrigins).toEqual(['https://agent.example', 'http://localhost:5173']);
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
  });

  it('merges RATE_LIMITS over the defaults', () => {
    const c = loadConfig({ RATE_LIMITS: '{"fund-minute":{"platform":100000000}}' });
    expect(c.rateLimits['fund-minute']).toEqual({ free: 120, developer: 600, platform: 100000000 });
  });

  it('keeps activity 90 days and ended webhook deliveries 30 by default; 0 keeps them for ever', () => {
    expect(loadConfig({})).toMatchObject({ activityRetentionDays: 90, webhookRetentionDays: 30 });
    const never = loadConfig({ ACTIVITY_RETENTION_DAYS: '0', WEBHOOK_RETENTION_DAYS: '0' });
    expect(never).toMatchObject({ activityRetentionDays: 0, webhookRetentionDays: 0 });
    const short = loadConfig({ ACTIVITY_RETENTION_DAYS: '1', WEBHOOK_RETENTION_DAYS: '3' });
    expect(short).toMatchObject({ activityRetentionDays: 1, webhookRetentionDays: 3 });
    expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: '2' })).toThrow(
      'WEBHOOK_RETENTION_DAYS must be 0 or between 3 and 36600, got 2',
    );
  });

  it('parses duration lists', () => {
    expect(parseDurations('X', '100ms,2s,1m,1h')).toEqual([100, 2000, 60000, 3600000]);
  });

  it('reads mail settings: none by default; SMTP_URL and MAIL_FROM together, credentials decoded', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(
      loadConfig({ SMTP_URL: 'smtp://us%40er:p%3Ass@[::1]:2525', MAIL_FROM: 'no-reply@fund.example' }).mail,
    ).toEqual({
      host: '::1',
      port: 2525,
      implicitTls: false,
      requireTls: false,
      user: 'us@er',
      password: 'p:ss',
      from: 'no-reply@fund.example',
    });
    expect(
      loadConfig({ SMTP_URL: 'smtp://h.example', MAIL_FROM: 'x@fund.example', SMTP_REQUIRE_TLS: 'true' }).mail
        ?.requireTls,
    ).toBe(true);
  });

  it.each([
    ['smtp://us%zzer:pass@h.example', 'user'],
    ['smtp://user:s3cr%E0%A4%At@h.example', 'password'],
    ['smtp://user:50%off@h.example', 'password'],
  ])('a malformed percent-encoding in SMTP_URL %s stops naming SMTP_URL and its %s, not quoting it', (raw, part) => {
    let err: unknown;
    try {
      loadConfig({ SMTP_URL: raw, MAIL_FROM: 'x@fund.example' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe('SMTP_URL');
    expect((err as Error).message).toContain(`in its ${part}`);
    for (const secret of ['zz', 's3cr', '50%off']) expect((err as Error).message).not.toContain(secret);
  });

  it.each([
    [{ SMTP_URL: 'http://h.example', MAIL_FROM: 'x@fund.example' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url', MAIL_FROM: 'x@fund.example' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://h.example/path', MAIL_FROM: 'x@fund.example' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://h.example' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'x@fund.example' }, 'MAIL_FROM'],
    [{ SMTP_URL: 'smtp://h.example', MAIL_FROM: 'not-an-address' }, 'MAIL_FROM'],
    [{ SMTP_URL: 'smtp://h.example', MAIL_FROM: 'a@fund.example, b@fund.example' }, 'MAIL_FROM'],
    [{ SMTP_URL: 'smtp://h.example', MAIL_FROM: 'x@fund.example\nBcc: y@z.example' }, 'MAIL_FROM'],
    [{ SMTP_URL: 'smtp://h.example', MAIL_FROM: 'x@fund.example', SMTP_REQUIRE_TLS: 'yes' }, 'SMTP_REQUIRE_TLS'],
  ])('a bad mail setting %j stops naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
