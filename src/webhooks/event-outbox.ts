import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
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
 * Writes an event to the outbox inside the caller's transaction: the event exists exactly when
 * the state change that caused it commits. The body is serialized once, here, and every
 * delivery sends (and signs) these exact bytes.
 */
export async function emitEvent(
  manager: EntityManager,
  fundId: string,
  type: EventType | typeof TEST_EVENT_TYPE,
  data: Record<string, unknown>,
  onlySubscriptionId: string | null = null,
): Promise<EmittedEvent> {
  const id = `evt_${randomUUID().replace(/-/g, '')}`;
  const createdAt = new Date().toISOString();
  const body = JSON.stringify({ id, type, createdAt, fundId, data });
  // the NOTIFY is delivered when (and only if) the transaction commits: dispatchers wake at once
  await new DeliveriesRepository(manager).insertEvent({ id, fundId, type, body, onlySubscriptionId, createdAt });
  return { id, type, createdAt, fundId };
}

/** Injectable face of emitEvent (lets a test make the event write fail to prove atomicity). */
@Injectable()
export class EventOutbox {
  emit(manager: EntityManager, fundId: string, type: EventType, data: Record<string, unknown>): Promise<EmittedEvent> {
    return emitEvent(manager, fundId, type, data);
  }
}
