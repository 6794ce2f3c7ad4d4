import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../helpers/app.ts';
import { PLANS, PLAN_IDS } from '../../src/accounts/plans.ts';

// The specification's tables, written out again here so a change to src/accounts/plans.ts cannot pass unseen.
const EXPECTED = {
  developer_sandbox: { name: 'Developer Sandbox', perDay: 100, perMonth: 1000, advisory: 60 },
  micro: { name: 'Micro', perDay: 5000, perMonth: 10000, advisory: 120 },
  growth: { name: 'Growth', perDay: 25000, perMonth: 50000, advisory: 600 },
  scale: { name: 'Scale', perDay: 100000, perMonth: 150000, advisory: 2000 },
  enterprise: { name: 'Enterprise', perDay: -1, perMonth: -1, advisory: 10000 },
  essential: { name: 'Essential', perDay: 100, perMonth: 1000, advisory: 60 },
  plus: { name: 'Plus', perDay: 100, perMonth: 1000, advisory: 60 },
  elite: { name: 'Elite', perDay: 100, perMonth: 1000, advisory: 60 },
} as const;

describe('plans through validate-key and the headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('knows exactly the eight plans of the contract', () => {
    expect([...PLAN_IDS].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(PLANS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', async (planId, plan) => {
    const tenant = await t.tenant({ plan: planId as keyof typeof EXPECTED, env: 'live' });
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      valid: true,
      keyId: tenant.keyId,
      accountId: tenant.accountId,
      environment: 'live',
      plan: { id: planId, name: plan.name },
      limits: { requestsPerDay: plan.perDay, requestsPerMonth: plan.perMonth, advisoryPerMinute: plan.advisory },
      usage: { today: 1, thisMonth: 1, kycChecks: 0, kybChecks: 0, amlScreenings: 0, kyaChecks: 0 },
    });
    expect(response.headers['x-ratelimit-limit']).toBe(String(plan.advisory));
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(response.headers['x-ratelimit-reset']).toBeUndefined();
    expect(response.headers['ratelimit-limit']).toBe('600');
    if (plan.perMonth === -1) {
      expect(response.headers['x-quota-limit']).toBeUndefined();
      expect(response.headers['x-quota-remaining']).toBeUndefined();
      expect(response.headers['x-quota-reset']).toBeUndefined();
    } else {
      expect(response.headers['x-quota-limit']).toBe(String(plan.perMonth));
      expect(response.headers['x-quota-remaining']).toBe(String(plan.perMonth - 1));
      const now = new Date();
      expect(Number(response.headers['x-quota-reset'])).toBe(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
    }
  });

  it('applies contract overrides of the daily cap and monthly quota', async () => {
    const tenant = await t.tenant({ plan: 'micro', dailyCap: 7, monthlyQuota: 70 });
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).json();
    expect(body.limits).toEqual({ requestsPerDay: 7, requestsPerMonth: 70, advisoryPerMinute: 120 });
  });

  it('counts every authenticated /api/v1 call once, test keys included, and not /api/auth/validate', async () => {
    const tenant = await t.tenant({ env: 'test' });
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers });
    const validate = await t.app.inject({ method: 'POST', url: '/api/auth/validate', headers: tenant.headers });
    expect(validate.json()).toEqual({
      valid: true,
      accountId: tenant.accountId,
      keyId: tenant.keyId,
      environment: 'test',
      permissions: expect.arrayContaining(['kyc:write', 'escrow:read']),
    });
    expect(validate.headers['x-quota-remaining']).toBe('997');
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).json();
    expect(body.usage).toMatchObject({ today: 4, thisMonth: 4 });
  });
});
