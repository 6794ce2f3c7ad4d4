// Bundles and their archives: the only code that reads or writes those tables.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { enqueueJob } from '../storage/jobs.ts';
import type { BundlesTable } from './tables.ts';

export const BUNDLE_JOB = 'bundle.build';

export interface BundleRepository {
  /** Stores the bundle and queues the job that builds it, together. */
  insertQueued(row: BundlesTable, now: Date): Promise<void>;
  find(bundleId: string): Promise<BundlesTable | undefined>;
  findForAccount(accountId: string, bundleId: string): Promise<BundlesTable | undefined>;
  /** The tenant's bundles registered for one check or group, newest first. */
  listForCheck(accountId: string, checkId: string): Promise<BundlesTable[]>;
  /** The archive of a ready bundle of the tenant. */
  loadArchive(accountId: string, bundleId: string): Promise<Buffer | undefined>;
  /** Marks a bundle still generating as failed, inside `db` (a transaction or not). */
  fail(db: Kysely<Database>, bundleId: string, reason: string, now: Date): Promise<void>;
  /** Stores the archive and marks the bundle ready, inside the caller's transaction. */
  land(trx: Kysely<Database>, bundleId: string, archive: Buffer, sha256: string, now: Date): Promise<void>;
}

export function createBundleRepository(db: Kysely<Database>): BundleRepository {
  return {
    async insertQueued(row, now) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('bundles').values(row).execute();
        await enqueueJob(trx, BUNDLE_JOB, { bundleId: row.id }, now);
      });
    },
    find: (bundleId) => db.selectFrom('bundles').selectAll().where('id', '=', bundleId).executeTakeFirst(),
    findForAccount: (accountId, bundleId) =>
      db.selectFrom('bundles').selectAll().where('id', '=', bundleId).where('account_id', '=', accountId).executeTakeFirst(),
    listForCheck: (accountId, checkId) =>
      db
        .selectFrom('bundles')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('check_id', '=', checkId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    async loadArchive(accountId, bundleId) {
      const row = await db
        .selectFrom('bundle_archives')
        .innerJoin('bundles', 'bundles.id', 'bundle_archives.bundle_id')
        .select('bundle_archives.data')
        .where('bundles.id', '=', bundleId)
        .where('bundles.account_id', '=', accountId)
        .where('bundles.status', '=', 'ready')
        .executeTakeFirst();
      return row && Buffer.from(row.data);
    },
    async fail(on, bundleId, reason, now) {
      await on
        .updateTable('bundles')
        .set({ status: 'failed', failure_reason: reason, updated_at: now.toISOString() })
        .where('id', '=', bundleId)
        .where('status', '=', 'generating')
        .execute();
    },
    async land(trx, bundleId, archive, sha256, now) {
      await trx.insertInto('bundle_archives').values({ bundle_id: bundleId, data: archive }).execute();
      await trx
        .updateTable('bundles')
        .set({ status: 'ready', archive_bytes: archive.byteLength, archive_sha256: sha256, updated_at: now.toISOString() })
        .where('id', '=', bundleId)
        .where('status', '=', 'generating')
        .execute();
    },
  };
}
