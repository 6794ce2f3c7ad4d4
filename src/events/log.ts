// The event log any module writes to: `emit` stores the event inside the caller's transaction (the outbox
// pattern), so the event commits with its cause or not at all, and a crash after the commit loses nothing;
// deliverers (webhooks) take undispatched events in batches.
import type { Kysely } from 'kysely';
import type { RecordEnvironment } from '../core.ts';
import { newId } from '../ids.ts';
import type { Database } from '../storage/schema.ts';

/** The event types the contract names, and `webhook.disabled`: an endpoint stopped after failing for the retry period. */
export const EVENT_TYPES = [
  'check.completed',
  'check.review_decided',
  'workflow_run.completed',
  'bundle.ready',
  'aml.monitoring.match',
  'key.revoked',
  'webhook.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  accountId: string;
  environment: RecordEnvironment;
  type: EventType;
  data: Record<string, unknown>;
}

export interface StoredEvent extends NewEvent {
  id: string;
  createdAt: string;
}

export interface EventLog {
  /** Stores the event in `trx`, the transaction of its cause; returns it with its id (`evt_…`). */
  emit(trx: Kysely<Database>, event: NewEvent, now?: Date): Promise<StoredEvent>;
}

export function createEventLog(): EventLog {
  return {
    async emit(trx, event, now = new Date()) {
      const stored: StoredEvent = { ...event, id: newId('evt'), createdAt: now.toISOString() };
      await trx
        .insertInto('events')
        .values({
          id: stored.id,
          account_id: event.accountId,
          environment: event.environment,
          type: event.type,
          data: JSON.stringify(event.data),
          created_at: stored.createdAt,
          dispatched_at: null,
        })
        .execute();
      return stored;
    },
  };
}
