import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { CursorCodec } from '../../common/pagination/cursor';
import { notFound, ProblemError } from '../../common/errors/problem';
import { IsoDate } from '../dates';
import { NavJobQueue } from './nav-job.queue';
import { NavJobRow, NavJobsRepository } from './nav-jobs.repository';
import { NavJobDto, NavJobOutcomeDto, NavRunListDto } from './nav-run.dto';
import { NavBooksClosedError, NavRunService } from './nav-run.service';

export const jobLocation = (jobId: string) => `/api/v1/admin/nav-jobs/${jobId}`;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** How long a queued row may wait for its queue job to appear before it counts as lost. */
export const LOST_AFTER_MS = 60_000;

/** The admin NAV-run job lifecycle: plan and bound the range, one active job per fund, enqueue, answer. */
@Injectable()
export class NavJobsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: NavJobsRepository,
    private readonly navRuns: NavRunService,
    private readonly queue: NavJobQueue,
    private readonly cursors: CursorCodec,
  ) {}

  async request(fundId: string, keyId: string | null, date: IsoDate): Promise<NavJobDto> {
    const plan = await this.navRuns.planForDate(fundId, date).catch((err: unknown) => {
      throw err instanceof NavBooksClosedError ? booksClosed(date, err.closedThrough) : err;
    });
    // A plan starts after the date asked for only when that date is before inception (the plan starts
    // there); with complete runs it then covered inception … the last complete date (range_too_large).
    if (!plan || plan.from > date) throw beforeInception(date, plan?.from);
    const max = this.config.navRunMaxDays;
    if (plan.days > max) {
      throw new ProblemError(
        'range_too_large',
        `a run for ${date} covers ${plan.from} … ${plan.to} (${plan.days} dates); one call may cover at most ${max} (NAV_RUN_MAX_DAYS). ` +
          'Run forward in steps, or re-run a whole history with npm run fund:nav.',
        [{ field: 'valuationDate', message: `must need at most ${max} dates to be run` }],
      );
    }
    const insert = () => this.jobs.insertQueued(fundId, keyId, date, plan.from, plan.to, plan.days);
    let { job, active } = await insert();
    if (!job && active && (await this.releaseIfLost(active))) ({ job, active } = await insert());
    if (!job) {
      throw new ProblemError(
        'nav_job_in_progress',
        `NAV run job ${active?.id} is still queued or running for this fund; poll it and try again when it has finished`,
        undefined,
        active ? { location: jobLocation(active.id) } : undefined,
      );
    }
    try {
      await this.queue.enqueue(job.id);
    } catch (err) {
      await this.jobs.finish(job.id, 'failed', null, `could not be queued: ${(err as Error).message}`);
      throw new ProblemError('unavailable', 'the job queue is unavailable; nothing was run, try again shortly');
    }
    return jobView(job);
  }

  /**
   * A job row still queued or running that no queue job will ever finish — the API died between the
   * row and the enqueue, Redis lost the job, BullMQ gave up on a stalled job, or recording the outcome
   * failed — is marked failed, so it does not block the fund's NAV runs for good. A row younger than
   * LOST_AFTER_MS without a queue job may be one whose enqueue is still under way, and is kept; so is
   * every row while Redis cannot be asked.
   */
  private async releaseIfLost(active: { id: string; ageMs: number }): Promise<boolean> {
    const state = await this.queue.stateOf(active.id).catch(() => null);
    const gone = state === 'unknown' && active.ageMs > LOST_AFTER_MS;
    if (!gone && state !== 'completed' && state !== 'failed') return false;
    await this.jobs.finish(
      active.id,
      'failed',
      null,
      `lost: the queue ${gone ? 'no longer holds it' : `has it ${state}`}`,
    );
    return true;
  }

  async job(fundId: string, jobId: string): Promise<NavJobDto> {
    const job = await this.jobs.find(fundId, jobId);
    if (!job) throw notFound(`NAV run job ${jobId}`);
    return jobView(job);
  }

  async runs(fundId: string, limit = 100, cursor?: string): Promise<NavRunListDto> {
    const kind = `nav-runs:${fundId}`; // a cursor is bound to its listing and fund
    const after = cursor ? this.cursors.decode(kind, cursor, { t: 'timestamp', id: 'uuid' }) : null;
    const rows = await this.jobs.listRuns(fundId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        navRunId: r.id,
        valuationDate: r.valuation_date,
        status: r.status,
        failureReason: r.failure_reason,
        netAssetValue: r.net_asset_value,
        createdAt: iso(r.started_at)!,
        completedAt: iso(r.completed_at),
        publishedAt: iso(r.published_at),
      })),
      nextCursor: rows.length > limit && last ? this.cursors.encode(kind, { t: last.started_key, id: last.id }) : null,
      hasMore: rows.length > limit,
    };
  }
}

/** 422: a valuation date before the fund's inception (named when known) has nothing to run. */
function beforeInception(date: IsoDate, inception: IsoDate | undefined): ProblemError {
  const named = inception ? ` ${inception}` : '';
  return new ProblemError('unprocessable', `nothing to run for ${date}: it is before the fund's inception${named}`, [
    { field: 'valuationDate', message: `must be on or after the fund inception${named}` },
  ]);
}

/** 422: a valuation date on or before the last published one: a published NAV is final. */
function booksClosed(date: IsoDate, closedThrough: IsoDate): ProblemError {
  return new ProblemError(
    'unprocessable',
    `nothing is run for ${date}: the fund's NAV is published through ${closedThrough} and the books are closed through it (a published NAV is final)`,
    [{ field: 'valuationDate', message: `must be after ${closedThrough}, the last published valuation date` }],
  );
}

function jobView(j: NavJobRow): NavJobDto {
  return {
    jobId: j.id,
    valuationDate: j.valuation_date,
    fromDate: j.from_date,
    toDate: j.to_date,
    status: j.status,
    progress: { completedDates: j.completed_dates, totalDates: j.total_dates },
    outcome: (j.outcome as unknown as NavJobOutcomeDto) ?? null,
    error: j.error,
    createdAt: iso(j.created_at)!,
    startedAt: iso(j.started_at),
    finishedAt: iso(j.finished_at),
  };
}
