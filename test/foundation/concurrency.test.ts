import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, REDIS_URL, type TestApp, createTestApp, warnSkipped } from '../helpers/app.ts';

async function burst(apps: TestApp[], headers: Record<string, string>, count: number) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      apps[i % apps.length].app.inject({ method: 'GET', url: '/api/v1/validate-key', headers, remoteAddress: `10.0.${i % 250}.1` }),
    ),
  );
  const statuses = responses.map((r) => r.statusCode);
  return { ok: statuses.filter((s) => s === 200).length, capped: responses.filter((r) => r.statusCode === 429 && r.json().code === 'DAILY_CAP_EXCEEDED').length, statuses };
}

/** Uses up `used` calls so that `remaining` are left of a daily cap of used + remaining. */
async function tenantWithRemaining(t: TestApp, used: number, remaining: number) {
  const tenant = await t.tenant({ plan: 'micro', dailyCap: used + remaining });
  for (let i = 0; i < used; i++) {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
  }
  return tenant;
}

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
});

describe('exact counting under concurrency', () => {
  it('200 parallel requests against 50 remaining: exactly 50 succeed (this run\'s storage)', async () => {
    const t = await createTestApp();
    opened.push(t);
    const tenant = await tenantWithRemaining(t, 10, 50);
    const result = await burst([t], tenant.headers, 200);
    expect(result.ok).toBe(50);
    expect(result.capped).toBe(150);
    await t.context.usage.flush();
    const stored = await t.context.storage.db.selectFrom('usage_counters').select(['bucket', 'count']).where('account_id', '=', tenant.accountId).execute();
    expect(stored.find((r) => r.bucket.startsWith('day:'))?.count).toBe(60);
  });

  it.skipIf(!POSTGRES_URL)('on Postgres without Redis, batched counting admits exactly 50, also from two instances', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: false });
    const other = await createTestApp({ storage: 'postgres', redis: false, sharing: t });
    opened.push(t, other);
    const tenant = await tenantWithRemaining(t, 5, 50);
    const result = await burst([t], tenant.headers, 200);
    expect(result.ok).toBe(50);
    expect(result.capped).toBe(150);

    const shared = await tenantWithRemaining(t, 5, 50);
    const both = await burst([t, other], shared.headers, 200);
    expect(both.ok).toBe(50);
    expect(both.capped).toBe(150);
    const stored = await t.context.storage.db.selectFrom('usage_counters').select(['bucket', 'count']).where('account_id', '=', shared.accountId).execute();
    expect(stored.find((row) => row.bucket.startsWith('day:'))?.count).toBe(55);
    expect(stored.find((row) => row.bucket.startsWith('month:'))?.count).toBe(55);
  });

  it.skipIf(!POSTGRES_URL)('on Postgres without Redis, a month quota reached inside a batch admits exactly what is left and counts no refused day', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: false });
    const other = await createTestApp({ storage: 'postgres', redis: false, sharing: t });
    opened.push(t, other);
    const tenant = await t.tenant({ plan: 'micro', dailyCap: 100, monthlyQuota: 30 });
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, i) => [t, other][i % 2].app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: `10.1.${i}.1` })),
    );
    expect(responses.filter((r) => r.statusCode === 200).length).toBe(30);
    expect(responses.filter((r) => r.statusCode === 429 && r.json().code === 'MONTHLY_QUOTA_EXCEEDED').length).toBe(50);
    const stored = await t.context.storage.db.selectFrom('usage_counters').select(['bucket', 'count']).where('account_id', '=', tenant.accountId).execute();
    expect(stored.find((row) => row.bucket.startsWith('day:'))?.count).toBe(30);
    expect(stored.find((row) => row.bucket.startsWith('month:'))?.count).toBe(30);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('two instances on one Postgres + Redis share the daily cap', async () => {
    const first = await createTestApp({ storage: 'postgres', redis: true });
    const second = await createTestApp({ storage: 'postgres', redis: true, sharing: first });
    opened.push(first, second);
    const tenant = await tenantWithRemaining(first, 3, 50);
    const result = await burst([first, second], tenant.headers, 200);
    expect(result.ok).toBe(50);
    // and a restart of the counters (Redis emptied) resumes from what Postgres holds
    await first.context.usage.flush();
    await second.context.usage.flush();
    const keys = await first.context.redis!.keys(`${first.config.redisPrefix}usage:*`);
    await first.context.redis!.del(...keys);
    const after = await second.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers });
    expect(after.statusCode).toBe(429);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('two instances share one flood window', async () => {
    const first = await createTestApp({ storage: 'postgres', redis: true, env: { KYX_FLOOD_LIMIT: '30', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
    const second = await createTestApp({ storage: 'postgres', redis: true, sharing: first, env: { KYX_FLOOD_LIMIT: '30', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
    opened.push(first, second);
    const tenant = await first.tenant({ plan: 'growth' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        [first, second][i % 2].app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '192.0.2.77' }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200).length).toBe(30);
    expect(responses.filter((r) => r.statusCode === 429 && r.json().code === 'rate_limited').length).toBe(20);
  });

  it('reports what it skipped', () => {
    warnSkipped('Postgres and Redis concurrency tests (SQL upsert, two instances sharing a cap and a flood window)');
    expect(true).toBe(true);
  });
});
