// Webhooks end to end: endpoints registered through the API, events delivered from the outbox to a local receiver,
// signatures checked with the independent standardwebhooks package, retries after 500s and time-outs with one
// webhook-id, endpoints disabled after the retry period, SSRF refusals for live keys, tenants apart.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { until } from '../helpers/wait.ts';

const company = kybSandboxScenarios.find((scenario) => scenario.id === 'active_company')!.request;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on a free port: answers each request as `answer` says (status, or a delay in ms before 200). */
async function receiver(answer: (count: number) => { status: number; delayMs?: number } = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const { status, delayMs = 0 } = answer(received.length);
      setTimeout(() => response.writeHead(status).end('ok'), delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { KYX_WORKER_POLL_MS: '25', KYX_WEBHOOK_RETRY_BASE_MS: '50', KYX_WEBHOOK_TIMEOUT_MS: '400' } });
});
afterAll(() => t.close());

const api = (tenant: Tenant, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
const register = (tenant: Tenant, url: string, events: string[] = ['check.completed']) => api(tenant, 'POST', '/api/v1/webhooks', { url, events });

describe('endpoints', () => {
  it('registers an endpoint with a secret shown once, lists, reads, rotates and deletes it, tenant-scoped', async () => {
    const [tenant, other] = [await t.tenant(), await t.tenant()];
    const created = await register(tenant, 'http://localhost:9/hooks', ['check.completed', 'bundle.ready']);
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ webhookId: expect.stringMatching(/^whk_/), environment: 'sandbox', status: 'enabled', events: ['check.completed', 'bundle.ready'] });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const listed = (await api(tenant, 'GET', '/api/v1/webhooks')).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].secret).toBeUndefined();
    expect((await api(tenant, 'GET', `/api/v1/webhooks/${body.webhookId}`)).json()).not.toHaveProperty('secret');
    const rotated = (await api(tenant, 'POST', `/api/v1/webhooks/${body.webhookId}/secret`)).json().secret;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(body.secret);
    for (const [method, url] of [['GET', ''], ['DELETE', ''], ['POST', '/secret'], ['GET', '/deliveries']] as const) {
      errorBody(await api(other, method, `/api/v1/webhooks/${body.webhookId}${url}`), 404, 'not_found');
    }
    expect((await api(other, 'GET', '/api/v1/webhooks')).json().data).toEqual([]);
    expect((await api(tenant, 'DELETE', `/api/v1/webhooks/${body.webhookId}`)).statusCode).toBe(204);
    errorBody(await api(tenant, 'GET', `/api/v1/webhooks/${body.webhookId}`), 404, 'not_found');
  });

  it('refuses, for a live key, http URLs and names or addresses that are not public; a test key may use loopback', async () => {
    const live = await t.tenant({ env: 'live', plan: 'growth' });
    for (const url of ['http://example.com/hooks', 'https://127.0.0.1/hooks', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'ftp://example.com']) {
      const response = await register(live, url);
      expect(errorBody(response, 400, 'invalid_request').errors, url).toEqual([{ path: 'body/url', message: expect.any(String) }]);
    }
    errorBody(await register(live, 'https://example.com/x', ['check.exploded']), 400, 'invalid_request');
    expect((await register(await t.tenant(), 'http://127.0.0.1:9/hooks')).statusCode).toBe(201);
  });

  it('needs the webhooks:write scope', async () => {
    const reader = await t.tenant({ scopes: ['kyb:read'] });
    errorBody(await register(reader, 'http://127.0.0.1:9/x'), 403, 'forbidden');
  });
});

