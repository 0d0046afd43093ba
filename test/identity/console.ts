import { call, ensurePerson, randomIp, type TestApp, uniqueName } from '../utils/app';
import type { Role } from '../../src/common/auth/scopes';

export const HOST = 'console.test';
export const ORIGIN = `http://${HOST}`;
export const PASSWORD = 'correct horse battery staple';
/**
 * This test file's browser address: every file of a run shares one Redis, so from 127.0.0.1 they
 * would all share the anonymous per-IP window (fund-minute, 120 a minute) that sign-in counts against.
 */
export const CONSOLE_IP = randomIp();

export interface Session {
  cookie: string;
  csrf: string;
  userId: string;
}

/** The session cookie (name=value) a response sets, or null. */
export function cookieFrom(headers: Record<string, unknown>): string | null {
  const raw = headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  return typeof first === 'string' ? first.split(';')[0] : null;
}

/** A console request as the browser makes it: cookie, same Origin, CSRF token, chosen fund. */
export function consoleCall(
  app: TestApp,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  s: Session | null,
  opts: { body?: unknown; fund?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { host: HOST, origin: ORIGIN };
  if (s) {
    headers.cookie = s.cookie;
    headers['x-csrf-token'] = s.csrf;
  }
  if (opts.fund) headers['x-fundgate-fund'] = opts.fund;
  return call(app, method, url, { body: opts.body, ip: CONSOLE_IP, headers: { ...headers, ...(opts.headers ?? {}) } });
}

export async function signIn(
  app: TestApp,
  email: string,
  password = PASSWORD,
  extra: Record<string, unknown> = {},
): Promise<Session> {
  const res = await consoleCall(app, 'POST', '/api/v1/console/sign-in', null, { body: { email, password, ...extra } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  return { cookie: cookieFrom(res.headers)!, csrf: res.json.csrfToken, userId: res.json.user.id };
}

/** A person with a password and (optionally) a role on a fund, signed in. */
export async function person(
  app: TestApp,
  fund: string | null,
  role: Role | null,
  plan: 'free' | 'developer' | 'platform' = 'developer',
) {
  const email = `${uniqueName('p')}@example.com`;
  const ids = await ensurePerson(app, email, plan, fund, role, PASSWORD);
  const session = await signIn(app, email);
  return { ...ids, email, session };
}
