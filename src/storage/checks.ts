import type { Kysely } from 'kysely';
import type { CheckKind, StoredCheck } from '../modules.ts';
import type { Database } from './schema.ts';

/** The table each kind of check is stored in. */
const CHECK_TABLES = {
  kyc: 'kyc_checks',
  kyb: 'kyb_checks',
  aml: 'aml_screenings',
  kya: 'kya_verifications',
} as const satisfies Record<CheckKind, keyof Database>;

/**
 * One check of one tenant: another tenant's id is undefined, as an unknown one is. `publicRecord` turns the stored
 * `record` JSON into the check's public JSON, for a kind that stores more than that.
 */
export async function findStoredCheck(
  db: Kysely<Database>,
  kind: CheckKind,
  accountId: string,
  id: string,
  publicRecord: (stored: unknown) => Record<string, unknown> = (stored) => stored as Record<string, unknown>,
): Promise<StoredCheck | undefined> {
  const row = await db
    .selectFrom(CHECK_TABLES[kind])
    .select(['id', 'account_id', 'environment', 'created_at', 'record'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind,
    accountId: row.account_id,
    environment: row.environment,
    createdAt: row.created_at,
    record: publicRecord(JSON.parse(row.record)),
  };
}
