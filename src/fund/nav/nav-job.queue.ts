import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { bullPrefix, producerConnection, shutDownBull, workerConnection } from '../../webhooks/bull-connections';
import { type IsoDate } from '../dates';
import { NavJobsRepository } from './nav-jobs.repository';
import { NavRunOutcome, NavRunService } from './nav-run.service';

export const NAV_RUN_QUEUE = 'nav-runs';
/** Dates per written batch inside a job: progress is recorded after each. */
const JOB_BATCH_DAYS = 15;
/**
 * How long a job waits for the fund's NAV-inputs lock (a CLI run or import of the fund) before it
 * fails saying so: a worker slot and a pool connection are not held for the length of another run,
 * and shutdown is not held up by a waiting job.
 */
const JOB_LOCK_WAIT_MS = 30_000;

/**
 * NAV runs requested over the admin API, as BullMQ jobs: the API role enqueues (the job row in
 * PostgreSQL is the resource clients poll), the worker role runs the engine over the job's
 * bounded range, recording progress after each batch and the outcome at the end. BullMQ job id
 * = the job row id, so a re-enqueue is a no-op; a job whose worker died is picked up again as a
 * stalled job and resumes (the row stays `running`).
 */
@Injectable()
export class NavJobQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NavJobQueue');
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private connections: Redis[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: NavJobsRepository,
    private readonly navRuns: NavRunService,
  ) {}

  onApplicationBootstrap(): void {
    const producer = producerConnection(this.config);
    producer.on('error', () => undefined);
    this.connections.push(producer);
    this.queue = new Queue(NAV_RUN_QUEUE, { connection: producer, prefix: bullPrefix(this.config) });
    this.queue.on('error', () => undefined);
    if (this.config.role === 'api') return;
    const connection = workerConnection(this.config);
    connection.on('error', () => undefined);
    this.connections.push(connection);
    this.worker = new Worker(NAV_RUN_QUEUE, (job: Job<{ jobId: string }>) => this.process(job.data.jobId), {
      connection,
      prefix: bullPrefix(this.config),
      concurrency: 2,
    });
    this.worker.on('error', (err) => this.logger.warn(`worker error: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await shutDownBull({ worker: this.worker, queue: this.queue, connections: this.connections }, 5000);
  }

  async enqueue(jobId: string): Promise<void> {
    if (!this.queue) throw new Error('the NAV run queue is not started');
    await this.queue.add('nav-run', { jobId }, { jobId, removeOnComplete: 1000, removeOnFail: 1000 });
  }

  /** BullMQ's state of a job ('unknown' when the queue does not hold it). */
  async stateOf(jobId: string): Promise<string> {
    if (!this.queue) throw new Error('the NAV run queue is not started');
    return this.queue.getJobState(jobId);
  }

  /** Runs one job's range; the outcome (or the error) is recorded on the job row, never thrown away. */
  async process(jobId: string): Promise<void> {
    const job = await this.jobs.start(jobId);
    if (!job) return;
    try {
      const outcome = await this.navRuns.runNavRange(job.fund_id, {
        from: job.from_date,
        to: job.to_date,
        batchDays: JOB_BATCH_DAYS,
        lockWaitMs: JOB_LOCK_WAIT_MS,
        onProgress: (done) => this.jobs.progress(jobId, done),
        // a stalled job delivered again while its first worker still runs it waits for the lock, then stops here
        stillWanted: () => this.jobs.isUnfinished(jobId),
        onRange: (range) => this.settleRange(jobId, range),
      });
      if (outcome.skipped) return; // the delivery that ran the range records the outcome
      const run = await this.navRuns.latestRunFor(job.fund_id, job.valuation_date);
      const failed = outcome.failed ? `the run for ${outcome.failed.date} failed: ${outcome.failed.reason}` : null;
      await this.jobs.finish(jobId, failed ? 'failed' : 'succeeded', outcomeView(outcome, run), failed);
    } catch (err) {
      this.logger.warn(`NAV run job ${jobId} failed: ${(err as Error).message}`);
      await this.jobs.finish(jobId, 'failed', null, (err as Error).message);
    }
  }

  /**
   * The range as the lock found it: a run stopped short or a date completed since the request can
   * widen it, and the bound NAV_RUN_MAX_DAYS holds here too (nothing is run beyond it); the job's
   * dates and total follow, so its progress counts against the dates really run.
   */
  private async settleRange(jobId: string, range: { from: IsoDate; to: IsoDate; days: number }): Promise<void> {
    const max = this.config.navRunMaxDays;
    if (range.days > max) {
      throw new Error(
        `the run now covers ${range.from} … ${range.to} (${range.days} dates), more than NAV_RUN_MAX_DAYS (${max}), ` +
          'since it was requested; nothing was run. Request it again, or run the history with npm run fund:nav.',
      );
    }
    await this.jobs.settleRange(jobId, range.from, range.to, range.days);
  }
}

function outcomeView(
  outcome: NavRunOutcome,
  run: Awaited<ReturnType<NavRunService['latestRunFor']>>,
): Record<string, unknown> {
  return {
    completedRuns: outcome.completed,
    supersededRuns: outcome.superseded,
    failedRun: outcome.failed
      ? { valuationDate: outcome.failed.date, navRunId: outcome.failed.runId, reason: outcome.failed.reason }
      : null,
    lastCompleteDate: outcome.lastCompleteDate,
    navRunId: run?.navRunId ?? null,
    runStatus: run?.status ?? null,
    netAssetValue: run?.netAssetValue ?? null,
  };
}
