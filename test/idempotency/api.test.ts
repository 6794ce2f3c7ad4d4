// Idempotency-Key on POST /api/v1/*: one execution per key, the same answer replayed without counting again, another
// body refused, tenants and instances apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';

const company = kybSandboxScenarios.find((scenario) => scenario.id === 'active_company')!.request;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const verify = (tenant: Tenant, key: string | undefined, payload: object = company, app = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', headers: { ...tenant.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload });

const kybChecksOf = (tenant: Tenant, app = t) => app.context.storage.db.selectFrom('kyb_checks').select('id').where('account_id', '=', tenant.accountId).execute();
const usageToday = async (tenant: Tenant) => (await t.context.usage.peek(tenant.accountId, new Date())).today;

describe('Idempotency-Key', () => {
  it('runs 50 concurrent identical POSTs once, answers them alike and counts one call', async () => {
    const tenant = await t.tenant();
    const before = await usageToday(tenant);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(tenant, 'order-4711')));
    const checks = await kybChecksOf(tenant);
    expect(checks).toHaveLength(1);
    const ok = answers.filter((answer) => answer.statusCode === 200);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) errorBody(answer, 409, 'conflict');
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((answer) => answer.json().kybId))).toEqual(new Set([checks[0].id]));
    // the one request that ran answers without the replay mark; every other 200 is a replay
    expect(ok.filter((answer) => answer.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect((await usageToday(tenant)) - before).toBe(1);
  });

  it('replays the first answer byte for byte after it finished, without counting it again', async () => {
    const tenant = await t.tenant();
    const first = await verify(tenant, 'retry-me');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await usageToday(tenant);
    const again = await verify(tenant, 'retry-me', { ...company });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(again.body).toBe(first.body);
    expect(await usageToday(tenant)).toBe(before);
    expect(await kybChecksOf(tenant)).toHaveLength(1);
    // the same body with its fields in another order is the same request
    const reordered = Object.fromEntries(Object.entries(company).reverse());
    expect((await verify(tenant, 'retry-me', reordered)).body).toBe(first.body);
  });

  it('refuses the key with another body (422) and runs nothing', async () => {
    const tenant = await t.tenant();
    expect((await verify(tenant, 'once')).statusCode).toBe(200);
    errorBody(await verify(tenant, 'once', { ...company, companyName: 'Other Ltd' }), 422, 'idempotency_key_reused');
    expect(await kybChecksOf(tenant)).toHaveLength(1);
  });

  it('keeps tenants apart: the same key of another tenant is its own request', async () => {
    const [a, b] = [await t.tenant(), await t.tenant()];
    const first = await verify(a, 'shared-key');
    const second = await verify(b, 'shared-key');
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().kybId).not.toBe(first.json().kybId);
    expect(await kybChecksOf(b)).toHaveLength(1);
  });

  it('frees the key when its first request was invalid, and names a malformed key', async () => {
    const tenant = await t.tenant();
    errorBody(await verify(tenant, 'fix-and-retry', { companyName: 'Acme' }), 400, 'invalid_request');
    const fixed = await verify(tenant, 'fix-and-retry');
    expect(fixed.statusCode).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    for (const key of ['', 'x'.repeat(256), ' padded', 'tab\there']) {
      const response = await verify(tenant, key);
      expect(errorBody(response, 400, 'invalid_request').errors).toEqual([{ path: 'headers/idempotency-key', message: expect.any(String) }]);
    }
    // without the header nothing changes: two requests, two checks
    const plain = await t.tenant();
    await verify(plain, undefined);
    await verify(plain, undefined);
    expect(await kybChecksOf(plain)).toHaveLength(2);
  });

  it('holds across instances sharing a database', async () => {
    const second = await createTestApp({ sharing: t });
    try {
      const tenant = await t.tenant();
      const answers = await Promise.all([verify(tenant, 'two-replicas'), verify(tenant, 'two-replicas', company, second)]);
      expect(await kybChecksOf(tenant)).toHaveLength(1);
      const ok = answers.filter((answer) => answer.statusCode === 200);
      expect(new Set(ok.map((answer) => answer.json().kybId)).size).toBe(1);
    } finally {
      await second.close();
    }
  });
});
