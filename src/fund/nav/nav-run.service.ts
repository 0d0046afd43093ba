import { type DataSource, type QueryRunner } from 'typeorm';
import { type IsoDate, addDays, daysBetween } from '../dates';
import { fundScopedId } from '../ids';
import { emptyState } from './engine-state';
import { type DayValuation, type EngineState, type FundTerms } from './engine-types';
import { NavInputsRepository } from './nav-inputs.repository';
import { NavRunRepository } from './nav-run.repository';
import { NavRunResultsRepository } from './nav-run-results.repository';
import { bookingDates } from './booking-calendar';
import { valueDay } from './nav-engine';
import { JournalRepository, type NumberedEntry } from '../ledger/journal.repository';

export interface NavRunOptions {
  from?: IsoDate;
  to?: IsoDate;
  /** When a run for `date` is posted; seed:demo passes a fixed clock so the demo books are identical. */
  clock?: (date: IsoDate) => Date;
  /** Dates per load-compute-write batch. */
  batchDays?: number;
  /** Called after each written batch with the number of dates done so far (complete or failed). */
  onProgress?: (datesDone: number) => Promise<void>;
  /** How long to wait for the fund's NAV-inputs lock (another run or an import); 0, the default: as long as it takes. */
  lockWaitMs?: number;
  /** Asked once the lock is held; false: the run is no longer wanted (another delivery of its job ran it) and nothing runs. */
  stillWanted?: () => Promise<boolean>;
  /**
   * Told the range the run covers once it is settled under the lock, before anything is written: it
   * can differ from the one planned before the lock (a run stopped short since, a later date completed
   * since), and throwing stops the run there.
   */
  onRange?: (range: { from: IsoDate; to: IsoDate; days: number }) => Promise<void>;
}

/**
 * A run that would start on or before the fund's last published valuation date: a published NAV is
 * final and the books are closed through it, so nothing there is run (or superseded) again.
 */
export class NavBooksClosedError extends Error {
  constructor(
    readonly from: IsoDate,
    readonly closedThrough: IsoDate,
  ) {
    super(
      `a NAV run from ${from} would re-run published NAVs: the books are closed through ${closedThrough}, ` +
        `the last published valuation date; run from ${addDays(closedThrough, 1)} or later`,
    );
  }
}

/** Where a fund's run chain stands: what is complete, where a stopped run must restart, what is published. */
export interface NavChain {
  lastComplete: IsoDate | null;
  restartFrom: IsoDate | null;
  inception: IsoDate;
  /** The last published valuation date: no run starts on or before it. */
  closedThrough?: IsoDate | null;
}

/**
 * The dates a run for `date` covers: any earlier dates not yet run (from the day after the last
 * complete run), and, when `date` already has a complete run, every later complete date (a
 * correction cascades so the chain stays consistent). Null when there is nothing to run. Throws
 * NavBooksClosedError when it would start on or before the last published date.
 */
export function navRangeFor(
  date: IsoDate,
  lastComplete: IsoDate | null,
  inception: IsoDate,
  restartFrom: IsoDate | null = null,
  closedThrough: IsoDate | null = null,
): { from: IsoDate; to: IsoDate } | null {
  const asked = lastComplete && date > addDays(lastComplete, 1) ? addDays(lastComplete, 1) : date;
  const range = settledRange(asked, date, { lastComplete, restartFrom, inception, closedThrough });
  return range.from > range.to ? null : range;
}

/**
 * The range a run really covers, from the one asked for: it starts no later than where a run stopped
 * short (`restartFrom`: later days may still hold the old chain) and no earlier than inception; a
 * range that re-runs a complete date cascades to the last complete date. `to` null: the start.
 * Nothing on or before `closedThrough` (the last published date) is ever run again: a range asked
 * to start there is refused (NavBooksClosedError), and a restart marker there (bookings are refused
 * in closed books, so none should be) reaches back no further than the day after it.
 */
function settledRange(from: IsoDate, to: IsoDate | null, chain: NavChain): { from: IsoDate; to: IsoDate } {
  const { lastComplete, inception } = chain;
  const closedThrough = chain.closedThrough ?? null;
  if (closedThrough && from <= closedThrough) throw new NavBooksClosedError(from, closedThrough);
  const restartFrom =
    chain.restartFrom && closedThrough && chain.restartFrom <= closedThrough
      ? addDays(closedThrough, 1)
      : chain.restartFrom;
  let start = restartFrom && restartFrom < from ? restartFrom : from;
  if (start < inception) start = inception;
  let end = to ?? start;
  if (lastComplete && start <= lastComplete && end < lastComplete) end = lastComplete;
  return { from: start, to: end };
}

export interface NavRunOutcome {
  fundId: string;
  from: IsoDate | null;
  to: IsoDate | null;
  completed: number;
  superseded: number;
  failed: { date: IsoDate; runId: string; reason: string } | null;
  lastCompleteDate: IsoDate | null;
  /** True when `stillWanted` answered false once the lock was held: nothing was run. */
  skipped?: boolean;
}

