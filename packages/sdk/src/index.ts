export { createKyxClient, retryDelayMs, type KyxClient, type KyxClientOptions } from './client.ts';
export { verifyWebhook, WebhookVerificationError, type KyxEvent } from './webhooks.ts';
export type { components, paths } from './openapi.d.ts';
