import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../database/queryable';
import { DeliveriesRepository } from './deliveries.repository';
import type { EventType, TEST_EVENT_TYPE } from './event-types';

export { OUTBOX_CHANNEL } from './deliveries.repository';

export interface EmittedEvent {
  id: string;
  type: string;
  createdAt: string;
  fundId: string;
}

/**
 * Writes events to the outbox inside the caller's transaction: an event exists exactly when the
 * state change that caused it commits. The body is serialized once, here, and every delivery sends
 * (and signs) these exact bytes. Injectable (a test can make the event write fail to prove atomicity).
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  /** `onlySubscriptionId`: a test event, delivered to that subscription only. */
  async emit(
    manager: Queryable,
    fundId: string,
    type: EventType | typeof TEST_EVENT_TYPE,
    data: Record<string, unknown>,
    onlySubscriptionId: string | null = null,
  ): Promise<EmittedEvent> {
    const id = `evt_${randomUUID().replace(/-/g, '')}`;
    const createdAt = new Date().toISOString();
    const body = JSON.stringify({ id, type, createdAt, fundId, data });
    // the NOTIFY is delivered when (and only if) the transaction commits: dispatchers wake at once
    await this.deliveries.with(manager).insertEvent({ id, fundId, type, body, onlySubscriptionId, createdAt });
    return { id, type, createdAt, fundId };
  }
}
