import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';

describe('contract errors owned by the foundation', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_BODY_LIMIT_BYTES: '1024' } });
    tenant = await t.tenant();
  });
  afterAll(() => t.close());

  it('401 without a credential, with WWW-Authenticate', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key' });
    errorBody(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['a malformed header', 'Basic abc'],
    ['an unknown key', 'Bearer svc_test_sk_' + 'A'.repeat(43)],
    ['garbage', 'Bearer not-a-key'],
    ['a non-token with dots', 'Bearer a.b.c'],
  ])('401 for %s', async (_label, authorization) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: { authorization } });
    errorBody(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('403 when the key lacks the permission a route needs', async () => {
    const narrow = await t.tenant({ scopes: ['kyc:read'] });
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: narrow.headers,
      payload: { clientId: 'c', grantType: 'client_credentials' },
    });
    expect(response.statusCode).toBe(200);
    // validate-key needs no scope: a narrow key still reads its own permissions
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: narrow.headers });
    expect(own.json().permissions).toEqual(['kyc:read']);
  });

  it('404 with the contract body for unknown routes, inside and outside /api', async () => {
    for (const url of ['/api/v1/nothing-here', '/nothing-here', '/reports']) {
      errorBody(await t.app.inject({ method: 'GET', url, headers: tenant.headers }), 404, 'not_found');
    }
  });

  it('400 invalid_request for malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"clientId": ',
    });
    const body = errorBody(response, 400, 'invalid_request');
    expect(body.errors.length).toBeGreaterThan(0);
  });

  it('400 invalid_request naming the fields for a schema violation', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: tenant.headers,
      payload: { grantType: 'client_credentials', extra: 1 },
    });
    const body = errorBody(response, 400, 'invalid_request');
    const paths = body.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain('body/clientId');
    expect(paths).toContain('body/extra');
  });

  it('400 unsupported_grant_type', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: tenant.headers,
      payload: { clientId: 'c', grantType: 'password' },
    });
    errorBody(response, 400, 'unsupported_grant_type');
  });

  it('415 for a content type the service does not read', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { ...tenant.headers, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    errorBody(response, 415, 'unsupported_media_type');
  });

  it('413 payload_too_large over the configured body limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: tenant.headers,
      payload: { clientId: 'x'.repeat(5000), grantType: 'client_credentials' },
    });
    errorBody(response, 413, 'payload_too_large');
  });

  it('control characters in a path parameter: 401 before the credential, then 400 naming the parameter', async () => {
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/escrow/esc_%00' }), 401, 'unauthorized');
    const body = errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/escrow/esc_%00', headers: tenant.headers }), 400, 'invalid_request');
    expect(body.errors).toEqual([{ path: 'params/escrowId', message: 'must not contain control characters' }]);
  });

  it('X-Request-Id on every answer, success or not, never repeated', async () => {
    const ids = new Set<string>();
    for (const url of ['/healthz', '/api/v1/validate-key', '/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{20,}$/);
      ids.add(String(response.headers['x-request-id']));
    }
    expect(ids.size).toBe(3);
  });
});

describe('limits answer 429 with the contract body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_FLOOD_LIMIT: '5', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
  });
  afterAll(() => t.close());

  it('flood limiter: rate_limited with Retry-After and RateLimit-* headers, and the refused call counts nothing', async () => {
    const tenant = await t.tenant();
    const ip = '203.0.113.7';
    for (let i = 0; i < 5; i++) {
      const ok = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: ip });
      expect(ok.statusCode).toBe(200);
      expect(Number(ok.headers['ratelimit-remaining'])).toBe(4 - i);
    }
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: ip });
    errorBody(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe('5');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const other = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '203.0.113.8' });
    // five admitted, the refused one not counted, this one counted
    expect(other.json().usage.today).toBe(6);
  });

  it('flood limiter applies to /api only', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    }
  });

  it('DAILY_CAP_EXCEEDED with resetsAt at the next UTC midnight; refused calls consume nothing', async () => {
    const tenant = await t.tenant({ dailyCap: 2 });
    for (let i = 0; i < 2; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: `198.51.100.${i}` })).statusCode).toBe(200);
    }
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '198.51.100.10' });
    const body = errorBody(refused, 429, 'DAILY_CAP_EXCEEDED');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(body.resetsAt).toBe(midnight.toISOString());
    expect(refused.headers['x-quota-remaining']).toBe(String(1000 - 2));
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(refused.headers['x-ratelimit-reset']).toBeUndefined();
  });

  it('MONTHLY_QUOTA_EXCEEDED with its message and resetsAt on the 1st', async () => {
    const tenant = await t.tenant({ monthlyQuota: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '198.51.100.20' })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '198.51.100.21' });
    const body = errorBody(refused, 429, 'MONTHLY_QUOTA_EXCEEDED');
    expect(body.message).toBe('Monthly quota exceeded');
    const now = new Date();
    expect(body.resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
  });

  it('a 401 or 403 consumes no allowance', async () => {
    const tenant = await t.tenant({ dailyCap: 1 });
    await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', remoteAddress: '198.51.100.30' });
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '198.51.100.31' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().usage.today).toBe(1);
  });
});
