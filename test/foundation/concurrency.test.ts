import { describe, expect, it, onTestFinished } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
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

/**
 * Closes the test's instances when it ends, not after the file: each holds up to ten idle Postgres connections, and
 * a file's worth of them left open exhausts the server's connections (shared with the other test files running).
 */
function closeAfterTest(...apps: TestApp[]): void {
  onTestFinished(async () => {
    for (const t of [...apps].reverse()) await t.close();
  });
}

/** Two instances over one Postgres and one Redis namespace, with a flood limit per hour; closed when the test ends. */
async function twoRedisInstances(floodLimit: number): Promise<[TestApp, TestApp]> {
  const env = { KYX_FLOOD_LIMIT: String(floodLimit), KYX_FLOOD_WINDOW_SECONDS: '3600' };
  const first = await createTestApp({ storage: 'postgres', redis: true, env });
  const second = await createTestApp({ storage: 'postgres', redis: true, sharing: first, env });
  closeAfterTest(first, second);
  return [first, second];
}

/**
 * The names of the commands the instances' requests send to Redis from now on (each connection is its instance's
 * own). The write-behind's MGET, sent every second whatever the requests do, is left out: when it falls is timing.
 */
function commandsSent(apps: TestApp[]): string[] {
  const sent: string[] = [];
  for (const t of apps) {
    const redis = t.context.redis!;
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      if (command.name !== 'mget') sent.push(command.name);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof redis.sendCommand;
  }
  return sent;
}

