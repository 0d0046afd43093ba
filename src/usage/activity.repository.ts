import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlRepository } from '../database/sql-repository';

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

@Injectable()
export class ActivityRepository extends SqlRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db);
  }

  /** One statement per batch: the rows travel as one JSON document (serialized natively) and are unpacked server-side. */
  async insertMany(batch: ActivityRecord[]): Promise<void> {
    if (batch.length === 0) return;
    await this.q.query(
      `INSERT INTO activity_log (occurred_at, request_id, key_id, account_id, user_id, fund_id, method, route, tool, status,
                                 duration_ms, client_ip, user_agent)
       SELECT "occurredAt", "requestId", "keyId", "accountId", "userId", "fundId", method, route, tool, status,
              round("durationMs"::numeric, 3), "clientIp", "userAgent"
         FROM json_to_recordset($1::json) AS r("occurredAt" timestamptz, "requestId" text, "keyId" uuid, "accountId" uuid,
              "userId" uuid, "fundId" uuid, method text, route text, tool text, status smallint, "durationMs" float8, "clientIp" text, "userAgent" text)`,
      [JSON.stringify(batch)],
    );
  }

  async usageByDay(
    who: UsageSubject,
    from: string,
    to: string,
  ): Promise<{ date: string; requests: number; errors: number }[]> {
    return this.q.query(
      `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS requests,
              count(*) FILTER (WHERE status >= 400)::int AS errors
         FROM activity_log
        WHERE ${subject(who)} AND occurred_at >= $3::date AND occurred_at < ($4::date + 1)
        GROUP BY 1 ORDER BY 1`,
      [who.keyIds, who.sessionUserId, from, to],
    );
  }

  async usageByRoute(
    who: UsageSubject,
    from: string,
    to: string,
  ): Promise<{ method: string; route: string; requests: number; errors: number }[]> {
    return this.q.query(
      `SELECT method, route, count(*)::int AS requests, count(*) FILTER (WHERE status >= 400)::int AS errors
         FROM activity_log
        WHERE ${subject(who)} AND occurred_at >= $3::date AND occurred_at < ($4::date + 1)
        GROUP BY method, route ORDER BY requests DESC, route, method`,
      [who.keyIds, who.sessionUserId, from, to],
    );
  }

  /** Keyset page, newest first, restricted to the given keys (and a person's console requests). */
  /** `only.route` matches the route template or the MCP tool name exactly; `only.status` the HTTP status. */
  async activityPage(
    who: UsageSubject,
    from: Date | null,
    to: Date | null,
    only: { route: string | null; status: number | null },
    after: { occurredAt: string; id: string } | null,
    limit: number,
  ): Promise<ActivityRow[]> {
    return this.q.query(
      `SELECT id::text, occurred_at, request_id, key_id, account_id, user_id, fund_id, method, route, tool, status,
              duration_ms, client_ip, user_agent
         FROM activity_log
        WHERE ${subject(who)}
          AND ($3::timestamptz IS NULL OR occurred_at >= $3)
          AND ($4::timestamptz IS NULL OR occurred_at < $4)
          AND ($5::timestamptz IS NULL OR (occurred_at, id) < ($5::timestamptz, $6::bigint))
          AND ($8::text IS NULL OR route = $8 OR tool = $8)
          AND ($9::int IS NULL OR status = $9)
        ORDER BY occurred_at DESC, id DESC
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