const realClock = () => new Date();

const skippedRun = (fundId: string): NavRunOutcome => ({
  fundId,
  from: null,
  to: null,
  completed: 0,
  superseded: 0,
  failed: null,
  lastCompleteDate: null,
  skipped: true,
});

export interface NavRunRecord {
  navRunId: string;
  valuationDate: IsoDate;
  status: string;
  failureReason: string | null;
  grossAssetValue: string | null;
  netAssetValue: string | null;
  supersedesRunId: string | null;
  startedAt: string;
  completedAt: string | null;
}

/**
 * Runs the NAV engine over a range of dates: loads the previous complete run's checkpoint,
 * values each day in memory and writes runs, results and journal entries in batched
 * transactions. Re-running a date that already has a complete run supersedes it (its entries
 * are reversed) and re-runs every later complete date so the chain stays consistent.
 * A day that cannot be valued (e.g. a missing price) is recorded as a failed run and stops the range.
 */
export class NavRunService {
  private readonly runs: NavRunRepository;
  private readonly inputs: NavInputsRepository;
  private readonly results: NavRunResultsRepository;
  private readonly journal: JournalRepository;

  constructor(private readonly dataSource: DataSource) {
    this.runs = new NavRunRepository(dataSource);
    this.inputs = new NavInputsRepository(dataSource);
    this.results = new NavRunResultsRepository(dataSource);
    this.journal = new JournalRepository(dataSource);
  }

  /** Runs `date` (and any earlier dates not yet run, or later ones a re-run must cascade to). */
  async runNavForDate(
    fundId: string,
    date: IsoDate,
    clock: (date: IsoDate) => Date = realClock,
  ): Promise<NavRunOutcome> {
    const lastComplete = await this.runs.lastCompleteDate(fundId);
    const from = lastComplete && date > addDays(lastComplete, 1) ? addDays(lastComplete, 1) : date;
    return this.runNavRange(fundId, { from, to: date, clock });
  }

  /** The range `runNavForDate(date)` would cover, with its number of dates. */
  async planForDate(fundId: string, date: IsoDate): Promise<{ from: IsoDate; to: IsoDate; days: number } | null> {
    const [lastComplete, calendar, restartFrom, { closedThrough }] = await Promise.all([
      this.runs.lastCompleteDate(fundId),
      this.inputs.calendar(fundId),
      this.runs.restartFrom(fundId),
      bookingDates(this.dataSource, fundId),
    ]);
    const range = navRangeFor(date, lastComplete, calendar.inceptionDate, restartFrom, closedThrough);
    return range && { ...range, days: daysBetween(range.from, range.to) + 1 };
  }

  /** The newest run for a date (complete, failed or running), as the admin endpoint answers it. */
  async latestRunFor(fundId: string, date: IsoDate): Promise<NavRunRecord | null> {
    const row = await this.runs.latestRunFor(fundId, date);
    if (!row) return null;
    return {
      navRunId: row.id,
      valuationDate: row.valuation_date,
      status: row.status,
      failureReason: row.failure_reason,
      grossAssetValue: row.gav,
      netAssetValue: row.nav,
      supersedesRunId: row.supersedes_run_id,
      startedAt: new Date(row.started_at).toISOString(),
      completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    };
  }