describe('exact counting under concurrency', () => {
  it('200 parallel requests against 50 remaining: exactly 50 succeed (this run\'s storage)', async () => {
    const t = await createTestApp();
    closeAfterTest(t);
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
    closeAfterTest(t, other);
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
    closeAfterTest(t, other);
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

  it.skipIf(!POSTGRES_URL)('on Postgres without Redis, batches counted side by side never pass the quota: each admitted answer reports its own count', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: false });
    const other = await createTestApp({ storage: 'postgres', redis: false, sharing: t });
    closeAfterTest(t, other);
    const tenant = await t.tenant({ plan: 'micro', dailyCap: 1000, monthlyQuota: 47 });
    for (let i = 0; i < 7; i++) expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
    // Waves sent on successive turns of the event loop, without waiting for answers: each instance has several
    // batches of the account on the rows at once, and so does the other instance.
    const pending = [];
    for (let wave = 0; wave < 12; wave++) {
      for (let i = 0; i < 20; i++) {
        const instance = [t, other][(wave + i) % 2];
        pending.push(instance.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: `10.2.${wave}.${i}` }));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const responses = await Promise.all(pending);
    const admitted = responses.filter((r) => r.statusCode === 200);
    expect(admitted.length).toBe(40);
    expect(responses.filter((r) => r.statusCode === 429 && r.json().code === 'MONTHLY_QUOTA_EXCEEDED').length).toBe(200);
    const remaining = admitted.map((r) => Number(r.headers['x-quota-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => i));
    const stored = await t.context.storage.db.selectFrom('usage_counters').select(['bucket', 'count']).where('account_id', '=', tenant.accountId).execute();
    expect(stored.find((row) => row.bucket.startsWith('day:'))?.count).toBe(47);
    expect(stored.find((row) => row.bucket.startsWith('month:'))?.count).toBe(47);
    const peeked = await other.context.usage.peek(tenant.accountId, new Date());
    expect(peeked).toEqual({ today: 47, thisMonth: 47 });
  });

  it.skipIf(!POSTGRES_URL)('on Postgres without Redis, a count is flushed to disk before it is answered', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: false });
    closeAfterTest(t);
    const tenant = await t.tenant({ plan: 'micro' });
    let lagging = 0;
    for (let i = 0; i < 20; i++) {
      expect((await t.context.usage.consume(tenant.accountId, { perDay: -1, perMonth: -1 }, new Date())).allowed).toBe(true);
      const { rows } = await sql<{ behind: boolean }>`SELECT pg_current_wal_flush_lsn() < pg_current_wal_insert_lsn() AS behind`.execute(t.context.storage.db);
      if (rows[0].behind) lagging++;
    }
    // A count committed without its flush leaves the flushed WAL behind what was written every time; another
    // session writing at that very moment can make a flushed one look behind now and then.
    expect(lagging).toBeLessThan(10);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('two instances on one Postgres + Redis share the daily cap', async () => {
    const first = await createTestApp({ storage: 'postgres', redis: true });
    const second = await createTestApp({ storage: 'postgres', redis: true, sharing: first });
    closeAfterTest(first, second);
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
    closeAfterTest(first, second);
    const tenant = await first.tenant({ plan: 'growth' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        [first, second][i % 2].app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '192.0.2.77' }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200).length).toBe(30);
    expect(responses.filter((r) => r.statusCode === 429 && r.json().code === 'rate_limited').length).toBe(20);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('with Redis, a request of a key the instance knows sends one script for flood window, day and month, and both limits stay exact', async () => {
    const [first, second] = await twoRedisInstances(40);
    const tenant = await first.tenant({ plan: 'micro', dailyCap: 25 });
    const address = '192.0.2.91';
    const request = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: address });

    // Commands each instance sends to Redis (the connection is the instance's own).
    const sent = commandsSent([first, second]);
    // The first request looks the key up in storage, so it goes the long way: flood window, then the counters.
    expect((await request(first)).statusCode).toBe(200);
    sent.length = 0;
    const again = await request(first);
    expect(again.statusCode).toBe(200);
    expect(sent).toEqual(['evalsha']);
    expect(again.headers['ratelimit-remaining']).toBe('38');
    expect(again.headers['x-quota-remaining']).toBe(String(10_000 - 2));

    // 60 more from the same address over both instances. The second instance has not seen the key, and its 30 all
    // start before any of them has verified it, so they take the long way (window, then counters) while the first
    // instance's 30 send the one script: 38 fit the flood window, of which 23 fit the day; the 22 the window refuses
    // consume nothing. (The next test warms both instances so that every request goes through the one script.)
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => request([first, second][i % 2])));
    // One tally, so that a stray answer (a 500, a 503) shows up by its status and code.
    const tally: Record<string, number> = {};
    for (const r of responses) {
      const code = r.statusCode === 200 ? 'ok' : `${r.statusCode} ${r.json().code}`;
      tally[code] = (tally[code] ?? 0) + 1;
    }
    expect(tally).toEqual({ ok: 23, '429 DAILY_CAP_EXCEEDED': 15, '429 rate_limited': 22 });
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-quota-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 23 }, (_, i) => 10_000 - 25 + i));
    const floodKeys = await first.context.redis!.keys(`${first.config.redisPrefix}flood:*:${address}`);
    expect(floodKeys).toHaveLength(1);
    expect(Number(await first.context.redis!.get(floodKeys[0]))).toBe(62);
    expect(await first.context.redis!.pttl(floodKeys[0])).toBeGreaterThan(3_600_000);
    expect(await first.context.usage.peek(tenant.accountId, new Date())).toEqual({ today: 25, thisMonth: 25 });
    await first.context.usage.flush();
    await second.context.usage.flush();
    const stored = await first.context.storage.db.selectFrom('usage_counters').select(['bucket', 'count']).where('account_id', '=', tenant.accountId).execute();
    expect(stored.find((row) => row.bucket.startsWith('day:'))?.count).toBe(25);
    expect(stored.find((row) => row.bucket.startsWith('month:'))?.count).toBe(25);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('with Redis, the one script refuses exactly past a flood limit below the remaining cap and consumes nothing then', async () => {
    const [first, second] = await twoRedisInstances(10);
    const tenant = await first.tenant({ plan: 'micro', dailyCap: 100 });
    const address = '192.0.2.93';
    const request = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: address });
    // Both instances verify the key once, one after the other, so that each knows it and sends the one script.
    expect((await request(first)).statusCode).toBe(200);
    expect((await request(second)).statusCode).toBe(200);
    const sent = commandsSent([first, second]);

    // 20 at once, 10 on each: 8 fit the window of 10 (2 are used), far below the day's 100; the other 12 are refused
    // by the window and consume nothing, so the day holds exactly 10.
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => request([first, second][i % 2])));
    expect(sent).toEqual(Array(20).fill('evalsha'));
    const codes = responses.map((r) => (r.statusCode === 200 ? 'ok' : `${r.statusCode} ${r.json().code}`));
    expect(codes.filter((code) => code === 'ok')).toHaveLength(8);
    expect(codes.filter((code) => code === '429 rate_limited')).toHaveLength(12);
    expect(await first.context.usage.peek(tenant.accountId, new Date())).toEqual({ today: 10, thisMonth: 10 });
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

    // and one after the other past the limit, on either instance: refused, nothing consumed
    for (const t of [first, second]) {
      const answer = await request(t);
      expect([answer.statusCode, answer.json().code, answer.headers['ratelimit-remaining']]).toEqual([429, 'rate_limited', '0']);
    }
    expect(await first.context.usage.peek(tenant.accountId, new Date())).toEqual({ today: 10, thisMonth: 10 });
    const floodKeys = await first.context.redis!.keys(`${first.config.redisPrefix}flood:*:${address}`);
    expect(Number(await first.context.redis!.get(floodKeys[0]))).toBe(24);
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('with Redis, a request the one script refused is answered 429 even if the count alone would admit it', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: true, env: { KYX_FLOOD_LIMIT: '10', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
    closeAfterTest(t);
    const tenant = await t.tenant({ plan: 'micro', dailyCap: 100 });
    // A script and a gate that disagree (the script refused at a count the gate's limit admits) must not answer 500.
    t.context.usage.consumeAfterFlood = async () => ({ flood: 1 });
    const app = await buildApp(t.context, { logger: false });
    onTestFinished(() => app.close());
    const request = () => app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '192.0.2.94' });
    expect((await request()).statusCode).toBe(200); // verifies the key: the long way
    const refused = await request();
    expect([refused.statusCode, refused.json().code, refused.headers['ratelimit-remaining']]).toEqual([429, 'rate_limited', '0']);
    expect(await t.context.usage.peek(tenant.accountId, new Date())).toEqual({ today: 1, thisMonth: 1 });
  });

  it.skipIf(!POSTGRES_URL || !REDIS_URL)('with Redis, the one script seeds counters Redis lost and counts the flood window once', async () => {
    const t = await createTestApp({ storage: 'postgres', redis: true, env: { KYX_FLOOD_LIMIT: '1000', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
    closeAfterTest(t);
    const tenant = await tenantWithRemaining(t, 4, 3);
    await t.context.usage.flush();
    const redis = t.context.redis!;
    await redis.del(...(await redis.keys(`${t.config.redisPrefix}usage:*`)));
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers, remoteAddress: '192.0.2.92' }));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['999', '998', '997', '996', '995']);
    expect(await t.context.usage.peek(tenant.accountId, new Date())).toEqual({ today: 7, thisMonth: 7 });
  });

  it('reports what it skipped', () => {
    warnSkipped('Postgres and Redis concurrency tests (SQL upsert, two instances sharing a cap and a flood window)');
    expect(true).toBe(true);
  });
});
