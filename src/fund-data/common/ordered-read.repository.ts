import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** Session settings of the ordered-read connections (PostgreSQL startup options). */
const ORDERED_SETTINGS = '-c enable_sort=off -c enable_bitmapscan=off -c jit=off';
const ORDERED_POOL_SIZE = 5;

/**
 * Runs reads whose only sensible plan is an ordered walk of an index under a LIMIT (keyset pages,
 * the first lines of a window). Sorts and bitmap scans are disabled: without fresh planner
 * statistics (right after a bulk import, or with autovacuum off) PostgreSQL otherwise reads every
 * matching row and sorts it — seconds instead of milliseconds, and a cost that grows with the data
 * instead of the page. JIT is off too: a node the settings penalise (the final sort of a page's 100
 * rows) lifts the plan's cost over jit_above_cost, and compiling it would take 150 ms for a
 * sub-millisecond read.
 *
 * The settings are those of a small pool of its own per database (startup options), so a read is
 * one statement and one round trip — no BEGIN / SET LOCAL / COMMIT around it — and the app's main
 * pool never sees them. Same database, statement, lock and client-side timeouts as the DataSource it reads.
 */
@Injectable()
export class OrderedReads implements OnModuleDestroy {
  private readonly pools = new Map<DataSource, Pool>();

  async read<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
    const result = await this.poolFor(db).query(sql, params);
    return result.rows as T[];
  }

  private poolFor(db: DataSource): Pool {
    let pool = this.pools.get(db);
    if (!pool) {
      // dataSourceOptions (src/database/data-source.ts): the URL, and the timeouts under `extra`
      const options = db.options as {
        url?: string;
        extra?: {
          statement_timeout?: number;
          lock_timeout?: number;
          connectionTimeoutMillis?: number;
          query_timeout?: number;
        };
      };
      const extra = options.extra ?? {};
      pool = new Pool({
        connectionString: options.url,
        max: ORDERED_POOL_SIZE,
        application_name: 'fundgate-ordered',
        statement_timeout: extra.statement_timeout,
        lock_timeout: extra.lock_timeout,
        connectionTimeoutMillis: extra.connectionTimeoutMillis,
        query_timeout: extra.query_timeout,
        options: ORDERED_SETTINGS,
        idleTimeoutMillis: 30_000,
      });
      pool.on('error', () => undefined); // an idle connection that fails is dropped; the next read opens another
      this.pools.set(db, pool);
    }
    return pool;
  }

  async onModuleDestroy(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.end()));
  }
}