  /**
   * Values days and writes them in batches, holding the fund's NAV-inputs lock for the whole run: an
   * import waits for it (and it for an import), and a second run of the fund (the CLI beside an API
   * job, a stalled job resumed twice) waits its turn instead of interleaving batches built on stale state.
   */
  async runNavRange(fundId: string, options: NavRunOptions = {}): Promise<NavRunOutcome> {
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.startTransaction(); // holds the lock only: nothing is written in it
      await this.runs.with(lock).holdInputsLock(fundId, options.lockWaitMs);
      if (options.stillWanted && !(await options.stillWanted())) return skippedRun(fundId);
      // before each batch is written: the lock is still held (a lost connection would have released it)
      return await this.runNavRangeLocked(fundId, options, () => this.runs.with(lock).assertInputsLockHeld());
    } finally {
      await lock.rollbackTransaction().catch(() => undefined); // a lost connection took the lock with it
      await lock.release();
    }
  }

  private async runNavRangeLocked(
    fundId: string,
    options: NavRunOptions,
    lockHeld: () => Promise<void>,
  ): Promise<NavRunOutcome> {
    const clock = options.clock ?? realClock;
    const batchDays = options.batchDays ?? 62;
    const reader = this.inputs;
    const runs = this.runs;
    const terms = await reader.fundTerms(fundId);
    const calendar = await reader.calendar(fundId);
    const lastComplete = await runs.lastCompleteDate(fundId);
    const { closedThrough } = await bookingDates(this.dataSource, fundId);
    const { from, to } = settledRange(
      options.from ?? (lastComplete ? addDays(lastComplete, 1) : calendar.inceptionDate),
      options.to ?? calendar.lastPriceDate,
      { lastComplete, restartFrom: await runs.restartFrom(fundId), inception: calendar.inceptionDate, closedThrough },
    );
    const outcome: NavRunOutcome = {
      fundId,
      from,
      to,
      completed: 0,
      superseded: 0,
      failed: null,
      lastCompleteDate: lastComplete,
    };
    if (from > to) return { ...outcome, from: null, to: null };
    await options.onRange?.({ from, to, days: daysBetween(from, to) + 1 });

    const previous = await runs.lastCompleteRunBefore(fundId, from);
    if (!previous && from !== calendar.inceptionDate) {
      throw new Error(
        `no complete NAV run before ${from}; run the fund from its inception ${calendar.inceptionDate} first`,
      );
    }
    if (previous && addDays(previous.ref.valuationDate, 1) !== from) {
      throw new Error(
        `the last complete NAV run is for ${previous.ref.valuationDate}; run ${addDays(previous.ref.valuationDate, 1)} before ${from}`,
      );
    }
    let state: EngineState = previous ? previous.state : emptyState();
    const ids = await runs.referenceIds(fundId);
    for (let start = from; start <= to && !outcome.failed; start = addDays(start, batchDays)) {
      const end = addDays(start, batchDays - 1) < to ? addDays(start, batchDays - 1) : to;
      const days = await reader.dayInputs(fundId, start, end);
      const valued: DayValuation[] = [];
      let failure: { date: IsoDate; reason: string } | null = null;
      for (const day of days) {
        const result = valueDay(terms, state, day);
        if (!result.ok) {
          failure = result;
          break;
        }
        valued.push(result);
        state = result.state;
      }
      const lastValued = valued.length ? valued[valued.length - 1].date : null;
      const goOnFrom = failure ? failure.date : lastValued && lastValued < to ? addDays(lastValued, 1) : null;
      await lockHeld();
      const written = await this.writeBatch(fundId, terms, valued, failure, clock, ids, goOnFrom);
      outcome.completed += valued.length;
      outcome.superseded += written.superseded;
      if (failure) outcome.failed = { ...failure, runId: written.failedRunId! };
      if (valued.length) outcome.lastCompleteDate = valued[valued.length - 1].date;
      await options.onProgress?.(outcome.completed + (failure ? 1 : 0));
    }
    return outcome;
  }

  private async writeBatch(
    fundId: string,
    terms: FundTerms,
    valued: DayValuation[],
    failure: { date: IsoDate; reason: string } | null,
    clock: (date: IsoDate) => Date,
    ids: { symbols: Map<string, string>; connections: Map<string, string> },
    goOnFrom: IsoDate | null,
  ): Promise<{ superseded: number; failedRunId: string | null }> {
    return this.inTransaction(async (qr) => {
      const runs = this.runs.with(qr);
      const journal = this.journal.with(qr);
      const results = this.results.with(qr);
      await journal.lockBooks(fundId);
      await journal.bumpGeneration(fundId);
      await runs.setRestartFrom(fundId, goOnFrom); // with this batch: where the next run must start if this one stops here
      let superseded = 0;
      const first = valued[0]?.date ?? failure!.date;
      const last = failure?.date ?? valued[valued.length - 1].date;
      const attempts = await runs.attemptsBetween(fundId, first, last);
      const runId = (date: IsoDate) => fundScopedId(fundId, 'nav-run', `${date}#${(attempts.get(date) ?? 0) + 1}`);
      if (valued.length) {
        const existing = await runs.completeRunsBetween(fundId, first, valued[valued.length - 1].date);
        const batch = valued.map((day) => ({ id: runId(day.date), day, at: clock(day.date) }));
        await runs.insertRunningRuns(fundId, batch);
        let entryNumber = await journal.nextEntryNumber(fundId);
        const entries: NumberedEntry[] = [];
        for (const run of batch) {
          const old = existing.get(run.day.date);
          if (old) {
            entryNumber += await runs.supersede(fundId, old, run.id, entryNumber, run.at);
            superseded++;
          }
          for (const draft of run.day.entries)
            entries.push({ draft, number: entryNumber++, runId: run.id, postedAt: run.at });
        }
        await journal.insertEntries(fundId, entries, terms.baseCurrency);
        await results.insertResults(fundId, batch, ids.symbols, ids.connections);
        await runs.completeRuns(
          batch.map((r) => r.id),
          batch.map((r) => r.at),
        );
        await runs.settleActivity(fundId, valued[valued.length - 1].date);
      }
      let failedRunId: string | null = null;
      if (failure) {
        failedRunId = await runs.insertFailedRun(
          fundId,
          runId(failure.date),
          { ok: false, ...failure },
          clock(failure.date),
        );
      }
      return { superseded, failedRunId };
    });
  }

  private async inTransaction<T>(work: (qr: QueryRunner) => Promise<T>): Promise<T> {
    const qr = this.dataSource.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    try {
      const result = await work(qr);
      await qr.commitTransaction();
      return result;
    } catch (err) {
      await qr.rollbackTransaction();
      throw err;
    } finally {
      await qr.release();
    }
  }
}
