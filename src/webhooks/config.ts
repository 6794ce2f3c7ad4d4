// The webhooks section of the configuration: how deliveries are timed and retried.
import type { EnvReader } from '../env.ts';

export interface WebhooksConfig {
  /** The first retry waits this long; each further one twice as long (capped at an hour). */
  retryBaseMs: number;
  /** Deliveries of an event are retried this long; then the endpoint is disabled. */
  retryForMs: number;
  /** Longest wait for an endpoint's answer. */
  timeoutMs: number;
}

export function webhooksConfig(env: EnvReader): WebhooksConfig {
  return {
    retryBaseMs: env.positive('KYX_WEBHOOK_RETRY_BASE_MS', { description: 'wait before the first retry of a failed webhook delivery', fallback: 5_000 }),
    retryForMs: env.positive('KYX_WEBHOOK_RETRY_FOR_MS', { description: 'how long failed deliveries are retried before the endpoint is disabled', fallback: 72 * 3_600_000 }),
    timeoutMs: env.positive('KYX_WEBHOOK_TIMEOUT_MS', { description: 'longest wait for a webhook endpoint to answer', fallback: 10_000 }),
  };
}
