import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { SqlRepository } from '../database/sql-repository';
import { utcMicros } from '../database/sql-fragments';

export interface ActivityRecord {
  occurredAt: Date;
  requestId: string;
  keyId: string | null;
  accountId: string | null;
  /** The person behind the request (key owner or console session); null for service identities. */
  userId: string | null;
  fundId: string | null;
  method: string;
  route: string;
  tool: string | null;
  status: number;
  durationMs: number;
  clientIp: string | null;
  userAgent: string | null;
}

export interface ActivityRow {
  id: string;
  occurred_at: Date;
  /** occurred_at as its exact cursor key (utcMicros). */
  occurred_key: string;
  request_id: string;
  key_id: string | null;
  account_id: string | null;
  user_id: string | null;
  fund_id: string | null;
  method: string;
  route: string;
  tool: string | null;
  status: number;
  duration_ms: string;
  client_ip: string | null;
  user_agent: string | null;
  /** The connected OAuth app's name when its key made the request. */
  app: string | null;
}

const COPY_COLUMNS =
  'occurred_at, request_id, key_id, account_id, user_id, fund_id, method, route, tool, status, duration_ms, client_ip, user_agent';
const COPY_SPECIAL = /[\\\t\n\r\0]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' };

/** A text value in COPY's text format: `\N` is NULL; backslash, tab, newline and CR escaped; NUL (which PostgreSQL text cannot hold) dropped. */
function copyText(s: string | null): string {
  if (s === null) return '\\N';
  return s.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]);
}

/** One activity row as a line of COPY's text format, columns in `COPY_COLUMNS` order. */
export function activityCopyLine(r: ActivityRecord): string {
  return (
    `${r.occurredAt.toISOString()}\t${copyText(r.requestId)}\t${copyText(r.keyId)}\t${copyText(r.accountId)}\t` +
    `${copyText(r.userId)}\t${copyText(r.fundId)}\t${copyText(r.method)}\t${copyText(r.route)}\t${copyText(r.tool)}\t` +
    `${r.status}\t${r.durationMs.toFixed(3)}\t${copyText(r.clientIp)}\t${copyText(r.userAgent)}\n`
  );
}

/** A connected OAuth app as the activity log knows it: the key its requests are made with. */
export interface ConnectedAppKey {
  key_id: string;
  client_name: string;
  user_id: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** Whose requests: these keys, plus (when set) the console-session requests of this person. */
export interface UsageSubject {
  keyIds: string[];
  sessionUserId: string | null;
}

/** Two shapes so a key's usage keeps its plain index walk on (key_id, occurred_at). */
const subject = (who: UsageSubject) =>
  who.sessionUserId === null
    ? `(key_id = ANY($1::uuid[]) AND $2::uuid IS NULL)`
    : `(key_id = ANY($1::uuid[]) OR (key_id IS NULL AND user_id = $2::uuid))`;

/**
 * Requests and errors of a window ($3..$4, whole UTC days) grouped by `groups`: the rows still in
 * activity_log and the daily counts the retention sweep made of older ones, in ONE statement — one
 * snapshot, in which each batch the sweep moves is either still rows or already counts, never both
 * nor neither — so /usage answers the same before, during and after a sweep.
 */
function usageCounts(who: UsageSubject, cols: { groups: string; raw: string; daily: string; order: string }): string {
  return `SELECT ${cols.groups}, sum(requests)::int AS requests, sum(errors)::int AS errors
            FROM (SELECT ${cols.raw}, count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors
                    FROM activity_log
                   WHERE ${subject(who)} AND occurred_at >= $3::date AND occurred_at < ($4::date + 1)
                   GROUP BY ${cols.groups}
                  UNION ALL
                  SELECT ${cols.daily}, requests, errors
                    FROM activity_daily
                   WHERE ${subject(who)} AND day >= $3::date AND day <= $4::date) counted
           GROUP BY ${cols.groups} ORDER BY ${cols.order}`;
}

@Injectable()
export class ActivityRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  /**
   * The OAuth apps connected to a fund — every person's (`userId` null) or one person's — with the
   * keys behind them, disconnected or not: an app's requests go on being its activity after it is
   * disconnected. Oldest first.
   */
  connectedApps(fundId: string, userId: string | null): Promise<ConnectedAppKey[]> {
    return this.q.query(
      `SELECT g.key_id, c.client_name, g.user_id, g.created_at, g.revoked_at
         FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
        WHERE g.fund_id = $1 AND ($2::uuid IS NULL OR g.user_id = $2::uuid)
        ORDER BY g.created_at, g.id`,
      [fundId, userId],
    );
  }

