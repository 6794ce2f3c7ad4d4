import type { RecordEnvironment } from '../core.ts';

/** A tenant's webhook endpoint: the events of one environment (its key's) that it receives. */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  environment: RecordEnvironment;
  url: string;
  /** JSON array of event types. */
  events: string;
  /**
   * The signing secret (`whsec_…`). Kept as is, unlike API keys: signing needs the secret itself, and a hash could
   * not sign. Returned only when created or rotated.
   */
  secret: string;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint: the message, its attempts and its outcome. */
export interface WebhookDeliveriesTable {
  /** `msg_…`: the webhook-id header, the same on every attempt. */
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  /** The JSON body sent, fixed at dispatch. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
  /** Retries stop this long after `retry_from` (a replay or re-enabling starts a new period), else after created_at. */
  retry_from: string | null;
  delivered_at: string | null;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

declare module '../storage/schema.ts' {
  interface Database extends WebhookTables {}
}
