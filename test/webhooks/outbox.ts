import type { DataSource } from 'typeorm';
import { DeliveriesRepository, type NotifyCoalescing } from '../../src/webhooks/deliveries.repository';
import { EventOutbox } from '../../src/webhooks/event-outbox';

/** The event outbox over a DataSource, for tests that write events without an app container. */
export const outboxOver = (db: DataSource, coalescing?: NotifyCoalescing): EventOutbox =>
  new EventOutbox(new DeliveriesRepository(db, coalescing));
