import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { sql } from 'kysely';
import { type TestApp, createTestApp, errorBody } from '../helpers/app.ts';
import { hashApiKey } from '../../src/accounts/api-keys.ts';
import { presentCredential } from '../../src/accounts/credentials.ts';
import { revokeApiKey } from '../../src/accounts/repository.ts';

// The key cache's lifetime in these tests; its expiry is reached by moving the clock, never by waiting.
const CACHE_MS = 4_000;
function passCacheLifetime(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + CACHE_MS + 1);
}

describe('API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('have the contract prefixes and at least 32 random bytes of base62', async () => {
    const test = await t.tenant({ env: 'test' });
    const live = await t.tenant({ env: 'live' });
    expect(test.key).toMatch(/^svc_test_sk_[0-9A-Za-z]{43,}$/);
    expect(live.key).toMatch(/^svc_live_sk_[0-9A-Za-z]{43,}$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: live.headers })).json().environment).toBe('live');
  });

  it('the database holds no key in plain text, only its SHA-256 and a short prefix', async () => {
    const tenant = await t.tenant();
    const rows = await t.context.storage.db.selectFrom('api_keys').selectAll().where('id', '=', tenant.keyId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(hashApiKey(tenant.key));
    expect(tenant.key.startsWith(rows[0].display_prefix)).toBe(true);
    expect(rows[0].display_prefix.length).toBeLessThanOrEqual(16);
    // no column of any table carries the key or its random part
    const secret = tenant.key.slice(12);
    const tables = ['accounts', 'api_keys', 'signing_keys', 'usage_counters', 'settings'];
    for (const table of tables) {
      const all = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.context.storage.db);
      expect(JSON.stringify(all.rows)).not.toContain(secret);
    }
  });

  it('a revoked key answers 401 at once on the instance that revoked it', async () => {
    const tenant = await t.tenant();
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
    expect(await t.context.credentials.revoke(tenant.keyId)).toBe(true);
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers }), 401, 'unauthorized');
  });

  it('a key revoked elsewhere (another instance, the CLI) stops working once the cache lapses', async () => {
    const other = await createTestApp({ env: { KYX_KEY_CACHE_MS: String(CACHE_MS) } });
    onTestFinished(() => void vi.useRealTimers());
    try {
      const tenant = await other.tenant();
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
      await revokeApiKey(other.context.storage.db, tenant.keyId);
      // still trusted from the cache while it stands
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
      passCacheLifetime();
      errorBody(await other.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers }), 401, 'unauthorized');
    } finally {
      await other.close();
    }
  });

  it('are known without storage only while their cache entry stands: not before a look-up, not after a revocation or expiry', async () => {
    const other = await createTestApp({ env: { KYX_KEY_CACHE_MS: String(CACHE_MS) } });
    onTestFinished(() => void vi.useRealTimers());
    try {
      const [kept, revoked] = [await other.tenant(), await other.tenant()];
      expect(other.context.credentials.cached(kept.key)).toBeUndefined();
      for (const tenant of [kept, revoked]) expect((await other.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).statusCode).toBe(200);
      const principal = other.context.credentials.cached(kept.key);
      expect(principal).toMatchObject({ keyId: kept.keyId, account: { id: kept.accountId }, via: 'api_key' });
      // the same principal for every request of the entry, not one made per request
      expect(other.context.credentials.cached(kept.key)).toBe(principal);
      expect(other.context.credentials.cached(`${kept.key}x`)).toBeUndefined();
      await other.context.credentials.revoke(revoked.keyId);
      expect(other.context.credentials.cached(revoked.key)).toBeUndefined();
      // a moment before the entry lapses it stands, then it is gone
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + CACHE_MS - 1_000);
      expect(other.context.credentials.cached(kept.key)).toBe(principal);
      vi.setSystemTime(Date.now() + 1_001);
      expect(other.context.credentials.cached(kept.key)).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('are looked up by the hash computed once when the credential was presented', async () => {
    const tenant = await t.tenant();
    const presented = presentCredential(tenant.key);
    expect(presented.keyHash).toBe(hashApiKey(tenant.key));
    expect(presentCredential('not-a-key').keyHash).toBeNull();
    // the hash decides, not the bearer text: a presented hash is not computed again
    const principal = await t.context.credentials.authenticate({ bearer: 'svc_test_sk_unused', keyHash: presented.keyHash });
    expect(principal).toMatchObject({ keyId: tenant.keyId, via: 'api_key' });
    expect(t.context.credentials.cached({ bearer: 'svc_test_sk_unused', keyHash: presented.keyHash })).toBe(principal);
    expect(await t.context.credentials.authenticate({ bearer: tenant.key, keyHash: hashApiKey(`${tenant.key}x`) })).toBeNull();
  });

  it('records last_used_at', async () => {
    const tenant = await t.tenant();
    const before = await t.context.storage.db.selectFrom('api_keys').select('last_used_at').where('id', '=', tenant.keyId).executeTakeFirstOrThrow();
    expect(before.last_used_at).toBeNull();
    await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers });
    await expect
      .poll(async () => (await t.context.storage.db.selectFrom('api_keys').select('last_used_at').where('id', '=', tenant.keyId).executeTakeFirstOrThrow()).last_used_at)
      .not.toBeNull();
  });
});
