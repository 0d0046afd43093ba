import { Inject, Injectable, Logger, BeforeApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ActivityRecord, ActivityRepository } from './activity.repository';

/**
 * Records every request off the request path: a bounded in-memory buffer flushed on a timer and
 * on shutdown. Under overload it drops (and counts) rather than block requests.
 */
@Injectable()
export class ActivityLogWriter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ActivityLog');
  private buffer: ActivityRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  dropped = 0;

  constructor(
    private readonly activity: ActivityRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.activityFlushMs);
    this.timer.unref();
  }

  record(entry: ActivityRecord): void {
    if (this.buffer.length >= this.config.activityBufferMax) {
      this.dropped++;
      if (this.dropped % 1000 === 1) this.logger.warn(`activity buffer full; ${this.dropped} records dropped so far`);
      return;
    }
    this.buffer.push(entry);
  }

  /** Writes what is buffered; concurrent calls queue behind one another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0, 5000);
        try {
          await this.activity.insertMany(batch);
        } catch (err) {
          this.dropped += batch.length;
          this.logger.error(`activity flush failed, ${batch.length} records dropped: ${(err as Error).message}`);
          return;
        }
      }
    });
    return this.flushing;
  }

  /** Before the database pool closes (onApplicationShutdown), so nothing buffered is lost. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
