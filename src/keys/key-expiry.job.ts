import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ScheduledJob, startScheduledJob } from '../webhooks/bull-schedule';
import { KeysRepository } from './keys.repository';

/**
 * A key's expiry ends what it started, as a revocation does: every minute (worker and all roles),
 * the webhook subscriptions held by keys that have expired since the last sweep (created,
 * redirected, re-enabled or re-keyed with them) are disabled,
 * once per key, so fund events stop reaching a URL whose key no longer reads the fund. An admin may
 * re-enable one; it then stays on.
 */
@Injectable()
export class KeyExpiryJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private job: ScheduledJob | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: KeysRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.job = startScheduledJob(this.config, {
      queue: 'maintenance-key-expiry',
      name: 'sweep-expired',
      everyMs: 60_000,
      run: () => this.sweep(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** Keys newly found expired, and the subscriptions they had created that were disabled. */
  sweep(): Promise<{ keys: number; webhooks: number }> {
    return this.keys.transaction(async (m) => {
      const expired = await this.keys.with(m).markExpiredSwept();
      const webhooks = expired.length ? await this.keys.with(m).disableWebhooksOfExpiredKeys(expired) : 0;
      return { keys: expired.length, webhooks };
    });
  }
}
