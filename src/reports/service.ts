import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { unzipSync } from 'fflate';
import type { AppContext } from '../context.ts';
import { findCheck } from '../context.ts';
import { newId } from '../ids.ts';
import type { StoredCheck } from '../modules.ts';
import { checkKindOf } from '../modules.ts';
import { type IncludableCode, type ProducedCode, type RejectedType, buildBundleArchive, renderReport, reportCodeForCheckId, validateIncludeTypes } from './index.ts';
import { type ClaimedJob, completeJob, enqueueJob, releaseFailedJob } from './jobs.ts';
import type { BundlesTable } from './tables.ts';

export const BUNDLE_JOB = 'bundle.build';

export interface Bundle {
  bundleId: string;
  status: BundlesTable['status'];
  checkId: string;
  regulatorRef: string;
  includeTypes: string[];
  createdAt: string;
  updatedAt: string;
  failureReason?: string;
  archive?: { bytes: number; sha256: string; url: string };
}

function toBundle(row: BundlesTable, baseUrl: string): Bundle {
  return {
    bundleId: row.id,
    status: row.status,
    checkId: row.check_id,
    regulatorRef: row.regulator_ref,
    includeTypes: JSON.parse(row.include_types),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
    ...(row.status === 'ready' && row.archive_sha256
      ? { archive: { bytes: Number(row.archive_bytes), sha256: row.archive_sha256, url: `${baseUrl}/api/v1/bundles/${row.id}.zip` } }
      : {}),
  };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The PDF of one produced report of a tenant's check, or undefined when the tenant has no such check. */
export async function renderCheckReport(context: AppContext, accountId: string, code: ProducedCode, checkId: string): Promise<Buffer | undefined> {
  if (code === 'RPT-016') return bundleCover(context, accountId, checkId);
  if (reportCodeForCheckId(checkId) !== code) return undefined;
  const check = await findCheck(context, accountId, checkId);
  return check && renderStoredCheck(code, check);
}

function renderStoredCheck(code: ProducedCode, check: StoredCheck): Promise<Buffer> {
  return renderReport(code, check.record, {
    tenant: check.accountId,
    recordId: check.id,
    environment: check.environment,
    recordedAt: check.createdAt,
  });
}

/** RPT-016 as a PDF is the bundle's cover sheet, read from the finished archive so it is the very same bytes. */
async function bundleCover(context: AppContext, accountId: string, bundleId: string): Promise<Buffer | undefined> {
  const archive = await loadArchive(context, accountId, bundleId);
  const cover = archive && unzipSync(archive, { filter: (file) => file.name === 'report.pdf' })['report.pdf'];
  return cover && Buffer.from(cover);
}

export type Registration = { ok: true; bundle: Bundle } | { ok: false; notFound: true } | { ok: false; reasons: RejectedType[] };

export async function registerBundle(
  context: AppContext,
  accountId: string,
  input: { checkId: string; includeTypes?: string[]; regulatorRef: string },
  now = new Date(),
): Promise<Registration> {
  const kind = checkKindOf(input.checkId);
  const check = kind && (await findCheck(context, accountId, input.checkId));
  if (!kind || !check) return { ok: false, notFound: true };
  const validation = validateIncludeTypes(input.includeTypes, kind);
  if (!validation.ok) return { ok: false, reasons: validation.reasons };
  const row: BundlesTable = {
    id: newId('bnd'),
    account_id: accountId,
    check_id: check.id,
    regulator_ref: input.regulatorRef,
    include_types: JSON.stringify(validation.types),
    status: 'generating',
    failure_reason: null,
    archive_bytes: null,
    archive_sha256: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await context.storage.db.transaction().execute(async (trx) => {
    await trx.insertInto('bundles').values(row).execute();
    await enqueueJob(trx, BUNDLE_JOB, { bundleId: row.id }, now);
  });
  context.services.reports.kickWorker();
  return { ok: true, bundle: toBundle(row, context.config.baseUrl) };
}

export async function findBundle(context: AppContext, accountId: string, bundleId: string): Promise<Bundle | undefined> {
  const row = await context.storage.db
    .selectFrom('bundles')
    .selectAll()
    .where('id', '=', bundleId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row && toBundle(row, context.config.baseUrl);
}

export async function loadArchive(context: AppContext, accountId: string, bundleId: string): Promise<Buffer | undefined> {
  const row = await context.storage.db
    .selectFrom('bundle_archives')
    .innerJoin('bundles', 'bundles.id', 'bundle_archives.bundle_id')
    .select('bundle_archives.data')
    .where('bundles.id', '=', bundleId)
    .where('bundles.account_id', '=', accountId)
    .where('bundles.status', '=', 'ready')
    .executeTakeFirst();
  return row && Buffer.from(row.data);
}

async function failBundle(db: Kysely<Database>, bundleId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('bundles')
    .set({ status: 'failed', failure_reason: reason, updated_at: now.toISOString() })
    .where('id', '=', bundleId)
    .where('status', '=', 'generating')
    .execute();
}

/**
 * Builds one bundle's archive and lands it, the archive and the `ready` status together, only if this worker
 * still holds the job: a worker whose lease ran out cannot overwrite or duplicate the work of the next one.
 */
export async function runBundleJob(context: AppContext, job: ClaimedJob, workerId: string): Promise<void> {
  const { bundleId } = job.payload as { bundleId: string };
  const db = context.storage.db;
  const row = await db.selectFrom('bundles').selectAll().where('id', '=', bundleId).executeTakeFirst();
  if (!row || row.status !== 'generating') {
    await completeJob(db, job, workerId, new Date());
    return;
  }
  try {
    const check = await findCheck(context, row.account_id, row.check_id);
    if (!check) {
      await db.transaction().execute(async (trx) => {
        if (await completeJob(trx, job, workerId, new Date())) await failBundle(trx, bundleId, `check ${row.check_id} no longer exists`, new Date());
      });
      return;
    }
    const archive = await buildBundleArchive({
      bundleId,
      regulatorRef: row.regulator_ref,
      check: { id: check.id, kind: check.kind, tenant: check.accountId, environment: check.environment, record: check.record },
      requestedTypes: JSON.parse(row.include_types) as IncludableCode[],
      produce: (code) => renderStoredCheck(code, check),
      createdAt: row.created_at,
    });
    const now = new Date();
    await db.transaction().execute(async (trx) => {
      if (!(await completeJob(trx, job, workerId, now))) throw new LeaseLost();
      await trx.insertInto('bundle_archives').values({ bundle_id: bundleId, data: archive }).execute();
      await trx
        .updateTable('bundles')
        .set({ status: 'ready', archive_bytes: archive.byteLength, archive_sha256: sha256(archive), updated_at: now.toISOString() })
        .where('id', '=', bundleId)
        .where('status', '=', 'generating')
        .execute();
    });
  } catch (error) {
    if (error instanceof LeaseLost) return;
    const now = new Date();
    const reason = error instanceof Error ? error.message : String(error);
    if ((await releaseFailedJob(db, job, workerId, reason, now)) === 'failed') await failBundle(db, bundleId, `generation failed: ${reason}`, now);
  }
}

class LeaseLost extends Error {}
