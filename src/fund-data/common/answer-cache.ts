import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { REDIS } from '../../redis/redis.module';
import { JournalRepository } from '../../fund/ledger/journal.repository';
import { ReadReplica } from '../../database/read-replica';
import { markShared } from '../../common/http/shared-json';

/**
 * A short name for the database the answers come from (host, port and database name; never the
 * credentials), so two databases sharing one Redis index never read each other's answers.
 */
export function cacheNamespace(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  return createHash('sha256')
    .update(`${u.hostname}:${u.port || '5432'}/${decodeURIComponent(u.pathname)}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * Two honest caches for read answers:
 * - `live`: answers computed from live holdings and prices, kept in process for at most
 *   `liveCacheSeconds` (so never staler than the configured bound on any instance). Concurrent
 *   misses for the same key share one computation.
 * - `immutable`: answers derived only from complete NAV runs (immutable once complete). The key
 *   must name every run id the answer depends on; a new or superseding run changes the key. The
 *   Redis key also carries the database namespace and the fund's books generation (bumped in the
 *   same transaction as every purge, NAV run batch and journal entry), so a re-seed that
 *   reproduces the same run ids and entry numbers never hits the old books' answers.
 *   Stored in Redis; Redis being unavailable only costs a recomputation.
 */
@Injectable()
export class AnswerCache {
  private readonly logger = new Logger('AnswerCache');
  private readonly live = new Map<string, { expires: number; value: Promise<unknown> }>();
  private readonly ttlMs: number;
  private readonly namespace: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly db: ReadReplica,
    private readonly journal: JournalRepository,
  ) {
    this.ttlMs = config.liveCacheSeconds * 1000;
    this.namespace = cacheNamespace(config.databaseUrl);
  }

  liveAnswer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const now = Date.now();
    const hit = this.live.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    const value = compute().then(markShared); // the same object for every request until it expires
    this.live.set(key, { expires: now + this.ttlMs, value });
    value.catch(() => this.live.delete(key)); // never cache a failure
    if (this.live.size > 10_000) this.sweep(now);
    return value;
  }

  immutableAnswer<T>(fundId: string, key: string, compute: () => Promise<T>): Promise<T> {
    // one source (replica within its lag bound, or the primary) for the generation and the rows,
    // so an answer is never cached under a generation newer than the rows it was computed from
    return this.db.pinned(() => this.cachedAnswer(fundId, key, compute));
  }

  private async cachedAnswer<T>(fundId: string, key: string, compute: () => Promise<T>): Promise<T> {
    const generation = await this.journal.with(this.db).generation(fundId); // on the pinned read source
    const redisKey = `fundgate:${this.namespace}:fund-data:${fundId}:g${generation}:${key}`;
    if (this.redis.status !== 'ready') return compute(); // Redis away: recompute rather than wait for the command timeout
    try {
      const cached = await this.redis.get(redisKey);
      if (cached !== null) return JSON.parse(cached) as T;
    } catch (err) {
      this.logger.warn(`cache read failed (${(err as Error).message}); computing`);
    }
    const value = await compute();
    this.redis
      .set(redisKey, JSON.stringify(value), 'EX', 86_400)
      .catch((err: Error) => this.logger.warn(`cache write failed: ${err.message}`));
    return value;
  }

  private sweep(now: number): void {
    for (const [k, v] of this.live) if (v.expires <= now) this.live.delete(k);
  }
}
