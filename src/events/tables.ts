import type { RecordEnvironment } from '../core.ts';

/**
 * The outbox: every event a tenant may be told about, written in the transaction of what caused it, so an event
 * exists exactly when its cause committed. Deliverers (webhooks) pick up rows not yet dispatched.
 */
export interface EventsTable {
  id: string;
  account_id: string;
  environment: RecordEnvironment;
  type: string;
  /** JSON: the event's `data` object. */
  data: string;
  created_at: string;
  /** When a deliverer took the event over; null while it waits. */
  dispatched_at: string | null;
}

export interface EventTables {
  events: EventsTable;
}

declare module '../storage/schema.ts' {
  interface Database extends EventTables {}
}
