// Verifies a kyx webhook (Standard Webhooks): the signature over "id.timestamp.body" with the endpoint's whsec_
// secret, and a timestamp within the tolerance, so a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface KyxEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Returns the event when the delivery is authentic and recent; throws WebhookVerificationError otherwise. */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  body: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): KyxEvent {
  const header = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : (value ?? undefined);
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const sentAt = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(sentAt) || Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('timestamp outside the tolerance');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const valid = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body) as KyxEvent;
}
