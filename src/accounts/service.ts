// What other modules (the dashboard) do with an account: its keys and its usage, always within that account.
import type { Platform } from '../core.ts';
import { DomainError } from '../errors.ts';
import type { Environment } from './api-keys.ts';
import { METERS, type Meter } from './meters.ts';
import { PLANS, type Limits, effectiveLimits } from './plans.ts';
import { type Account, type ApiKeyRecord, createApiKey, findAccount, findApiKey, listApiKeys } from './repository.ts';
export type { ApiKeyRecord };
import type { Scope } from './scopes.ts';
import { dayBucket } from './usage.ts';
import { readBuckets } from './usage-repository.ts';

export interface AccountUsage {
  plan: { id: string; name: string };
  limits: Limits;
  today: number;
  thisMonth: number;
  meters: Record<Meter, number>;
  /** Calls per UTC day, oldest first, ending today. */
  days: { day: string; calls: number }[];
}

export interface AccountsService {
  find(accountId: string): Promise<Account | undefined>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** The new key in plain text: the only time it exists outside its owner's hands. */
  createKey(accountId: string, input: { environment: Environment; scopes: Scope[] }): Promise<{ record: ApiKeyRecord; key: string }>;
  /**
   * Revokes one of the account's keys: refused on this instance at once, elsewhere once their key cache expires.
   * Throws `not_found` for a key of another account.
   */
  revokeKey(accountId: string, keyId: string): Promise<ApiKeyRecord>;
  usage(accountId: string, now: Date, days?: number): Promise<AccountUsage>;
}

const DAY_MS = 86_400_000;

export function createAccountsService(platform: Platform): AccountsService {
  const { db } = platform.storage;
  const owned = async (accountId: string, keyId: string) => {
    const key = await findApiKey(db, keyId);
    if (!key || key.accountId !== accountId) throw new DomainError('not_found', 'No such key');
    return key;
  };
  return {
    find: (accountId) => findAccount(db, accountId),
    listKeys: (accountId) => listApiKeys(db, accountId),
    createKey: (accountId, input) => createApiKey(db, { accountId, ...input }),
    async revokeKey(accountId, keyId) {
      await owned(accountId, keyId);
      await platform.credentials.revoke(keyId);
      return owned(accountId, keyId);
    },
    async usage(accountId, now, days = 30) {
      const account = await findAccount(db, accountId);
      if (!account) throw new DomainError('not_found', 'No such account');
      const dayBuckets = Array.from({ length: days }, (_, index) => dayBucket(new Date(now.getTime() - (days - 1 - index) * DAY_MS)));
      const [current, meters, stored] = await Promise.all([
        platform.usage.peek(accountId, now),
        platform.meters.read(accountId, now),
        readBuckets(db, accountId, dayBuckets),
      ]);
      return {
        plan: { id: account.planId, name: PLANS[account.planId].name },
        limits: effectiveLimits(account.planId, { dailyCap: account.dailyCapOverride, monthlyQuota: account.monthlyQuotaOverride }),
        today: current.today,
        thisMonth: current.thisMonth,
        meters: Object.fromEntries(METERS.map((meter) => [meter, meters[meter]])) as Record<Meter, number>,
        // Today's count is the live counter's: the stored one trails it by the flush interval.
        days: dayBuckets.map((bucket, index) => ({
          day: bucket.slice('day:'.length),
          calls: index === days - 1 ? current.today : (stored.get(bucket) ?? 0),
        })),
      };
    },
  };
}
