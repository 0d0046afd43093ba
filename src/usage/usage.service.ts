import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ProblemError, invalidParameter } from '../common/errors/problem';
import { CursorCodec } from '../common/pagination/cursor';
import { addDays, daysBetween, todayUtc } from '../common/validation/calendar-date';
import type { PolicyName } from '../config/config';
import { KeysService } from '../keys/keys.service';
import { sanitizeForDisplay } from '../common/validation/safe-text';
import { ActivityLogWriter } from './activity-log.writer';
import { ActivityRepository, ConnectedAppKey, UsageSubject } from './activity.repository';
import type { ActivityAppsDto, ActivityPageDto, ActivityQueryDto, UsageDto } from './dto/usage.dto';
import { RateLimitService, RateWindow } from './rate-limit/rate-limit.service';

/** User agents are client-chosen text: capped and stripped of control and bidi characters when shown. */
export const USER_AGENT_MAX = 200;
/** oauth_clients.client_name holds at most 200 characters. */
const APP_NAME_MAX = 200;
const POLICIES: PolicyName[] = ['fund-minute', 'propose-minute', 'calc-daily'];

function windowView(w: RateWindow) {
  return {
    policy: w.policy,
    limit: w.limit,
    used: w.used,
    remaining: w.remaining,
    reset: w.reset,
    windowSeconds: w.windowSeconds,
  };
}

@Injectable()
export class UsageService {
  constructor(
    private readonly activity: ActivityRepository,
    private readonly writer: ActivityLogWriter,
    private readonly limits: RateLimitService,
    private readonly keys: KeysService,
    private readonly cursors: CursorCodec,
  ) {}

  async usage(principal: Principal, ip: string, fromQ?: string, toQ?: string): Promise<UsageDto> {
    const to = toQ ?? todayUtc();
    const from = fromQ ?? addDays(to, -29);
    if (daysBetween(from, to) < 0) throw invalidParameter('from', 'must not be after to');
    if (daysBetween(from, to) > 366)
      throw new ProblemError('window_too_large', 'from..to spans more than 366 days', [
        { field: 'to', message: 'at most 366 days after from' },
      ]);
    // This instance's buffered rows are written first so the answer includes the requests just made.
    await this.writer.flush();
    const who = await this.subjectOf(principal, false);
    const [days, routes, windows] = await Promise.all([
      this.activity.usageByDay(who, from, to),
      this.activity.usageByRoute(who, from, to),
      // calculators take keys or nothing, never a session: a session's calculator day is its
      // address's keyless one (what the free web tools in this browser count against)
      Promise.all(
        POLICIES.map((p) => this.limits.peek(p, p === 'calc-daily' && !principal.keyId ? undefined : principal, ip)),
      ),
    ]);
    const calc = windows[POLICIES.indexOf('calc-daily')];
    return {
      keyId: principal.keyId,
      from,
      to,
      totalRequests: days.reduce((n, d) => n + d.requests, 0),
      totalErrors: days.reduce((n, d) => n + d.errors, 0),
      days,
      routes,
      rateLimits: windows.filter((w) => w.policy !== 'calc-daily').map(windowView),
      calculatorDaily: windowView(calc),
    };
  }

  /**
   * Whose requests a caller sees: a key, itself (usage) or the keys it may list (activity); a console
   * session, the person's own keys on the fund (usage) or the keys it may list (activity), plus the
   * person's own console requests. Activity also covers the OAuth apps connected to the fund — every
   * person's for keys:manage, else the caller's own — whose keys the key listings leave out.
   */
  private async subjectOf(caller: Principal, manageable: boolean): Promise<UsageSubject> {
    if (caller.keyId && !manageable) return { keyIds: [caller.keyId], sessionUserId: null };
    const [keys, apps] = await Promise.all([
      manageable ? this.keys.listVisibleTo(caller) : this.keys.ownKeys(caller),
      manageable ? this.appsVisibleTo(caller) : [],
    ]);
    const keyIds = [...new Set([...keys.map((k) => k.id), ...apps.map((a) => a.key_id)])];
    if (caller.keyId && !keyIds.includes(caller.keyId)) keyIds.push(caller.keyId);
    return { keyIds, sessionUserId: caller.keyId ? null : caller.userId };
  }

  /** The connected apps whose activity the caller may see: the fund's as for keys (KeysService), else the caller's own. */
  private appsVisibleTo(caller: Principal): Promise<ConnectedAppKey[]> {
    if (this.keys.seesFundKeys(caller)) return this.activity.connectedApps(caller.fund.id, null);
    if (!caller.fund || !caller.userId) return Promise.resolve([]);
    return this.activity.connectedApps(caller.fund.id, caller.userId);
  }

  /** The connected apps the activity listing can be filtered by (their `keyId`), as `activityPage` sees them. */
  async activityApps(caller: Principal): Promise<ActivityAppsDto> {
    const apps = await this.appsVisibleTo(caller);
    return {
      items: apps.map((a) => ({
        keyId: a.key_id,
        name: sanitizeForDisplay(a.client_name, APP_NAME_MAX),
        userId: a.user_id,
        connectedAt: a.created_at.toISOString(),
        disconnectedAt: a.revoked_at?.toISOString() ?? null,
      })),
    };
  }

  async activityPage(caller: Principal, q: ActivityQueryDto): Promise<ActivityPageDto> {
    const all = await this.subjectOf(caller, true);
    if (q.keyId && !all.keyIds.includes(q.keyId)) throw new ProblemError('not_found', `key ${q.keyId} was not found`);
    if (q.from && q.to && daysBetween(q.from, q.to) < 0) throw invalidParameter('from', 'must not be after to');
    const limit = q.limit ?? 100;
    // Bound to the caller's fund and account and to every filter: another listing's cursor is a 400.
    const filters = JSON.stringify([q.keyId ?? null, q.route ?? null, q.status ?? null, q.from ?? null, q.to ?? null]);
    const cursorKind = `activity:${caller.fund?.id ?? '-'}:${caller.accountId}:${filters}`;
    const after = q.cursor
      ? this.cursors.decode(cursorKind, q.cursor, { occurredAt: 'timestamp', id: 'bigint' })
      : null;
    await this.writer.flush();
    const rows = await this.activity.activityPage(
      q.keyId ? { keyIds: [q.keyId], sessionUserId: null } : all,
      q.from ? new Date(`${q.from}T00:00:00Z`) : null,
      q.to ? new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000) : null,
      { route: q.route ?? null, status: q.status ?? null },
      after,
      limit + 1,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        id: r.id,
        occurredAt: r.occurred_at.toISOString(),
        requestId: r.request_id,
        keyId: r.key_id,
        app: r.app === null ? null : sanitizeForDisplay(r.app, APP_NAME_MAX),
        accountId: r.account_id,
        userId: r.user_id,
        method: r.method,
        route: r.route,
        tool: r.tool,
        status: r.status,
        durationMs: r.duration_ms,
        clientIp: r.client_ip,
        userAgent: r.user_agent === null ? null : sanitizeForDisplay(r.user_agent, USER_AGENT_MAX),
      })),
      nextCursor:
        hasMore && last ? this.cursors.encode(cursorKind, { occurredAt: last.occurred_key, id: last.id }) : null,
      hasMore,
    };
  }
}
