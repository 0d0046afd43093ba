import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventType } from './event-types';

/** PostgreSQL LISTEN/NOTIFY channel: an event was committed to the outbox of this database. */
export const OUTBOX_CHANNEL = 'fundgate_outbox';

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
export async function emitEvent(manager: EntityManager, fundId: string, type: EventType | string, data: Record<string, unknown>,
  onlySubscriptionId: string | null = null): Promise<EmittedEvent> {
  const id = `evt_${randomUUID().replace(/-/g, '')}`;
  const createdAt = new Date().toISOString();
  const body = JSON.stringify({ id, type, createdAt, fundId, data });
  // the NOTIFY is delivered when (and only if) the transaction commits: dispatchers wake at once
  await manager.query(
    `WITH e AS (INSERT INTO webhook_events (id, fund_id, type, body, only_subscription_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING 1)
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM e`,
    [id, fundId, type, body, onlySubscriptionId, createdAt],
  );
  return { id, type, createdAt, fundId };
}

/** Injectable face of emitEvent (lets a test make the event write fail to prove atomicity). */
@Injectable()
export class EventOutbox {
  emit(manager: EntityManager, fundId: string, type: EventType, data: Record<string, unknown>): Promise<EmittedEvent> {
    return emitEvent(manager, fundId, type, data);
  }
}
