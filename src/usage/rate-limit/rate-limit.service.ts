import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig, Plan, PolicyName } from '../../config/config';
import type { Principal } from '../../common/auth/principal';
import { andThen, type MaybePromise } from '../../common/async/maybe-promise';
import { clientBucket } from '../../common/http/client-bucket';
import { REDIS } from '../../redis/redis.module';
import { withRedis } from '../../redis/redis-state';
import type { RedisThrottlerStorage } from './redis-throttler.storage';
import { type Admission, WindowReservations } from './window-reservations';

export const POLICY_WINDOW_SECONDS: Record<PolicyName, number> = {
  'calc-daily': 86_400,
  'fund-minute': 60,
  'propose-minute': 60,
  'mcp-minute': 60,
};

export interface RateWindow {
  policy: PolicyName;
  limit: number;
  used: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  windowSeconds: number;
  blocked: boolean;
}

/** The shared counter's key of one caller's window (built only when Redis is asked). */
const windowKey = (policy: PolicyName, who: string, index: number) => `rl:${policy}:${who}:${index}`;

/**
 * Fixed windows aligned to the clock (UTC minute / UTC day), counted in Redis through the
 * @nestjs/throttler storage so every instance shares them. A raised limit still counts.
 */
@Injectable()
export class RateLimitService {
  private readonly reservations = new WindowReservations();

  constructor(
    @InjectThrottlerStorage() private readonly storage: RedisThrottlerStorage,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  limitFor(policy: PolicyName, plan: Plan): number {
    return this.config.rateLimits[policy][plan];
  }

  private window(policy: PolicyName, principal: Principal | undefined, ip: string, now: number) {
    const windowMs = POLICY_WINDOW_SECONDS[policy] * 1000;
    const index = Math.floor(now / windowMs);
    const ttlMs = (index + 1) * windowMs - now;
    let who: string;
    if (!principal) who = `ip:${clientBucket(ip)}`;
    else if (!principal.keyId)
      who = `u:${principal.userId}`; // a console session: per person
    else if (principal.isDemo)
      who = `k:${principal.keyId}:ip:${clientBucket(ip)}`; // the shared demo key: per key and address (IPv6: /64)
    else who = `k:${principal.keyId}`;
    return { who, index, ttlMs, plan: principal?.plan ?? 'free' };
  }

  /**
   * Counts one request. A caller hot on this instance takes slots from small batches reserved in
   * Redis (WindowReservations: never over the limit across instances, bounded under-admission);
   * when a reserved slot (or a window known to be full) decides, the answer is synchronous.
   */
  hit(policy: PolicyName, principal: Principal | undefined, ip: string): MaybePromise<RateWindow> {
    const now = Date.now();
    const w = this.window(policy, principal, ip, now);
    const limit = this.limitFor(policy, w.plan);
    // Redis away: a 503 with Retry-After at once (never an unlimited pass, never a 2 s hang).
    const a = this.reservations.admit(`${policy}:${w.who}`, w.index, limit, now, (n) =>
      withRedis(this.redis, 'rate limiting', () =>
        this.storage.incrementBy(windowKey(policy, w.who, w.index), policy, n, w.ttlMs),
      ),
    );
    const answer = (x: Admission): RateWindow => ({
      policy,
      limit,
      used: x.used,
      remaining: x.admitted ? Math.max(0, limit - x.used) : 0,
      reset: Math.max(1, Math.ceil(w.ttlMs / 1000)),
      windowSeconds: POLICY_WINDOW_SECONDS[policy],
      blocked: !x.admitted,
    });
    return andThen(a, answer);
  }

  /** The current window without counting a request (GET /usage). */
  async peek(policy: PolicyName, principal: Principal | undefined, ip: string): Promise<RateWindow> {
    const w = this.window(policy, principal, ip, Date.now());
    const limit = this.limitFor(policy, w.plan);
    // The throttler storage names its counter `{key:policy}:hits`.
    const raw = await withRedis(this.redis, 'rate limiting', () =>
      this.redis.get(`{${windowKey(policy, w.who, w.index)}:${policy}}:hits`),
    );
    const used = raw === null ? 0 : Number(raw);
    return {
      policy,
      limit,
      used,
      remaining: Math.max(0, limit - used),
      reset: Math.max(1, Math.ceil(w.ttlMs / 1000)),
      windowSeconds: POLICY_WINDOW_SECONDS[policy],
      blocked: used > limit,
    };
  }
}

export function rateLimitHeaders(w: RateWindow): Record<string, string> {
  return {
    'RateLimit-Policy': `"${w.policy}";q=${w.limit};w=${w.windowSeconds}`,
    RateLimit: `"${w.policy}";r=${w.remaining};t=${w.reset}`,
  };
}
