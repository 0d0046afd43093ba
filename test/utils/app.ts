import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import type { Scope } from '../../src/common/auth/scopes';
import { AppConfig, loadConfig, Plan } from '../../src/config/config';
import { KeysService } from '../../src/keys/keys.service';

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
  const rows = await dbOf(app).query(`INSERT INTO funds (slug, name) VALUES ($1, $2) RETURNING id, slug`, [slug, `Fund ${slug}`]);
  return rows[0];
}

export interface TestKey {
  id: string;
  key: string;
  accountId: string;
}

export async function mintKey(app: TestApp, opts: { scopes: Scope[]; plan?: Plan; fund?: string | null; account?: string; expiresAt?: Date | null }): Promise<TestKey> {
  const minted = await app.get(KeysService).mint({
    accountName: opts.account ?? uniqueName('acct'),
    name: 'test key',
    fundSlug: opts.fund ?? null,
    scopes: opts.scopes,
    plan: opts.plan ?? 'free',
    expiresAt: opts.expiresAt ?? null,
  });
  return { id: minted.id, key: minted.key, accountId: minted.account.id };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A light-my-request call through the real Fastify instance (all hooks, guards and filters). */
export async function call(app: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {}) {
  const headers: Record<string, string> = { ...(opts.key ? bearer(opts.key) : {}), ...(opts.headers ?? {}) };
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.getHttpAdapter().getInstance().inject({ method, url, headers, payload, remoteAddress: opts.ip ?? '127.0.0.1' });
  let json: any = undefined;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: res.body, json };
}

/** A random documentation-range IPv4 address, so rate-limit tests never share a window. */
export function randomIp(): string {
  const b = randomBytes(3);
  return `198.${18 + (b[0] % 2)}.${b[1]}.${b[2]}`;
}
