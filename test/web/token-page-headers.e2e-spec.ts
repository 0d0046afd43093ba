import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { bootApp, call, type TestApp } from '../utils/app';

/**
 * Console pages whose path holds a secret token (a password reset link, an invitation link): the
 * browser must send no Referer from them (not even to our own API, whose requests a proxy may log with
 * it) and keep no copy of them; every other page keeps the pages' same-origin policy.
 */
describe('console pages that hold a token in their path (headers)', () => {
  let app: TestApp;
  let dist: string;
  const token = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'fundgate-web-'));
    mkdirSync(join(dist, 'console'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>landing</title>');
    writeFileSync(join(dist, 'console', 'index.html'), '<!doctype html><title>console</title>');
    app = await bootApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([`/console/reset-password/${token}`, `/console/invite/${token}`, `/console/invitations/${token}`])(
    '%s: Referrer-Policy no-referrer, Cache-Control no-store, the pages’ other headers',
    async (path) => {
      const res = await call(app, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    },
  );

  it.each(['/console', '/console/sign-in', '/console/forgot-password', '/console/keys', '/'])(
    '%s keeps Referrer-Policy same-origin',
    async (path) => {
      const res = await call(app, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );
});
