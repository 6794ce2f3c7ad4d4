// The TypeScript SDK against a real kyx on a real port: typed calls, the documented back-off on a flood-limited
// 429 (Retry-After honoured, the POST retried under one Idempotency-Key, run once), no retry of a daily-cap 429,
// webhook verification interchangeable with the standardwebhooks package, and types that match the served document.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKyxClient, verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.ts';
import { TYPES_FILE, servedDocument, typesOf } from '../../packages/sdk/src/generate.ts';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, createTestApp } from '../helpers/app.ts';

const company = kybSandboxScenarios.find((scenario) => scenario.id === 'active_company')!.request;

let t: TestApp;
let baseUrl: string;
/** An instance whose flood limiter allows 3 requests per 3 s from an address. */
let limited: TestApp;
let limitedUrl: string;

async function listening(app: TestApp): Promise<string> {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  [t, limited] = await Promise.all([createTestApp(), createTestApp({ env: { KYX_FLOOD_LIMIT: '3', KYX_FLOOD_WINDOW_SECONDS: '3' } })]);
  [baseUrl, limitedUrl] = await Promise.all([listening(t), listening(limited)]);
});
afterAll(() => Promise.all([t.close(), limited.close()]));

/** A fetch that records what it sent and got. */
function recordingFetch() {
  const sent: Array<{ method: string; url: string; idempotencyKey: string | null; status: number }> = [];
  const spy = async (request: Request) => {
    const response = await fetch(request);
    sent.push({ method: request.method, url: request.url, idempotencyKey: request.headers.get('idempotency-key'), status: response.status });
    return response;
  };
  return { sent, fetch: spy as typeof fetch };
}

describe('the SDK against a running kyx', () => {
  it('makes typed calls', async () => {
    const tenant = await t.tenant();
    const kyx = createKyxClient({ baseUrl, apiKey: tenant.key });
    const { data, error } = await kyx.GET('/api/v1/validate-key');
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ valid: true, accountId: tenant.accountId, environment: 'test' });
    const verified = await kyx.POST('/api/v1/kyb/verify', { body: company });
    expect(verified.data?.kybId).toMatch(/^kyb_/);
  });

  it('waits as Retry-After says after a flood-limited 429 and retries the POST under the same Idempotency-Key, which runs once', async () => {
    // The flood limiter counts in fixed windows, so the window can end between using up the allowance and the SDK's
    // POST, which then simply passes. Start each attempt as a window opens; an attempt whose first POST still passed
    // proves nothing about the back-off and is repeated with a fresh tenant.
    const windowMs = 3000;
    for (let attempt = 1; ; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 20));
      const tenant = await limited.tenant();
      const waits: number[] = [];
      const recorder = recordingFetch();
      const kyx = createKyxClient({
        baseUrl: limitedUrl,
        apiKey: tenant.key,
        fetch: recorder.fetch,
        sleep: (ms) => (waits.push(ms), new Promise((resolve) => setTimeout(resolve, ms))),
      });
      await Promise.all([1, 2, 3].map(() => fetch(`${limitedUrl}/api/v1/validate-key`, { headers: tenant.headers })));
      const verified = await kyx.POST('/api/v1/kyb/verify', { body: company });
      expect(verified.response.status).toBe(200);
      const posts = recorder.sent.filter((request) => request.method === 'POST');
      if (posts[0].status !== 429 && attempt < 5) continue;
      expect(posts[0].status).toBe(429);
      expect(posts.at(-1)!.status).toBe(200);
      expect(new Set(posts.map((request) => request.idempotencyKey)).size).toBe(1);
      expect(posts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(waits[0]).toBeGreaterThanOrEqual(1000);
      const checks = await limited.context.storage.db.selectFrom('kyb_checks').select('id').where('account_id', '=', tenant.accountId).execute();
      expect(checks.map((check) => check.id)).toEqual([verified.data!.kybId]);
      return;
    }
  });

  it('does not retry a daily-cap 429', async () => {
    const tenant = await t.tenant({ dailyCap: 1 });
    const recorder = recordingFetch();
    const kyx = createKyxClient({ baseUrl, apiKey: tenant.key, fetch: recorder.fetch, sleep: async () => undefined });
    expect((await kyx.GET('/api/v1/validate-key')).response.status).toBe(200);
    const refused = await kyx.GET('/api/v1/validate-key');
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'DAILY_CAP_EXCEEDED' });
    expect(recorder.sent).toHaveLength(2);
  });
});

describe('webhook verification', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const body = JSON.stringify({ type: 'check.completed', timestamp: '2026-11-24T10:00:00.000Z', data: { checkId: 'kyb_x' } });

  it('accepts what the standardwebhooks package signs, and refuses a changed body, another secret and an old delivery', () => {
    const at = new Date();
    const signature = new Webhook(secret.slice('whsec_'.length)).sign('msg_1', at, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    expect(verifyWebhook(secret, headers, body)).toMatchObject({ type: 'check.completed', data: { checkId: 'kyb_x' } });
    expect(() => verifyWebhook(secret, headers, body.replace('kyb_x', 'kyb_y'))).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(`whsec_${Buffer.from('another secret').toString('base64')}`, headers, body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headers, body, { now: new Date(at.getTime() + 600_000) })).toThrow(/tolerance/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body)).toThrow(/missing/);
  });
});

describe('generated types', () => {
  // Regenerate on purpose: npm run sdk:generate
  it('are generated from the document the service serves, not edited by hand', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await typesOf(await servedDocument()));
  });
});
