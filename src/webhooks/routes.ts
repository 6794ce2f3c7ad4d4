import type { FastifyInstance } from 'fastify';
import { apiError } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import {
  CreateWebhook,
  CreatedWebhook,
  DeliveriesQuery,
  Delivery,
  DeliveryList,
  DeliveryParams,
  Secret,
  Webhook,
  WebhookList,
  WebhookParams,
} from './schemas.ts';
import type { WebhooksService } from './service.ts';

const access = { scope: 'webhooks:write', metered: true } as const;
const common = { tags: ['webhooks'], security: bearerSecurity };
const notFound = () => apiError('notFound', 'No such webhook endpoint');

export async function webhookRoutes(app: FastifyInstance, { service }: { service: WebhooksService }): Promise<void> {
  app.post<{ Body: CreateWebhook }>(
    '/api/v1/webhooks',
    {
      config: { access },
      schema: {
        ...common,
        summary: 'Register an endpoint for events (signed with Standard Webhooks); the secret is in this answer only',
        body: CreateWebhook,
        response: { 201: CreatedWebhook, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const created = await service.create({ accountId: principal.account.id, keyEnvironment: principal.environment }, request.body);
      return reply.status(201).send(created);
    },
  );

  app.get('/api/v1/webhooks', { config: { access }, schema: { ...common, summary: "The tenant's webhook endpoints", response: { 200: WebhookList, ...errorResponses(...API_ERRORS) } } }, async (request) => ({
    data: await service.list(principalOf(request).account.id),
  }));

  app.get<{ Params: WebhookParams }>(
    '/api/v1/webhooks/:webhookId',
    { config: { access }, schema: { ...common, summary: 'A webhook endpoint', params: WebhookParams, response: { 200: Webhook, ...errorResponses(...API_ERRORS, 404) } } },
    async (request) => (await service.find(principalOf(request).account.id, request.params.webhookId)) ?? Promise.reject(notFound()),
  );

  app.delete<{ Params: WebhookParams }>(
    '/api/v1/webhooks/:webhookId',
    { config: { access }, schema: { ...common, summary: 'Remove an endpoint and its delivery log', params: WebhookParams, response: { 204: { type: 'null' }, ...errorResponses(...API_ERRORS, 404) } } },
    async (request, reply) => {
      if (!(await service.remove(principalOf(request).account.id, request.params.webhookId))) throw notFound();
      return reply.status(204).send();
    },
  );

  app.post<{ Params: WebhookParams }>(
    '/api/v1/webhooks/:webhookId/secret',
    { config: { access }, schema: { ...common, summary: 'Rotate the signing secret', params: WebhookParams, response: { 200: Secret, ...errorResponses(...API_ERRORS, 404) } } },
    async (request) => (await service.rotateSecret(principalOf(request).account.id, request.params.webhookId)) ?? Promise.reject(notFound()),
  );

  app.post<{ Params: WebhookParams }>(
    '/api/v1/webhooks/:webhookId/enable',
    {
      config: { access },
      schema: { ...common, summary: 'Turn a disabled endpoint back on (failed deliveries stay in its log to replay)', params: WebhookParams, response: { 200: Webhook, ...errorResponses(...API_ERRORS, 404) } },
    },
    async (request) => (await service.enable(principalOf(request).account.id, request.params.webhookId)) ?? Promise.reject(notFound()),
  );

  app.get<{ Params: WebhookParams; Querystring: DeliveriesQuery }>(
    '/api/v1/webhooks/:webhookId/deliveries',
    {
      config: { access },
      schema: { ...common, summary: "The endpoint's delivery log", params: WebhookParams, querystring: DeliveriesQuery, response: { 200: DeliveryList, ...errorResponses(...API_ERRORS, 404) } },
    },
    async (request) => {
      const data = await service.deliveries(principalOf(request).account.id, request.params.webhookId, Number(request.query.limit ?? 20));
      if (!data) throw notFound();
      return { data };
    },
  );

  app.post<{ Params: DeliveryParams }>(
    '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/replay',
    { config: { access }, schema: { ...common, summary: 'Send a delivery again now', params: DeliveryParams, response: { 202: Delivery, ...errorResponses(...API_ERRORS, 404) } } },
    async (request, reply) => {
      const delivery = await service.replay(principalOf(request).account.id, request.params.webhookId, request.params.deliveryId);
      if (!delivery) throw apiError('notFound', 'No such delivery');
      return reply.status(202).send(delivery);
    },
  );
}