describe('deliveries', () => {
  it('delivers an event signed by the Standard Webhooks scheme, only to the tenant whose event it is', async () => {
    const hooks = await receiver();
    try {
      const [tenant, other] = [await t.tenant(), await t.tenant()];
      const { secret, webhookId } = (await register(tenant, hooks.url)).json();
      await register(other, hooks.url, ['key.revoked']);
      const kybId = (await api(tenant, 'POST', '/api/v1/kyb/verify', company)).json().kybId;
      await until(() => hooks.received.length, (n) => n >= 1, 'the delivery');
      const [delivery] = hooks.received;
      const payload = new Webhook(secret.slice('whsec_'.length)).verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({ type: 'check.completed', data: { checkId: kybId, kind: 'kyb', status: expect.any(String) } });
      expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
      // a tampered body does not verify
      expect(() => new Webhook(secret.slice('whsec_'.length)).verify(delivery.body.replace('kyb', 'kyc'), delivery.headers as Record<string, string>)).toThrow();
      const log = await until(async () => (await api(tenant, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`)).json().data, (d) => d[0]?.status === 'delivered', 'the log');
      expect(log).toMatchObject([{ deliveryId: delivery.headers['webhook-id'], eventType: 'check.completed', status: 'delivered', attempts: 1, lastStatusCode: 200 }]);
      expect(hooks.received).toHaveLength(1);
    } finally {
      await hooks.close();
    }
  });

  it('retries after 500s and a time-out with the same webhook-id, then succeeds; replay sends it again', async () => {
    const hooks = await receiver((count) => (count === 1 ? { status: 500 } : count === 2 ? { status: 200, delayMs: 1_500 } : { status: 200 }));
    try {
      const tenant = await t.tenant();
      const { webhookId } = (await register(tenant, hooks.url)).json();
      await api(tenant, 'POST', '/api/v1/kyb/verify', company);
      const [delivered] = await until(async () => (await api(tenant, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`)).json().data, (d) => d[0]?.status === 'delivered', 'delivery');
      expect(delivered.attempts).toBe(3);
      expect(new Set(hooks.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivered.deliveryId]));
      const replayed = await api(tenant, 'POST', `/api/v1/webhooks/${webhookId}/deliveries/${delivered.deliveryId}/replay`);
      expect(replayed.statusCode).toBe(202);
      await until(() => hooks.received.length, (n) => n >= 4, 'the replay');
      expect(hooks.received[3].headers['webhook-id']).toBe(delivered.deliveryId);
      errorBody(await api(tenant, 'POST', `/api/v1/webhooks/${webhookId}/deliveries/msg_nothing/replay`), 404, 'not_found');
    } finally {
      await hooks.close();
    }
  });

  it('disables an endpoint whose deliveries keep failing past the retry period, tells the other endpoints, and enables it again', async () => {
    const app = await createTestApp({ env: { KYX_WORKER_POLL_MS: '25', KYX_WEBHOOK_RETRY_BASE_MS: '20', KYX_WEBHOOK_RETRY_FOR_MS: '300' } });
    let healthy = false;
    const hooks = await receiver(() => ({ status: healthy ? 200 : 503 }));
    const notices = await receiver();
    try {
      const tenant = await app.tenant();
      const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
      const { webhookId } = (await call('POST', '/api/v1/webhooks', { url: hooks.url, events: ['check.completed'] })).json();
      const watcher = (await call('POST', '/api/v1/webhooks', { url: notices.url, events: ['webhook.disabled'] })).json();
      await call('POST', '/api/v1/kyb/verify', company);
      const endpoint = await until(async () => (await call('GET', `/api/v1/webhooks/${webhookId}`)).json(), (e) => e.status === 'disabled', 'the endpoint to be disabled');
      expect(endpoint.disabledReason).toMatch(/answered 503/);
      expect(hooks.received.length).toBeGreaterThan(1);

      const notice = await until(() => notices.received[0], Boolean, 'the webhook.disabled notice');
      const event = new Webhook(watcher.secret).verify(notice.body, notice.headers as Record<string, string>) as { type: string; data: Record<string, string> };
      // the notice names the endpoint and the cause, never its URL (which may carry the receiver's own token)
      expect(event).toEqual({ type: 'webhook.disabled', timestamp: expect.any(String), data: { webhookId, reason: endpoint.disabledReason } });

      // a delivery whose job ended while the endpoint was disabled waits as pending; enabling sends it
      const [failed] = (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`)).json().data;
      expect(failed.status).toBe('failed');
      await app.context.storage.db.updateTable('webhook_deliveries').set({ status: 'pending' }).where('id', '=', failed.deliveryId).execute();
      healthy = true;
      const enabled = await call('POST', `/api/v1/webhooks/${webhookId}/enable`);
      expect(enabled.statusCode, enabled.body).toBe(200);
      expect(enabled.json()).toMatchObject({ webhookId, status: 'enabled', disabledReason: null });
      await until(async () => (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`)).json().data[0], (d) => d.status === 'delivered', 'the waiting delivery');
      const before = hooks.received.length;
      await call('POST', '/api/v1/kyb/verify', company);
      await until(() => hooks.received.length, (count) => count > before, 'a delivery to the enabled endpoint');
      expect(notices.received.length).toBe(1);
      const stranger = await app.tenant();
      expect((await app.app.inject({ method: 'POST', url: `/api/v1/webhooks/${webhookId}/enable`, headers: stranger.headers })).statusCode).toBe(404);
    } finally {
      await Promise.all([hooks.close(), notices.close()]);
      await app.close();
    }
  });

  it('emits key.revoked when a key is revoked', async () => {
    const hooks = await receiver();
    try {
      const tenant = await t.tenant();
      const { secret } = (await register(tenant, hooks.url, ['key.revoked'])).json();
      const spare = await t.tenant();
      expect(await t.context.credentials.revoke(tenant.keyId)).toBe(true);
      await until(() => hooks.received.length, (n) => n >= 1, 'key.revoked');
      const payload = new Webhook(secret.slice('whsec_'.length)).verify(hooks.received[0].body, hooks.received[0].headers as Record<string, string>);
      expect(payload).toMatchObject({ type: 'key.revoked', data: { keyId: tenant.keyId } });
      expect(spare.keyId).not.toBe(tenant.keyId);
    } finally {
      await hooks.close();
    }
  });
});
