import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { type Queryable } from './queryable';

/** How often the replica's progress is compared with the primary's WAL position. */
export const REPLICA_PROBE_MS = 250;

const PRIMARY_LSN = `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS lsn`;
const REPLAYED_LSN = `SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::text AS lsn, pg_is_in_recovery() AS standby`;

/**
 * DATABASE_READ_URL: read routes whose answer may lag query a PostgreSQL streaming replica.
 *
 * The lag bound is exact, not an estimate: every probe notes the primary's WAL position with the
 * time it was read; once the replica has replayed past a noted position, everything committed on
 * the primary before that time is visible there (`freshAsOf`). A read goes to the replica only
 * while `now − freshAsOf ≤ READ_REPLICA_MAX_LAG_MS`; otherwise (replay behind, paused, replica
 * down or not a standby) it goes to the primary. So an answer read from the replica misses at most
 * what the primary committed in the last READ_REPLICA_MAX_LAG_MS. Without DATABASE_READ_URL every
 * read goes to the primary.
 */
@Injectable()
export class ReadReplica implements Queryable, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ReadReplica');
  private readonly replica: DataSource | null;
  private readonly marks: { at: number; lsn: bigint }[] = [];
  private freshAsOf = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private probing = false;
  private failing = false;
  private readonly pin = new AsyncLocalStorage<DataSource>();
  readonly reads = { replica: 0, primary: 0 };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
  ) {
    this.replica = config.databaseReadUrl
      ? new DataSource({
          ...dataSourceOptions(config.databaseReadUrl, 10, {
            statementTimeoutMs: config.dbStatementTimeoutMs,
            lockTimeoutMs: config.dbLockTimeoutMs,
          }),
          migrations: [],
        })
      : null;
  }

  async onModuleInit(): Promise<void> {
    if (!this.replica) return;
    await this.probe();
    this.timer = setInterval(() => void this.probe(), REPLICA_PROBE_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.replica?.isInitialized) await this.replica.destroy();
  }

  /** Milliseconds of primary commits the replica may be missing right now (Infinity: unusable). */
  lagMs(): number {
    return Date.now() - this.freshAsOf;
  }

  /** The source for one read that may lag: the replica while it is within the bound, else the primary. */
  dataSource(): DataSource {
    const pinned = this.pin.getStore();
    if (pinned) return pinned;
    if (this.replica?.isInitialized && this.lagMs() <= this.config.readReplicaMaxLagMs) {
      this.reads.replica++;
      return this.replica;
    }
    this.reads.primary++;
    return this.primary;
  }

  /**
   * Runs `read` with every query on one source, so rows and the generation they are cached under
   * agree. Without a replica every query is on the primary already: no pin, so the process never
   * turns on the async hooks an AsyncLocalStorage needs on Node 20 (a cost on every promise).
   */
  pinned<T>(read: () => Promise<T>): Promise<T> {
    if (!this.replica) return read();
    return this.pin.getStore() ? read() : this.pin.run(this.dataSource(), read);
  }

  query(sql: string, parameters?: unknown[]): ReturnType<Queryable['query']> {
    return this.dataSource().query(sql, parameters);
  }

  /** Notes the primary's position, then moves `freshAsOf` to the newest noted position the replica has replayed. */
  async probe(): Promise<void> {
    if (!this.replica || this.probing) return;
    this.probing = true;
    try {
      if (!this.replica.isInitialized) await this.replica.initialize();
      const at = Date.now();
      const [p] = await this.primary.query<{ lsn: string }[]>(PRIMARY_LSN);
      this.marks.push({ at, lsn: BigInt(p.lsn) });
      const [r] = await this.replica.query<{ lsn: string | null; standby: boolean }[]>(REPLAYED_LSN);
      const replayed = r.standby && r.lsn !== null ? BigInt(r.lsn) : -1n;
      while (this.marks.length > 0 && this.marks[0].lsn <= replayed) this.freshAsOf = this.marks.shift()!.at;
      if (this.marks.length > 1000) this.marks.splice(0, this.marks.length - 1000);
      if (this.failing) this.logger.log('replica probe answers again');
      this.failing = false;
    } catch (err) {
      if (!this.failing)
        this.logger.warn(`replica probe failed (${(err as Error).message}); reads go to the primary until it answers`);
      this.failing = true;
    } finally {
      this.probing = false;
    }
  }
}
