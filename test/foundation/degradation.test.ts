// Graceful degradation: with Redis or Postgres gone (a relay in front of the machine's real server, cut and
// restored; the servers themselves are shared and stay up) or the SQLite disk full, requests answer 503 not_ready
// with the contract's body, nothing is admitted uncounted, the process keeps running, and it recovers by itself.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { POSTGRES_URL, REDIS_URL, type TestApp, type TestAppOptions, createTestApp, errorBody, warnSkipped } from '../helpers/app.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KYB_REQUEST = kybSandboxScenarios[0].request;

/** Polls until `request` answers `status` (bounded); returns the answer. */
async function eventually<Answer extends { statusCode: number }>(request: () => Promise<Answer>, status: number): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const response = await request();
    if (response.statusCode === status || attempt === 60) return response;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function unavailable(response: Parameters<typeof errorBody>[0], service: RegExp) {
  const body = errorBody(response, 503, 'not_ready');
  expect(body.message).toMatch(service);
  expect(response.headers['retry-after']).toBe('1');
}

const call = (t: TestApp, headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A test app reaching Postgres or Redis through a relay the test cuts, with a tenant. */
async function appBehindRelay(serverUrl: string, defaultPort: number, options: (relayedUrl: string) => TestAppOptions) {
  const relay = await startTcpProxy(serverUrl, defaultPort);
  cleanups.push(() => relay.close());
  const t = await createTestApp(options(relay.url));
  cleanups.push(() => t.close());
  return { relay, t, tenant: await t.tenant({ plan: 'micro' }) };
}

warnSkipped('Redis and Postgres outage tests');

describe.skipIf(!REDIS_URL)('Redis unavailable', () => {
  it('fails closed with 503 not_ready while Redis is away, and serves again once it is back, in the same process', async () => {
    const { relay, t, tenant } = await appBehindRelay(REDIS_URL!, 6379, (redisUrl) => ({ storage: 'sqlite', redis: true, redisUrl }));
    const validate = () => call(t, tenant.headers, 'GET', '/api/v1/validate-key');
    expect((await validate()).statusCode).toBe(200);

    await relay.cut();
    unavailable(await validate(), /redis/i);
    expect((await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST)).statusCode).toBe(503);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    await relay.restore();
    const back = await eventually(validate, 200);
    expect(back.statusCode).toBe(200);
    // the refused requests consumed nothing: two admitted in all
    expect(back.json().usage.today).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe.skipIf(!POSTGRES_URL)('Postgres unavailable', () => {
  it('answers 503 not_ready during the outage and recovers without a restart, with nothing stored lost', async () => {
    const { relay, t, tenant } = await appBehindRelay(POSTGRES_URL!, 5432, (databaseUrl) => ({ storage: 'postgres', redis: false, databaseUrl }));
    const verified = await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST);
    expect(verified.statusCode).toBe(200);
    const { kybId } = verified.json();

    // every pooled connection is cut, as a restart of the server does, and new ones are refused
    await relay.cut();
    unavailable(await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST), /storage/);
    unavailable(await call(t, tenant.headers, 'GET', `/api/v1/kyb/checks/${kybId}`), /storage/);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    await relay.restore();
    const read = await eventually(() => call(t, tenant.headers, 'GET', `/api/v1/kyb/checks/${kybId}`), 200);
    expect(read.statusCode).toBe(200);
    expect(read.json().kybId).toBe(kybId);
    expect((await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('SQLite disk full', () => {
  // A full disk is reproduced with SQLite's own size limit (PRAGMA max_page_count on kyx's connection): the
  // database cannot grow, exactly the SQLITE_FULL a full file system gives, without needing a tmpfs mount.
  it('answers 503 not_ready for writes, keeps what it stored intact and readable, and writes again once there is room', async () => {
    const t = await createTestApp({ storage: 'sqlite', redis: false });
    cleanups.push(() => t.close());
    const tenant = await t.tenant({ plan: 'growth' });
    const stored = await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST);
    expect(stored.statusCode).toBe(200);
    const { db } = t.context.storage;
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
    await sql.raw(`PRAGMA max_page_count = ${rows[0].page_count}`).execute(db);

    let full: Awaited<ReturnType<typeof call>> | undefined;
    const accepted: string[] = [];
    for (let attempt = 0; attempt < 300 && !full; attempt++) {
      const response = await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST);
      if (response.statusCode === 200) accepted.push(response.json().kybId);
      else full = response;
    }
    expect(full).toBeDefined();
    unavailable(full!, /storage/);

    const integrity = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
    expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
    for (const kybId of [stored.json().kybId, ...accepted]) {
      expect((await call(t, tenant.headers, 'GET', `/api/v1/kyb/checks/${kybId}`)).statusCode).toBe(200);
    }

    await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
    expect((await call(t, tenant.headers, 'POST', '/api/v1/kyb/verify', KYB_REQUEST)).statusCode).toBe(200);
  });
});
