import { type Static, Type } from 'typebox';
import { EVENT_TYPES } from '../events/log.ts';

const EventTypeSchema = Type.Union(EVENT_TYPES.map((type) => Type.Literal(type)));

export const CreateWebhook = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https on a public address for live keys; any http(s) URL, loopback included, for test keys' }),
    events: Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length, description: 'The event types this endpoint receives' }),
  },
  { additionalProperties: false },
);
export type CreateWebhook = Static<typeof CreateWebhook>;

export const Webhook = Type.Object({
  webhookId: Type.String({ description: 'whk_…' }),
  url: Type.String(),
  events: Type.Array(EventTypeSchema),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')], { description: "The events it receives: its key's environment" }),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why deliveries stopped (they failed for 72 h)' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const CreatedWebhook = Type.Object({
  ...Webhook.properties,
  secret: Type.String({ description: 'whsec_<base64>: verifies the webhook-signature header (Standard Webhooks). Shown only now and at rotation' }),
});

export const WebhookList = Type.Object({ data: Type.Array(Webhook) });
export const Secret = Type.Object({ secret: Type.String({ description: 'The new whsec_ secret; the old one stops signing now' }) });

export const Delivery = Type.Object({
  deliveryId: Type.String({ description: 'msg_…: the webhook-id header, the same on every attempt' }),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const DeliveryList = Type.Object({ data: Type.Array(Delivery, { description: 'Newest first' }) });

export const WebhookParams = Type.Object({ webhookId: Type.String({ maxLength: 64, description: 'whk_…' }) });
export type WebhookParams = Static<typeof WebhookParams>;
export const DeliveryParams = Type.Object({ webhookId: Type.String({ maxLength: 64 }), deliveryId: Type.String({ maxLength: 64, description: 'msg_…' }) });
export type DeliveryParams = Static<typeof DeliveryParams>;
export const DeliveriesQuery = Type.Object(
  { limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'At most 100 (default 20)' })) },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;
