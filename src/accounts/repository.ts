import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { newId } from '../ids.ts';
import { createEventLog } from '../events/log.ts';
import { checkEnvironment } from '../storage/checks.ts';
import { type PlanId, isPlanId } from './plans.ts';
import { type Environment, displayPrefix, generateApiKey, hashApiKey } from './api-keys.ts';
import type { Scope } from './scopes.ts';

export interface Account {
  id: string;
  name: string;
  planId: PlanId;
  dailyCapOverride: number | null;
  monthlyQuotaOverride: number | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  environment: Environment;
  displayPrefix: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface NewAccount {
  name: string;
  planId: PlanId;
  dailyCap?: number;
  monthlyQuota?: number;
}

export async function createAccount(db: Kysely<Database>, input: NewAccount, now = new Date()): Promise<Account> {
  const account: Account = {
    id: newId('acct'),
    name: input.name,
    planId: input.planId,
    dailyCapOverride: input.dailyCap ?? null,
    monthlyQuotaOverride: input.monthlyQuota ?? null,
    createdAt: now.toISOString(),
  };
  await db
    .insertInto('accounts')
    .values({
      id: account.id,
      name: account.name,
      plan_id: account.planId,
      daily_cap_override: account.dailyCapOverride,
      monthly_quota_override: account.monthlyQuotaOverride,
      created_at: account.createdAt,
    })
    .execute();
  return account;
}

export async function findAccount(db: Kysely<Database>, id: string): Promise<Account | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  if (!isPlanId(row.plan_id)) throw new Error(`account ${row.id} has unknown plan ${row.plan_id}`);
  return {
    id: row.id,
    name: row.name,
    planId: row.plan_id,
    dailyCapOverride: row.daily_cap_override,
    monthlyQuotaOverride: row.monthly_quota_override,
    createdAt: row.created_at,
  };
}

type ApiKeyRow = Database['api_keys'];

function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    environment: row.environment,
    displayPrefix: row.display_prefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Creates a key and returns it in plain text: the only moment it exists outside its owner's hands. */
export async function createApiKey(
  db: Kysely<Database>,
  input: { accountId: string; environment: Environment; scopes: Scope[] },
  now = new Date(),
): Promise<{ record: ApiKeyRecord; key: string }> {
  const key = generateApiKey(input.environment);
  const row: ApiKeyRow = {
    id: newId('key'),
    account_id: input.accountId,
    environment: input.environment,
    key_hash: hashApiKey(key),
    display_prefix: displayPrefix(key),
    scopes: JSON.stringify(input.scopes),
    created_at: now.toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { record: toApiKeyRecord(row), key };
}

export async function findApiKeyByHash(db: Kysely<Database>, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row && toApiKeyRecord(row);
}

export async function findApiKey(db: Kysely<Database>, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiKeyRecord(row);
}

export async function listApiKeys(db: Kysely<Database>, accountId?: string): Promise<ApiKeyRecord[]> {
  let query = db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
  if (accountId) query = query.where('account_id', '=', accountId);
  return (await query.execute()).map(toApiKeyRecord);
}

/** Returns false when no such key exists; revoking twice keeps the first revocation time. */
/** Revokes the key (true also when it was revoked already) and emits key.revoked in the same transaction. */
export async function revokeApiKey(db: Kysely<Database>, id: string, now = new Date()): Promise<boolean> {
  const revoked = await db.transaction().execute(async (trx) => {
    const key = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(['account_id', 'environment'])
      .executeTakeFirst();
    if (key) {
      await createEventLog().emit(
        trx,
        { accountId: key.account_id, environment: checkEnvironment(key.environment), type: 'key.revoked', data: { keyId: id, revokedAt: now.toISOString() } },
        now,
      );
    }
    return key !== undefined;
  });
  return revoked || (await findApiKey(db, id)) !== undefined;
}

export async function touchApiKey(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at.toISOString() }).where('id', '=', id).execute();
}

export async function getSetting(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Inserts the setting unless it exists; true when this call wrote it (so exactly one instance wins). */
export async function claimSetting(db: Kysely<Database>, key: string, value: string): Promise<boolean> {
  const result = await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
