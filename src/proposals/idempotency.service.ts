import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { IdempotencyRepository } from './idempotency.repository';
import { FieldError, invalidParameter, ProblemCode, ProblemError } from '../common/errors/problem';

/** 1..255 visible ASCII characters. */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request that has held its key this long is presumed dead (crashed instance); a retry may take over. */
const STALE_LOCK_SECONDS = 60;
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export type IdempotencyClaim = { fresh: true; token: string } | { fresh: false; status: number; body: unknown };

interface StoredProblem {
  problem: { code: ProblemCode; detail: string; errors?: FieldError[] };
}

/** Canonical JSON (object keys sorted) so that member order never changes the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function requestFingerprint(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(canonicalJson(body)).digest('hex');
}

/**
 * Idempotency-Key records in PostgreSQL, unique per (API key, Idempotency-Key): the primary key
 * decides which of several concurrent requests (on any instance) runs; the others see the row.
 * A successful first request records its response in its own transaction (see `complete`).
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly rows: IdempotencyRepository) {}

  /** `field`: what the caller calls the key (the header over HTTP, the tool argument over MCP). */
  parseKey(raw: string | string[] | undefined, field = 'Idempotency-Key'): string | null {
    if (raw === undefined) return null;
    if (Array.isArray(raw) || !KEY_FORMAT.test(raw))
      throw invalidParameter(field, 'must be 1 to 255 visible ASCII characters');
    return raw;
  }

  async begin(
    keyId: string,
    key: string,
    route: string,
    fingerprint: string,
    field = 'Idempotency-Key',
  ): Promise<IdempotencyClaim> {
    for (let round = 0; round < 3; round++) {
      const token = randomUUID();
      if (
        await this.rows.claim({
          keyId,
          key,
          route,
          fingerprint,
          token,
          ttlHours: IDEMPOTENCY_TTL_HOURS,
          staleSeconds: STALE_LOCK_SECONDS,
        })
      ) {
        return { fresh: true, token };
      }
      const row = await this.rows.live(keyId, key);
      if (!row) continue; // expired or released between the two statements: claim again
      if (row.fingerprint !== fingerprint) {
        throw new ProblemError(
          'idempotency_key_reused',
          `this ${field} was already used with a different request; use a new key for a new request`,
          [{ field, message: 'already used with a different request' }],
        );
      }
      if (row.state === 'in_progress') {
        throw new ProblemError(
          'idempotency_in_progress',
          'the first request with this Idempotency-Key is still being processed; retry shortly',
          undefined,
          { 'Retry-After': '1' },
        );
      }
      return { fresh: false, status: row.response_status, body: row.response_body };
    }
    throw new ProblemError(
      'idempotency_in_progress',
      'the Idempotency-Key is changing hands; retry shortly',
      undefined,
      { 'Retry-After': '1' },
    );
  }

  /** Records the response in the transaction that produced it; refuses if the claim was lost. */
  async complete(
    m: EntityManager,
    keyId: string,
    key: string,
    token: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    const completed = await this.rows.with(m).complete(keyId, key, token, status, body);
    if (!completed)
      throw new ProblemError(
        'idempotency_in_progress',
        'the Idempotency-Key was taken over by another request; retry to get its answer',
      );
  }

  /** A refused request (4xx) is the answer for this key too: replays give the same problem. */
  async completeWithProblem(keyId: string, key: string, token: string, err: ProblemError): Promise<void> {
    const stored: StoredProblem = { problem: { code: err.code, detail: err.detail, errors: err.errors } };
    await this.rows.complete(keyId, key, token, err.status, stored);
  }

  /** An unexpected failure (5xx) releases the key so a retry can run. */
  async release(keyId: string, key: string, token: string): Promise<void> {
    await this.rows.release(keyId, key, token);
  }

  /** Replays a stored answer: the body, or the stored problem thrown again. */
  replay<T>(claim: { status: number; body: unknown }): T {
    const stored = claim.body as StoredProblem;
    if (claim.status >= 400 && stored?.problem) {
      throw new ProblemError(stored.problem.code, stored.problem.detail, stored.problem.errors, {
        [REPLAYED_HEADER]: 'true',
      });
    }
    return claim.body as T;
  }

  /** The scheduled expiry (BullMQ job in the worker role); lookups already ignore expired rows. */
  async purgeExpired(): Promise<number> {
    return this.rows.purgeExpired();
  }
}
