import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';
import { isConnectionError } from '../common/startup/reachability';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { type Queryable } from './queryable';

/** How often the replica's progress is compared with the primary's WAL position. */
export const REPLICA_PROBE_MS = 250;

// The insert position, not the write position: with synchronous_commit = off a commit returns
// before its WAL is written, so a transaction committed before the probe may lie past
// pg_current_wal_lsn() and the bound would not hold for it.
const PRIMARY_LSN = `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text AS lsn`;
const REPLAYED_LSN = `SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::text AS lsn, pg_is_in_recovery() AS standby`;

/** How long opening a replica connection may take before the read goes to the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 2000;

/**
 * A failure of the replica as a server, which the primary would not share: connection errors
 * (refused, reset, timed out, terminated), SQLSTATE class 08, 57P01-57P03 (shutting down,
 * starting), and 40001, which a hot standby raises when it cancels a query that conflicts with
 * replay. A statement timeout or a bad query is not one: the primary would do the same.
 */
/**
 * The replica pool had no free connection within the connect timeout (pg-pool's connectionTimeoutMillis
 * bounds that wait too, with this message and no code): the replica is busy, not down — this read
 * goes to the primary, the replica stays in use (a dead replica is found by the probe, which has
 * connections of its own).
 */
const poolWaitTimeout = (err: unknown): boolean =>
  (driverError(err) as Error)?.message === 'timeout exceeded when trying to connect';

/** pg's own error: TypeORM wraps a failed query's in QueryFailedError.driverError. */
const driverError = (err: unknown): unknown => (err as { driverError?: unknown }).driverError ?? err;

function replicaFailure(err: unknown): boolean {
  const e = driverError(err);
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08...|57P0[123]|40001)$/.test(code)) return true;
  return isConnectionError(e) || /Connection terminated|Query read timeout/i.test((e as Error)?.message ?? '');
}

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
  /** The probe's connections to the primary and the replica, one each: a busy pool would age its marks. */
  private readonly probes: [DataSource, DataSource] | null;
  private failures = 0;
  private readonly marks: { at: number; lsn: bigint }[] = [];
  private freshAsOf = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private probing = false;
  private failing = false;
  private readonly pin = new AsyncLocalStorage<{ source: DataSource }>();
  readonly reads = { replica: 0, primary: 0 };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
  ) {
    const timeouts = {
      statementTimeoutMs: config.dbStatementTimeoutMs,
      lockTimeoutMs: config.dbLockTimeoutMs,
      connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: config.dbStatementTimeoutMs + REPLICA_CONNECT_TIMEOUT_MS,
    };
    const pool = (url: string, size: number) =>
      new DataSource({ ...dataSourceOptions(url, size, timeouts), migrations: [] });
    this.replica = config.databaseReadUrl ? pool(config.databaseReadUrl, 10) : null;
    this.probes = config.databaseReadUrl ? [pool(config.databaseUrl, 1), pool(config.databaseReadUrl, 1)] : null;
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
    for (const ds of this.probes ?? []) if (ds.isInitialized) await ds.destroy();
  }

  /** Milliseconds of primary commits the replica may be missing right now (Infinity: unusable). */
  lagMs(): number {
    return Date.now() - this.freshAsOf;
  }

  /** The source for one read that may lag: the replica while it is within the bound, else the primary. */
  dataSource(): DataSource {
    const pinned = this.pin.getStore();
    if (pinned) return pinned.source;
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
    return this.pin.getStore() ? read() : this.pin.run({ source: this.dataSource() }, read);
  }

  /**
   * One query on the source of the moment. A replica that fails as a server (down, unreachable,
   * restarting, or cancelling the query for a conflict with replay) is left at once: the query
   * runs again on the primary, the rest of a pinned read follows it there, and every read goes to
   * the primary until a probe sees the replica within the bound again.
   */
  query(sql: string, parameters?: unknown[]): ReturnType<Queryable['query']> {
    return this.run((db) => db.query(sql, parameters));
  }

  /** `read` against the source of the moment (for reads through a pool of their own on the same database). */
  run<T>(read: (db: DataSource) => Promise<T>): Promise<T> {
    const source = this.dataSource();
    return source === this.primary ? read(source) : this.onReplica(source, read);
  }

  private async onReplica<T>(source: DataSource, read: (db: DataSource) => Promise<T>): Promise<T> {
    try {
      return await read(source);
    } catch (err) {
      if (poolWaitTimeout(err)) {
        this.reads.primary++;
        return read(this.primary);
      }
      if (!replicaFailure(err)) throw err;
      this.unusable(err);
      const pinned = this.pin.getStore();
      if (pinned) pinned.source = this.primary;
      this.reads.primary++;
      return read(this.primary);
    }
  }

  private unusable(err: unknown): void {
    this.freshAsOf = -Infinity;
    this.failures++; // a probe already under way does not make it fresh again
    if (!this.failing)
      this.logger.warn(`read replica failed (${(err as Error).message}); reads go to the primary until it answers`);
    this.failing = true;
  }

  /** The probe's own connection to each server (a busy pool would age its marks or make it time out). */
  private async probeConnections(): Promise<[DataSource, DataSource]> {
    if (!this.replica!.isInitialized) await this.replica!.initialize();
    for (const ds of this.probes!) if (!ds.isInitialized) await ds.initialize();
    return this.probes!;
  }

  /** Notes the primary's position, then moves `freshAsOf` to the newest noted position the replica has replayed. */
  async probe(): Promise<void> {
    if (!this.replica || this.probing) return;
    this.probing = true;
    try {
      const [primary, replica] = await this.probeConnections();
      const failures = this.failures;
      const at = Date.now();
      const [p] = await primary.query<{ lsn: string }[]>(PRIMARY_LSN);
      this.marks.push({ at, lsn: BigInt(p.lsn) });
      const [r] = await replica.query<{ lsn: string | null; standby: boolean }[]>(REPLAYED_LSN);
      const replayed = r.standby && r.lsn !== null ? BigInt(r.lsn) : -1n;
      if (this.failures !== failures) return; // a read saw the replica fail meanwhile: the next probe decides
      while (this.marks.length > 0 && this.marks[0].lsn <= replayed) this.freshAsOf = this.marks.shift()!.at;
      if (this.marks.length > 1000) this.marks.splice(0, this.marks.length - 1000);
      if (this.failing) this.logger.log('replica probe answers again');
      this.failing = false;
    } catch (err) {
      this.unusable(err);
    } finally {
      this.probing = false;
    }
  }
}
