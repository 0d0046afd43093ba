import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ScheduledJob, startScheduledJob } from '../webhooks/bull-schedule';
import { IdempotencyService } from './idempotency.service';

/**
 * Deletes Idempotency-Key records older than 24 h every 10 minutes (worker and all roles only).
 * Lookups already ignore expired rows, so a late run never changes an answer; it only keeps the
 * table small.
 */
@Injectable()
export class IdempotencyExpiryJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
  ) {}

  onApplicationBootstrap(): void {
    this.job = startScheduledJob(this.config, {
      queue: 'maintenance-idempotency',
      name: 'purge-expired',
      everyMs: 10 * 60_000,
      run: async () => ({ deleted: await this.idempotency.purgeExpired() }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }
}
