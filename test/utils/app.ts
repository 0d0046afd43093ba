import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { createApp } from '../../src/app.factory';
import { PLANS, smallestRoleCovering, type Role, type Scope } from '../../src/common/auth/scopes';
import { hashPassword } from '../../src/identity/password';
import { UsersRepository } from '../../src/identity/users.repository';
import { displayParts, generateKey, hashKey } from '../../src/keys/key-format';
import { KeysRepository } from '../../src/keys/keys.repository';
import { type AppConfig, loadConfig, type Plan } from '../../src/config/config';
import { KeysService } from '../../src/keys/keys.service';
import { contractOf, contractProblems } from './contract';

export type TestApp = NestFastifyApplication;

/** Boots the real application (real PostgreSQL and Redis from test/setup/env.ts). */
export async function bootApp(overrides: Partial<AppConfig> = {}, env: Record<string, string> = {}): Promise<TestApp> {
  const config = { ...loadConfig({ ...process.env, ...env }), ...overrides };
  return createApp(config);
}

export function dbOf(app: TestApp): DataSource {
  return app.get<DataSource>(getDataSourceToken());
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A fresh fund row (books empty) for isolation tests; returns its id and slug. */
export async function createFund(app: TestApp, slug = uniqueName('fund')): Promise<{ id: string; slug: string }> {
  const rows = await dbOf(app).query(`INSERT INTO funds (slug, name) VALUES ($1, $2) RETURNING id, slug`, [
    slug,
    `Fund ${slug}`,
  ]);
  return rows[0];
}

export interface TestKey {
  id: string;
  key: string;
  accountId: string;
}

/**
 * A key as the tests need it, minted through the one minting function: the named account (or a fresh
 * one) is a person whose plan and role on the fund are raised to cover the request first. A fund-less
 * key with fund scopes cannot be minted any more; it is written directly (the legacy shape, which
 * authenticates with no effective scope) so tests can prove such keys reach nothing.
 */
export async function mintKey(
  app: TestApp,
  opts: { scopes: Scope[]; plan?: Plan; fund?: string | null; account?: string; expiresAt?: Date | null },
): Promise<TestKey> {
  const accountName = opts.account ?? uniqueName('acct');
  const plan = opts.plan ?? 'free';
  const fund = opts.fund ?? null;
  const person = await ensurePerson(app, accountName, plan, fund, fund ? smallestRoleCovering(opts.scopes) : null);
  const keys = app.get(KeysService);
  if (fund === null && opts.scopes.length > 0) {
    const key = generateKey();
    const id = await app.get(KeysRepository).insertKey({
      accountId: person.accountId,
      fundId: null,
      name: 'test key',
      keyHash: hashKey(key),
      ...displayParts(key),
      scopes: opts.scopes,
      plan,
      expiresAt: opts.expiresAt ?? null,
      createdByKeyId: null,
      createdByUserId: person.userId,
    });
    return { id, key, accountId: person.accountId };
  }
  const minted = await keys.mint(await keys.minterForPerson({ accountName }, fund), {
    name: 'test key',
    scopes: opts.scopes,
    plan,
    expiresAt: opts.expiresAt ?? null,
  });
  return { id: minted.id, key: minted.key, accountId: minted.account.id };
}

/** Creates (or reuses) a person named by an account; raises their plan and role on the fund (never lowers). */
export async function ensurePerson(
  app: TestApp,
  accountName: string,
  plan: Plan,
  fundSlug: string | null,
  role: Role | null,
  password: string | null = null,
): Promise<{ userId: string; accountId: string; email: string }> {
  const users = app.get(UsersRepository);
  return users.transaction(async (m) => {
    const [existing] = await m.query(
      `SELECT a.id AS "accountId", u.id AS "userId", u.email, u.plan FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.name = $1`,
      [accountName],
    );
    let person = existing;
    if (!person) {
      const email = accountName.includes('@')
        ? accountName.toLowerCase()
        : `${accountName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}@test.invalid`;
      const ids = await users.with(m).createPerson({
        email,
        displayName: accountName,
        passwordHash: password ? await hashPassword(password) : null,
        plan,
        accountName,
      });
      person = { ...ids, email, plan };
    } else if (PLANS.indexOf(plan) > PLANS.indexOf(person.plan)) {
      await users.with(m).setPlan(person.userId, plan);
    }
    if (fundSlug && role) {
      const [fund] = await m.query(`SELECT id FROM funds WHERE slug = $1`, [fundSlug]);
      if (!fund) throw new Error(`fund ${fundSlug} does not exist`);
      await users.with(m).grantAtLeast(fund.id, person.userId, role);
    }
    return { userId: person.userId, accountId: person.accountId, email: person.email };
  });
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/**
 * A parsed response body as the tests read it when they do not name its DTO. Every body `call()` returns
 * has already been validated against the OpenAPI document, and the suite reads bodies by member path
 * (~2,000 reads), so the default stays loose; name the DTO (`call<PositionsDto>(...)`) for a typed body.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- default body type of call(): contract-validated JSON read by member path (see above)
export type ResponseJson = any;

/** What `call()` answers: status, headers, raw body and the parsed body. */
export interface CallResult<T = ResponseJson> {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
  json: T;
}

/** A light-my-request call through the real Fastify instance (all hooks, guards and filters). */
export async function call<T = ResponseJson>(
  app: TestApp,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  url: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {},
): Promise<CallResult<NoInfer<T>>> {
  const headers: Record<string, string> = { ...(opts.key ? bearer(opts.key) : {}), ...(opts.headers ?? {}) };
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app
    .getHttpAdapter()
    .getInstance()
    .inject({ method, url, headers, payload, remoteAddress: opts.ip ?? '127.0.0.1' });
  // Every answer must be what the OpenAPI document says (status, governed headers, body shape).
  const contractErrors = contractProblems(await contractOf(app), method, url, {
    status: res.statusCode,
    headers: res.headers,
    body: res.body,
  });
  if (contractErrors.length > 0)
    throw new Error(`response does not match the OpenAPI document:\n${contractErrors.join('\n')}`);
  return { status: res.statusCode, headers: res.headers, body: res.body, json: parseJson(res.body) as T };
}

/** The body as JSON; undefined when empty or not JSON. */
export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many keys `keyId` has minted (every mint records its minting key): a refused mint must leave it
 * unchanged. Counting the whole table would race with the suites that mint in parallel.
 */
export async function keysMintedBy(app: TestApp, keyId: string): Promise<number> {
  const [row] = await dbOf(app).query('SELECT count(*)::int AS n FROM api_keys WHERE created_by_key_id = $1', [keyId]);
  return (row as { n: number }).n;
}

/**
 * A random address of the shared address space 100.64.0.0/10 (RFC 6598, 4 194 304 addresses), so
 * rate-limit tests never share a window: with the benchmarking range's 131 072 addresses, two of a
 * run's several hundred calls met in one daily calculator window about once in a hundred runs.
 */
export function randomIp(): string {
  const b = randomBytes(3);
  return `100.${64 + (b[0] % 64)}.${b[1]}.${b[2]}`;
}
