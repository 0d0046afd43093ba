import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ScheduledJob, startScheduledJob } from '../webhooks/bull-schedule';
import { RetentionRepository } from './retention.repository';

/**
 * How much one run may do. Each batch is one short statement (its own transaction); a run stops after
 * `batches` full batches, so a backlog (the first run on a years-old log) is worked off over several
 * hourly runs instead of one long one. 360 activity batches are 3.6 M rows an hour: a steady 1 000
 * requests/s (about 0.1 s a batch measured, so about 35 s a run at most on the 2-core machine,
 * docs/scaling.md "Retention"); 50 webhook batches, 50 000 ended deliveries an hour.
 */
export interface RetentionLimits {
  /** Ids per activity batch (a primary-key range: at most this many rows). */
  activityBatch: number;
  activityBatches: number;
  /** Deliveries (each with its attempts, up to 8 a round) and events alike. */
  webhookBatch: number;
  webhookBatches: number;
}
export const RETENTION_LIMITS: RetentionLimits = {
  activityBatch: 10_000,
  activityBatches: 360,
  webhookBatch: 1_000,
  webhookBatches: 50,
};
export const RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * What one sweep of a table did; `more`: it stopped at its batch cap (or an error) with old rows
 * possibly left, for the next run. Batches that committed before an error stay done.
 */
export interface SweepCounts {
  cutoff: string | null;
  batches: number;
  more: boolean;
  error?: string;
}
export interface ActivitySweep extends SweepCounts {
  moved: number;
  anonymous: number;
}
export interface WebhookSweep extends SweepCounts {
  deliveries: number;
  attempts: number;
  events: number;
}
export interface RetentionReport {
  activity: ActivitySweep;
  webhooks: WebhookSweep;
  ms: number;
}

/** The start of the UTC day `days` before `now`'s UTC day; null when `days` is 0 (kept for ever). */
export function retentionCutoff(now: Date, days: number): Date | null {
  if (days === 0) return null;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}

/**
 * Retention, every hour in the worker (and `all`) role, as one BullMQ schedule however many workers
 * run: activity_log rows older than ACTIVITY_RETENTION_DAYS whole UTC days become daily counts
 * (activity_daily, which /usage reads with the rows left); ended webhook deliveries whose last change
 * is older than WEBHOOK_RETENTION_DAYS go with their attempts, then the events no delivery references
 * any more (never one still in the outbox). Subscriptions and their holders (who controlled each: an
 * audit) are kept. Each run logs one JSON line with its counts.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private job: ScheduledJob | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: RetentionRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.job = startScheduledJob(this.config, {
      queue: 'maintenance-retention',
      name: 'sweep',
      everyMs: RETENTION_EVERY_MS,
      run: () => this.sweep(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  async sweep(now = new Date(), limits = RETENTION_LIMITS): Promise<RetentionReport> {
    const started = Date.now();
    const activity = await this.sweepActivity(retentionCutoff(now, this.config.activityRetentionDays), limits);
    const webhooks = await this.sweepWebhooks(retentionCutoff(now, this.config.webhookRetentionDays), limits);
    const report = { activity, webhooks, ms: Date.now() - started };
    if (activity.error || webhooks.error) this.logger.warn({ retention: report });
    else this.logger.log({ retention: report });
    return report;
  }

  private async sweepActivity(cutoff: Date | null, limits: RetentionLimits): Promise<ActivitySweep> {
    const counts = { moved: 0, anonymous: 0 };
    if (!cutoff) return { cutoff: null, batches: 0, more: false, ...counts };
    const run = await inBatches(limits.activityBatches, async () => {
      const batch = await this.repo.moveActivityBatch(cutoff, limits.activityBatch);
      counts.moved += batch.moved;
      counts.anonymous += batch.anonymous;
      return !batch.done;
    });
    return { cutoff: cutoff.toISOString(), ...run, ...counts };
  }

  /** Deliveries first: the events they free are then deleted in the same run. `more` and `batches` count both. */
  private async sweepWebhooks(cutoff: Date | null, limits: RetentionLimits): Promise<WebhookSweep> {
    const counts = { deliveries: 0, attempts: 0, events: 0 };
    if (!cutoff) return { cutoff: null, batches: 0, more: false, ...counts };
    const deliveries = await inBatches(limits.webhookBatches, async () => {
      const batch = await this.repo.deleteEndedDeliveries(cutoff, limits.webhookBatch);
      counts.deliveries += batch.deliveries;
      counts.attempts += batch.attempts;
      return batch.deliveries === limits.webhookBatch;
    });
    const events = await inBatches(limits.webhookBatches, async () => {
      const deleted = await this.repo.deleteOrphanEvents(cutoff, limits.webhookBatch);
      counts.events += deleted;
      return deleted === limits.webhookBatch;
    });
    const run = {
      batches: deliveries.batches + events.batches,
      more: deliveries.more || events.more,
      ...(deliveries.error || events.error ? { error: deliveries.error ?? events.error } : {}),
    };
    return { cutoff: cutoff.toISOString(), ...run, ...counts };
  }
}

/**
 * Runs `batch` (which answers whether more may be left) until one says nothing is or `cap` batches
 * have run; `more`: the cap stopped it, or a batch failed (`error`: the other sweep still runs, and
 * the next run tries again).
 */
async function inBatches(cap: number, batch: () => Promise<boolean>) {
  let batches = 0;
  try {
    while (batches < cap) {
      batches++;
      if (!(await batch())) return { batches, more: false };
    }
    return { batches, more: true };
  } catch (err) {
    return { batches, more: true, error: (err as Error).message };
  }
}
