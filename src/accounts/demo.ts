import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { claimSetting, createAccount, createApiKey } from './repository.ts';
import { SCOPES } from './scopes.ts';

export interface DemoAccount {
  accountId: string;
  testKey: string;
  liveKey: string;
}

/**
 * On the very first start only: a Developer Sandbox account with one test and one live key. The claim is a
 * row, so of several instances starting together exactly one creates it.
 */
export async function seedDemoAccount(db: Kysely<Database>): Promise<DemoAccount | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await claimSetting(trx, 'demo_account', new Date().toISOString()))) return null;
    const account = await createAccount(trx, { name: 'Demo', planId: 'developer_sandbox' });
    const test = await createApiKey(trx, { accountId: account.id, environment: 'test', scopes: [...SCOPES] });
    const live = await createApiKey(trx, { accountId: account.id, environment: 'live', scopes: [...SCOPES] });
    return { accountId: account.id, testKey: test.key, liveKey: live.key };
  });
}
