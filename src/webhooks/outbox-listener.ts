import type { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { OUTBOX_CHANNEL } from './event-outbox';

const RECONNECT_MS = 1000;

/**
 * One dedicated connection LISTENing on the outbox channel: every committed event wakes the
 * dispatcher at once instead of at its next poll. Polling stays as the safety net, so a lost
 * connection only costs latency; it reconnects every second and wakes the dispatcher when back.
 */
export class OutboxListener {
  private client: Client | null = null;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onNotify: () => void,
    private readonly logger: Logger,
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'fundgate-outbox-listener' });
    let failed = false;
    const fail = (err?: Error) => {
      if (failed) return;
      failed = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      if (err) this.logger.warn(`outbox LISTEN connection lost (${err.message}); polling until it is back`);
      setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    client.on('notification', () => this.onNotify());
    client.on('error', fail);
    client.on('end', () => fail());
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (this.stopped) return void client.end().catch(() => undefined);
      this.client = client;
      this.onNotify(); // whatever was committed while not listening
    } catch (err) {
      fail(err as Error);
    }
  }
}