  /**
   * One COPY per batch of rows already in COPY's text format (`activityCopyLine`): PostgreSQL spends
   * about a third less on it than on unpacking the same rows from a JSON document, and no statement
   * or document is built on the event loop at flush time.
   */
  async copyLines(lines: string[]): Promise<void> {
    if (lines.length === 0) return;
    const runner = this.db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      const stream = client.query(copyFrom(`COPY activity_log (${COPY_COLUMNS}) FROM STDIN`));
      stream.end(lines.join(''));
      await finished(stream);
    } finally {
      await runner.release();
    }
  }

  async usageByDay(
    who: UsageSubject,
    from: string,
    to: string,
  ): Promise<{ date: string; requests: number; errors: number }[]> {
    return this.q.query(
      usageCounts(who, {
        groups: 'date',
        raw: `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date`,
        daily: `to_char(day, 'YYYY-MM-DD') AS date`,
        order: 'date',
      }),
      [who.keyIds, who.sessionUserId, from, to],
    );
  }

  async usageByRoute(
    who: UsageSubject,
    from: string,
    to: string,
  ): Promise<{ method: string; route: string; requests: number; errors: number }[]> {
    return this.q.query(
      usageCounts(who, {
        groups: 'method, route',
        raw: 'method, route',
        daily: 'method, route',
        order: 'requests DESC, route, method',
      }),
      [who.keyIds, who.sessionUserId, from, to],
    );
  }

  /** Keyset page, newest first, restricted to the given keys (and a person's console requests). */
  /**
   * `only.route` matches the route template or the MCP tool name exactly; `only.status` the HTTP
   * status. Ordered by the bigint `activity_log.id`: a bare `id` would name the `id::text` output
   * column, sorting "100000" before "99999" against the cursor's numeric comparison (and no index
   * walk could serve the order).
   */
  async activityPage(
    who: UsageSubject,
    from: Date | null,
    to: Date | null,
    only: { route: string | null; status: number | null },
    after: { occurredAt: string; id: string } | null,
    limit: number,
  ): Promise<ActivityRow[]> {
    return this.q.query(
      `SELECT id::text, occurred_at, ${utcMicros('occurred_at')} AS occurred_key, request_id, key_id, account_id, user_id,
              fund_id, method, route, tool, status, duration_ms, client_ip, user_agent,
              (SELECT c.client_name FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
                WHERE g.key_id = activity_log.key_id) AS app
         FROM activity_log
        WHERE ${subject(who)}
          AND ($3::timestamptz IS NULL OR occurred_at >= $3)
          AND ($4::timestamptz IS NULL OR occurred_at < $4)
          AND ($5::timestamptz IS NULL OR (occurred_at, id) < ($5::timestamptz, $6::bigint))
          AND ($8::text IS NULL OR route = $8 OR tool = $8)
          AND ($9::int IS NULL OR status = $9)
        ORDER BY occurred_at DESC, activity_log.id DESC
        LIMIT $7`,
      [
        who.keyIds,
        who.sessionUserId,
        from,
        to,
        after?.occurredAt ?? null,
        after?.id ?? null,
        limit,
        only.route,
        only.status,
      ],
    );
  }
}
