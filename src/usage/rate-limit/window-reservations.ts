import type { MaybePromise } from '../../common/async/maybe-promise';

/**
 * Per-process reservations of a shared Redis rate-limit window (issue 17 item 1).
 *
 * A caller that is hot on this instance (≥ HOT_PER_SECOND requests in the previous second) and far
 * from its limit takes slots from Redis in batches: one INCRBY n reserves n slots of the shared
 * window, which this process then hands out without a Redis round trip. Every admitted request
 * holds a slot counted in Redis, so the instances together never admit more than the limit
 * (no over-admission). The price is bounded under-admission: slots reserved and not used by the
 * end of the window are lost, at most BATCH_MAX − 1 per instance and caller, and a batch is never
 * more than 1/HEADROOM_SHARE of what is left in the window, so a caller close to its limit is
 * counted one request at a time, exactly as before. Callers that are not hot are always counted
 * one at a time, so small plans and the tests see exact counts and exact `RateLimit` headers.
 * For a hot caller, a window known to be full answers "blocked" locally until it ends (counts
 * only grow within a window), so a flood of 429s costs no Redis round trips either.
 */
export const BATCH_MAX = 16;
export const HOT_PER_SECOND = 200;
export const HEADROOM_SHARE = 64;
const MAX_ENTRIES = 50_000;

interface Entry {
  window: number;
  /** Highest Redis total seen in this window (ours and every other instance's reservations). */
  total: number;
  /** Slots reserved and not yet handed out. */
  left: number;
  exhausted: boolean;
  pending: Promise<void> | null;
  second: number;
  hitsThisSecond: number;
  hitsLastSecond: number;
}

export interface Admission {
  admitted: boolean;
  /** Requests counted in the window as far as this instance knows (for the RateLimit header). */
  used: number;
}

/** INCRBY on the shared window: answers the Redis total after adding `n`. */
export type Reserve = (n: number) => Promise<number>;

/** A window known to be full refuses; a reserved slot admits; otherwise Redis must be asked. */
function takeLocal(e: Entry): Admission | null {
  if (e.exhausted) return { admitted: false, used: e.total };
  if (e.left === 0) return null;
  e.left--;
  return { admitted: true, used: e.total - e.left };
}

export class WindowReservations {
  private readonly entries = new Map<string, Entry>();

  /**
   * One request of `caller` in window number `window` of a policy with `limit` requests. Answers
   * synchronously when this process can decide alone (a reserved slot, or a window known to be
   * full), so the hot path costs no promise; otherwise a promise of the answer.
   */
  admit(caller: string, window: number, limit: number, now: number, reserve: Reserve): MaybePromise<Admission> {
    const e = this.entry(caller, window, now);
    return takeLocal(e) ?? this.admitRemote(e, limit, reserve);
  }

  private async admitRemote(e: Entry, limit: number, reserve: Reserve): Promise<Admission> {
    const hot = e.hitsLastSecond >= HOT_PER_SECOND || e.hitsThisSecond >= HOT_PER_SECOND;
    while (hot) {
      if (e.total >= limit) {
        e.exhausted = true; // every slot of the window is counted in Redis: counts only grow until it ends
        return { admitted: false, used: e.total };
      }
      if (!e.pending) e.pending = this.refill(e, limit, reserve).finally(() => (e.pending = null));
      await e.pending; // concurrent requests share one reservation round trip
      const local = takeLocal(e);
      if (local) return local;
    }
    // counted one at a time: exactly one INCR per request, as without reservations
    const total = await reserve(1);
    e.total = Math.max(e.total, total);
    return { admitted: total <= limit, used: total };
  }

  private async refill(e: Entry, limit: number, reserve: Reserve): Promise<void> {
    const n = Math.max(1, Math.min(BATCH_MAX, Math.floor((limit - e.total) / HEADROOM_SHARE)));
    const total = await reserve(n);
    const usable = Math.max(0, Math.min(n, limit - (total - n)));
    e.total = Math.max(e.total, total);
    e.left += usable;
  }

  private entry(caller: string, window: number, now: number): Entry {
    const second = Math.floor(now / 1000);
    let e = this.entries.get(caller);
    if (!e || e.window !== window) {
      if (!e && this.entries.size >= MAX_ENTRIES) this.entries.clear(); // forgetting costs only unused slots
      e = {
        window,
        total: 0,
        left: 0,
        exhausted: false,
        pending: null,
        second,
        hitsThisSecond: e?.hitsThisSecond ?? 0,
        hitsLastSecond: e?.hitsLastSecond ?? 0,
      };
      this.entries.set(caller, e);
    }
    if (e.second !== second) {
      e.hitsLastSecond = e.second === second - 1 ? e.hitsThisSecond : 0;
      e.hitsThisSecond = 0;
      e.second = second;
    }
    e.hitsThisSecond++;
    return e;
  }
}
