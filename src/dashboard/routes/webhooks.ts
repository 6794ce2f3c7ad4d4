import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { EVENT_TYPES, type EventType } from '../../events/log.ts';
import type { UsersService } from '../../users/service.ts';
import type { Delivery, Endpoint, WebhooksService } from '../../webhooks/service.ts';
import { actorOf, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { csrfField, sendNotFound, sendPage } from '../layout.ts';

const DELIVERY_LOG_SIZE = 50;
const EventsField = Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })]);
const CreateWebhookForm = formBody({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  events: Type.Optional(EventsField),
});
const WebhookParams = Type.Object({ webhookId: Type.String({ maxLength: 64 }) });
const DeliveryParams = Type.Object({ webhookId: Type.String({ maxLength: 64 }), deliveryId: Type.String({ maxLength: 64 }) });
const NoFields = formBody({});

type Flash = { kind: 'ok' | 'error'; text: string };

const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** The secret of a new endpoint or of a rotation, shown once with a copy button. */
function secretBox(what: string, secret: string): Html {
  return html`<div class="secret" role="status"><span>${what}, shown only now:</span>
<code id="new-secret" data-testid="new-secret">${secret}</code><button type="button" class="secondary" data-copy="new-secret">Copy</button></div>`;
}

/** Webhook endpoints of the account (admins only: URLs can carry a receiver's own tokens). */
export async function webhookRoutes(app: FastifyInstance, { webhooks, users }: { webhooks: WebhooksService; users: UsersService }): Promise<void> {
  async function listPage(request: FastifyRequest, reply: FastifyReply, extra: { flash?: Flash; created?: Endpoint & { secret: string } } = {}, status = 200) {
    const session = sessionOf(request);
    const endpoints = await webhooks.list(session.user.accountId);
    return sendPage(
      reply,
      {
        title: 'Webhooks',
        session,
        section: '/dashboard/webhooks',
        flash: extra.flash,
        body: html`${extra.created ? secretBox(`Signing secret of ${extra.created.webhookId}`, extra.created.secret) : ''}
${endpoints.length
  ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Endpoint</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Environment</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${endpoints.map(
      (endpoint) => html`<tr><td><a href="/dashboard/webhooks/${endpoint.webhookId}"><code>${endpoint.webhookId}</code></a></td><td class="mono">${endpoint.url}</td>
<td class="mono">${endpoint.events.join(' ')}</td><td>${endpoint.environment}</td><td>${badge(endpoint.status)}</td><td>${time(endpoint.createdAt)}</td></tr>`,
    )}</tbody></table></div>`
  : html`<p class="muted">No endpoints. kyx signs every delivery with the Standard Webhooks scheme and retries failures for 72 hours.</p>`}
<h2>Add an endpoint</h2>
<form class="stack" method="post" action="/dashboard/webhooks">${csrfField(session.csrfToken)}
<label>URL <input name="url" type="url" required maxlength="2048" placeholder="https://example.com/kyx/events"></label>
<label>Events of <select name="environment"><option value="test">test keys (sandbox; any URL, localhost included)</option><option value="live">live keys (https on a public address)</option></select></label>
<fieldset><legend>Events (none ticked: all)</legend>${EVENT_TYPES.map((type) => html`<label><span><input type="checkbox" name="events" value="${type}"> ${type}</span></label>`)}</fieldset>
<button type="submit">Add endpoint</button></form>`,
      },
      status,
    );
  }

  async function endpointPage(request: FastifyRequest<{ Params: { webhookId: string } }>, reply: FastifyReply, extra: { flash?: Flash; secret?: string } = {}, status = 200) {
    const session = sessionOf(request);
    const { accountId } = session.user;
    const endpoint = await webhooks.find(accountId, request.params.webhookId);
    const deliveries = endpoint && (await webhooks.deliveries(accountId, endpoint.webhookId, DELIVERY_LOG_SIZE));
    if (!endpoint || !deliveries) return sendNotFound(reply, session, 'webhook endpoint');
    const base = `/dashboard/webhooks/${endpoint.webhookId}`;
    const row = (delivery: Delivery) => html`<tr><td><code>${delivery.deliveryId}</code></td><td class="mono">${delivery.eventType}</td><td>${badge(delivery.status)}</td>
<td>${delivery.attempts}</td><td>${delivery.lastStatusCode ?? delivery.lastError ?? html`<span class="muted">—</span>`}</td><td>${time(delivery.lastAttemptAt)}</td><td>${time(delivery.createdAt)}</td>
<td><form class="inline" method="post" action="${base}/deliveries/${delivery.deliveryId}/replay">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Send again</button></form></td></tr>`;
    return sendPage(
      reply,
      {
        title: `Webhook ${endpoint.webhookId}`,
        session,
        section: '/dashboard/webhooks',
        flash: extra.flash,
        body: html`${extra.secret ? secretBox('New signing secret (the old one no longer signs)', extra.secret) : ''}
<dl class="facts">
<dt>URL</dt><dd class="mono">${endpoint.url}</dd>
<dt>Events</dt><dd class="mono">${endpoint.events.join(' ')}</dd>
<dt>Environment</dt><dd>${endpoint.environment}</dd>
<dt>Status</dt><dd data-testid="endpoint-status">${badge(endpoint.status)}${endpoint.disabledReason ? html` ${endpoint.disabledReason}` : ''}</dd>
<dt>Created</dt><dd>${time(endpoint.createdAt)}</dd>
</dl>
<div class="actions">
${endpoint.status === 'disabled' ? html`<form class="inline" method="post" action="${base}/enable">${csrfField(session.csrfToken)}<button type="submit">Enable again</button></form>` : ''}
<form class="inline" method="post" action="${base}/secret" data-confirm="Rotate the signing secret? Deliveries are signed with the new one from now on.">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Rotate secret</button></form>
<form class="inline" method="post" action="${base}/delete" data-confirm="Remove this endpoint and its delivery log?">${csrfField(session.csrfToken)}<button type="submit" class="danger">Remove</button></form>
</div>
<h2>Deliveries</h2>
${deliveries.length
  ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Delivery (webhook-id)</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col">Created</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${deliveries.map(row)}</tbody></table></div>`
  : html`<p class="muted">Nothing delivered yet.</p>`}`,
      },
      status,
    );
  }

  app.get('/dashboard/webhooks', { config: { dashboard: 'administer' }, schema: { hide: true } }, (request, reply) => listPage(request, reply));

  app.post<{ Body: Type.Static<typeof CreateWebhookForm> }>(
    '/dashboard/webhooks',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: CreateWebhookForm } },
    async (request, reply) => {
      const { url, environment, events } = request.body;
      const ticked = events === undefined ? [...EVENT_TYPES] : [events].flat();
      const unknown = ticked.filter((type) => !isEventType(type));
      if (unknown.length) return listPage(request, reply, { flash: { kind: 'error', text: `Unknown event type: ${unknown.join(', ')}` } }, 400);
      try {
        const created = await webhooks.create({ accountId: sessionOf(request).user.accountId, keyEnvironment: environment }, { url: url.trim(), events: ticked.filter(isEventType) });
        await users.audit(actorOf(request), 'webhook.created', created.webhookId, { environment: created.environment, events: created.events });
        return listPage(request, reply, { created, flash: { kind: 'ok', text: 'Endpoint added. Copy its signing secret now: it is not shown again.' } });
      } catch (error) {
        const { status, text } = refusal(error);
        return listPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  app.get<{ Params: Type.Static<typeof WebhookParams> }>(
    '/dashboard/webhooks/:webhookId',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: WebhookParams } },
    (request, reply) => endpointPage(request, reply),
  );

  app.post<{ Params: Type.Static<typeof WebhookParams>; Body: Type.Static<typeof NoFields> }>(
    '/dashboard/webhooks/:webhookId/secret',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: WebhookParams, body: NoFields } },
    async (request, reply) => {
      const rotated = await webhooks.rotateSecret(sessionOf(request).user.accountId, request.params.webhookId);
      if (!rotated) return sendNotFound(reply, sessionOf(request), 'webhook endpoint');
      await users.audit(actorOf(request), 'webhook.secret_rotated', request.params.webhookId);
      return endpointPage(request, reply, { secret: rotated.secret, flash: { kind: 'ok', text: 'Secret rotated. Copy it now: it is not shown again.' } });
    },
  );

  app.post<{ Params: Type.Static<typeof WebhookParams>; Body: Type.Static<typeof NoFields> }>(
    '/dashboard/webhooks/:webhookId/enable',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: WebhookParams, body: NoFields } },
    async (request, reply) => {
      const enabled = await webhooks.enable(sessionOf(request).user.accountId, request.params.webhookId);
      if (!enabled) return sendNotFound(reply, sessionOf(request), 'webhook endpoint');
      await users.audit(actorOf(request), 'webhook.enabled', enabled.webhookId);
      return endpointPage(request, reply, { flash: { kind: 'ok', text: 'Enabled: new events are delivered again. Send failed deliveries again from the log below.' } });
    },
  );

  app.post<{ Params: Type.Static<typeof WebhookParams>; Body: Type.Static<typeof NoFields> }>(
    '/dashboard/webhooks/:webhookId/delete',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: WebhookParams, body: NoFields } },
    async (request, reply) => {
      if (!(await webhooks.remove(sessionOf(request).user.accountId, request.params.webhookId))) return sendNotFound(reply, sessionOf(request), 'webhook endpoint');
      await users.audit(actorOf(request), 'webhook.removed', request.params.webhookId);
      return listPage(request, reply, { flash: { kind: 'ok', text: `Removed ${request.params.webhookId}.` } });
    },
  );

  app.post<{ Params: Type.Static<typeof DeliveryParams>; Body: Type.Static<typeof NoFields> }>(
    '/dashboard/webhooks/:webhookId/deliveries/:deliveryId/replay',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: DeliveryParams, body: NoFields } },
    async (request, reply) => {
      const { webhookId, deliveryId } = request.params;
      const replayed = await webhooks.replay(sessionOf(request).user.accountId, webhookId, deliveryId);
      if (!replayed) return sendNotFound(reply, sessionOf(request), 'delivery');
      await users.audit(actorOf(request), 'webhook.delivery_replayed', deliveryId, { webhookId });
      return endpointPage(request, reply, { flash: { kind: 'ok', text: `Delivery ${deliveryId} queued to be sent again.` } });
    },
  );
}
