import type { JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { type Account, type ApiKeyRecord, findAccount, findApiKey, findApiKeyByHash, revokeApiKey, touchApiKey } from './repository.ts';
import { type Environment, hashApiKey, looksLikeApiKey } from './api-keys.ts';
import { type Limits, PLANS, effectiveLimits } from './plans.ts';
import { type Scope, isScope } from './scopes.ts';
import type { Keyring } from './signing-keys.ts';

/** Who is calling, established from an API key or from a JWT that one minted. */
export interface Principal {
  account: Account;
  keyId: string;
  environment: Environment;
  scopes: Scope[];
  limits: Limits;
  plan: { id: string; name: string };
  via: 'api_key' | 'jwt' | 'oauth';
}

/** What an OAuth grant lets its tokens do; undefined once the grant is revoked. */
export type GrantLookup = (grantId: string) => Promise<{ accountId: string; environment: Environment; scopes: Scope[] } | undefined>;

/**
 * A bearer credential as sent, with the hash an API key is looked up by, computed once: the gate asks `cached` and
 * then, on a miss, `authenticate` with the same value, which would otherwise hash the key twice.
 */
export interface PresentedCredential {
  bearer: string;
  /** The API key's lookup hash; null when the bearer is not shaped like an API key. */
  keyHash: string | null;
}

export function presentCredential(bearer: string): PresentedCredential {
  return { bearer, keyHash: looksLikeApiKey(bearer) ? hashApiKey(bearer) : null };
}

export interface Credentials {
  authenticate(bearer: string | PresentedCredential): Promise<Principal | null>;
  /**
   * The principal of an API key this instance verified within the cache's lifetime, found without any I/O; undefined
   * when answering needs storage (not cached, expired, revoked here, or not an API key): then ask `authenticate`.
   */
  cached(bearer: string | PresentedCredential): Principal | undefined;
  mintToken(principal: Principal, clientId: string): Promise<{ accessToken: string; expiresIn: number }>;
  /** An access token of an OAuth grant, limited to `scopes` (a subset of the grant's). */
  mintGrantToken(grant: { grantId: string; accountId: string; environment: Environment; scopes: Scope[]; clientId: string }): Promise<{ accessToken: string; expiresIn: number }>;
  /** Verifies one of the grant tokens this service minted: the grant id and client it was minted for, else null. */
  grantOfToken(token: string): Promise<{ grantId: string; clientId: string } | null>;
  /** Tells credentials how to look up grants (the OAuth module does, at set-up). */
  acceptGrants(lookup: GrantLookup): void;
  revoke(keyId: string): Promise<boolean>;
}

interface CachedKey {
  record: ApiKeyRecord;
  account: Account;
  expiresAt: number;
  /** The key's own principal, made on first use: nothing in it changes while the entry is trusted. */
  principal?: Principal;
}

const TOUCH_INTERVAL_MS = 60_000;

export function createCredentials(options: {
  db: Kysely<Database>;
  keyring: Keyring;
  issuer: string;
  tokenTtlSeconds: number;
  /** How long a looked-up key is trusted without asking storage: the bound on revocation delay elsewhere. */
  cacheTtlMs: number;
}): Credentials {
  const { db, keyring, issuer, tokenTtlSeconds, cacheTtlMs } = options;
  const byHash = new Map<string, CachedKey>();
  const byId = new Map<string, CachedKey>();
  const lastTouched = new Map<string, number>();

  const remember = (hash: string | null, entry: CachedKey) => {
    if (cacheTtlMs === 0) return;
    if (hash) byHash.set(hash, entry);
    byId.set(entry.record.id, entry);
  };

  const load = async (record: ApiKeyRecord | undefined): Promise<CachedKey | null> => {
    if (!record || record.revokedAt) return null;
    const account = await findAccount(db, record.accountId);
    if (!account) return null;
    return { record, account, expiresAt: Date.now() + cacheTtlMs };
  };

  const keyByHash = async (hash: string) => {
    const cached = byHash.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached;
    byHash.delete(hash);
    const entry = await load(await findApiKeyByHash(db, hash));
    if (entry) remember(hash, entry);
    return entry;
  };

  const keyById = async (id: string) => {
    const cached = byId.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached;
    byId.delete(id);
    const entry = await load(await findApiKey(db, id));
    if (entry) remember(null, entry);
    return entry;
  };

  const touch = (keyId: string) => {
    const now = Date.now();
    if ((lastTouched.get(keyId) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    lastTouched.set(keyId, now);
    touchApiKey(db, keyId, new Date(now)).catch(() => lastTouched.delete(keyId));
  };

  const principalOf = (entry: { account: Account; record: Pick<ApiKeyRecord, 'id' | 'environment'> }, scopes: Scope[], via: Principal['via']): Principal => ({
    account: entry.account,
    keyId: entry.record.id,
    environment: entry.record.environment,
    scopes,
    limits: effectiveLimits(entry.account.planId, {
      dailyCap: entry.account.dailyCapOverride,
      monthlyQuota: entry.account.monthlyQuotaOverride,
    }),
    plan: { id: entry.account.planId, name: PLANS[entry.account.planId].name },
    via,
  });

  let lookupGrant: GrantLookup | undefined;

  const verified = async (token: string) => {
    try {
      // typ keeps other documents this keyring signs (KYA certificates) from ever passing as access tokens.
      return await keyring.verify(token, { issuer, typ: 'JWT', requiredClaims: ['sub', 'acct', 'env', 'scope'] });
    } catch {
      return null;
    }
  };

  // A grant's token is good while the grant stands, for its account, environment and scopes.
  const fromGrant = async (payload: JWTPayload & { grt: string }): Promise<Principal | null> => {
    const grant = await lookupGrant?.(payload.grt);
    if (!grant || grant.accountId !== payload.acct || grant.environment !== payload.env || typeof payload.scope !== 'string') return null;
    const account = await findAccount(db, grant.accountId);
    if (!account) return null;
    const scopes = payload.scope.split(' ').filter(isScope);
    if (scopes.some((scope) => !grant.scopes.includes(scope))) return null;
    return principalOf({ account, record: { id: payload.grt, environment: grant.environment } }, scopes, 'oauth');
  };

  const fromJwt = async (token: string): Promise<Principal | null> => {
    const payload = await verified(token);
    if (!payload) return null;
    if (typeof payload.grt === 'string') return fromGrant(payload as JWTPayload & { grt: string });
    if (typeof payload.kfid !== 'string' || typeof payload.acct !== 'string' || typeof payload.scope !== 'string') return null;
    const entry = await keyById(payload.kfid);
    // The token is only as good as the key that minted it, and only for that key's tenant and environment.
    if (!entry || entry.account.id !== payload.acct || entry.record.environment !== payload.env) return null;
    const scopes = payload.scope.split(' ').filter(isScope);
    if (scopes.some((scope) => !entry.record.scopes.includes(scope))) return null;
    return principalOf(entry, scopes, 'jwt');
  };

  const keyPrincipal = (entry: CachedKey): Principal => {
    touch(entry.record.id);
    return (entry.principal ??= principalOf(entry, entry.record.scopes, 'api_key'));
  };

  return {
    async authenticate(sent) {
      const { bearer, keyHash } = typeof sent === 'string' ? presentCredential(sent) : sent;
      if (keyHash !== null) {
        const entry = await keyByHash(keyHash);
        return entry ? keyPrincipal(entry) : null;
      }
      if (bearer.split('.').length === 3) return fromJwt(bearer);
      return null;
    },
    cached(sent) {
      if (cacheTtlMs === 0) return undefined;
      const { keyHash } = typeof sent === 'string' ? presentCredential(sent) : sent;
      if (keyHash === null) return undefined;
      const entry = byHash.get(keyHash);
      return entry && entry.expiresAt > Date.now() ? keyPrincipal(entry) : undefined;
    },
    async mintToken(principal, clientId) {
      const accessToken = await keyring.sign(
        { acct: principal.account.id, env: principal.environment, scope: principal.scopes.join(' '), kfid: principal.keyId },
        { issuer, subject: clientId, expiresInSeconds: tokenTtlSeconds },
      );
      return { accessToken, expiresIn: tokenTtlSeconds };
    },
    async mintGrantToken({ grantId, accountId, environment, scopes, clientId }) {
      const accessToken = await keyring.sign(
        { acct: accountId, env: environment, scope: scopes.join(' '), grt: grantId },
        { issuer, subject: clientId, expiresInSeconds: tokenTtlSeconds },
      );
      return { accessToken, expiresIn: tokenTtlSeconds };
    },
    async grantOfToken(token) {
      const payload = token.split('.').length === 3 ? await verified(token) : null;
      return payload && typeof payload.grt === 'string' && typeof payload.sub === 'string' ? { grantId: payload.grt, clientId: payload.sub } : null;
    },
    acceptGrants(lookup) {
      lookupGrant = lookup;
    },
    async revoke(keyId) {
      const existed = await revokeApiKey(db, keyId);
      byId.delete(keyId);
      for (const [hash, entry] of byHash) if (entry.record.id === keyId) byHash.delete(hash);
      return existed;
    },
  };
}
