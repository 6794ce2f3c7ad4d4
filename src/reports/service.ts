// Reports and RPT-016 bundles for the routes and the job worker: PDFs of any registered check kind, bundle
// registration, status and archives, and the job that builds an archive.
import type { Kysely } from 'kysely';
import { unzipSync } from 'fflate';
import type { CheckLookup, RecordEnvironment, StoredCheck } from '../core.ts';
import type { CheckStore } from '../storage/checks.ts';
import type { Database } from '../storage/schema.ts';
import type { EventLog } from '../events/log.ts';
import { newId } from '../ids.ts';
import { type BundleCheck, type RejectedType, buildBundleArchive, sha256Hex, validateIncludeTypes } from './bundle.ts';
import type { JsonRecord } from './record.ts';
import { BUNDLE_CODE, type ReportCatalogue } from './registry.ts';
import { type ClaimedJob, completeJob, completeJobWith, releaseFailedJob } from '../storage/jobs.ts';
import type { BundleRepository } from './repository.ts';
import type { BundlesTable } from './tables.ts';

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

export type Registration = { ok: true; bundle: Bundle } | { ok: false; notFound: true } | { ok: false; reasons: RejectedType[] };

/**
 * Something other than a check that an evidence bundle can be registered for, made of checks (a workflow run):
 * its module registers it, so reports need not know it.
 */
export interface BundleSubjectSource {
  /** Ids are `<idPrefix>_…`. */
  idPrefix: string;
  kind: string;
  /** How people call one: "workflow run". */
  label: string;
  /** The tenant's subject: its record for evidence.json and the checks whose reports the bundle holds. */
  load(accountId: string, id: string): Promise<{ record: JsonRecord; environment: RecordEnvironment; checkIds: string[] } | undefined>;
}

/** What a bundle is built from: the check or group it was registered for, and the checks whose reports it holds. */
interface ResolvedSubject {
  subject: BundleCheck;
  members: StoredCheck[];
  /** Whether the subject is a group of checks rather than one. */
  group: boolean;
}

export interface ReportsService {
  readonly catalogue: ReportCatalogue;
  /** The PDF of one produced report of a tenant's check, or undefined when the tenant has no such check. */
  renderCheckReport(accountId: string, code: string, checkId: string): Promise<Buffer | undefined>;
  registerBundle(accountId: string, input: { checkId: string; includeTypes?: string[]; regulatorRef: string }, now?: Date): Promise<Registration>;
  findBundle(accountId: string, bundleId: string): Promise<Bundle | undefined>;
  /** The bundles registered for one of the tenant's checks (or groups), newest first. */
  bundlesOf(accountId: string, checkId: string): Promise<Bundle[]>;
  loadArchive(accountId: string, bundleId: string): Promise<Buffer | undefined>;
  /**
   * Builds one bundle's archive and lands it, the archive and the `ready` status together, only if this worker
   * still holds the job: a worker whose lease ran out cannot overwrite or duplicate the work of the next one.
   */
  runBundleJob(job: ClaimedJob, workerId: string): Promise<void>;
  registerSubjectSource(source: BundleSubjectSource): void;
}

export interface ReportsServiceDeps {
  db: Kysely<Database>;
  events: EventLog;
  bundles: BundleRepository;
  baseUrl: string;
  checks: Pick<CheckStore, 'kindOf'>;
  findCheck: CheckLookup;
  catalogue: ReportCatalogue;
  /** Tells the local worker a job is waiting (other instances find it at their next poll). */
  kickWorker(): void;
}

export function createReportsService(deps: ReportsServiceDeps): ReportsService {
  const { db, bundles, catalogue } = deps;
  const subjectSources = new Map<string, BundleSubjectSource>();

  const asBundleCheck = (check: StoredCheck): BundleCheck => ({
    id: check.id,
    kind: deps.checks.kindOf(check.id)!,
    tenant: check.accountId,
    environment: check.environment,
    record: check.record,
  });

  /** The tenant's check, or registered group of checks, by id; undefined for anything else. */
  async function resolveSubject(accountId: string, id: string): Promise<ResolvedSubject | undefined> {
    if (deps.checks.kindOf(id)) {
      const check = await deps.findCheck(accountId, id);
      return check && { subject: asBundleCheck(check), members: [check], group: false };
    }
    const source = subjectSources.get(id.split('_')[0]);
    const loaded = source && (await source.load(accountId, id));
    if (!source || !loaded) return undefined;
    const found = await Promise.all(loaded.checkIds.map((checkId) => deps.findCheck(accountId, checkId)));
    return {
      subject: { id, kind: { kind: source.kind, label: source.label }, tenant: accountId, environment: loaded.environment, record: loaded.record },
      members: found.filter((check): check is StoredCheck => check !== undefined),
      group: true,
    };
  }

  const toBundle = (row: BundlesTable): Bundle => ({
    bundleId: row.id,
    status: row.status,
    checkId: row.check_id,
    regulatorRef: row.regulator_ref,
    includeTypes: JSON.parse(row.include_types),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
    ...(row.status === 'ready' && row.archive_sha256
      ? { archive: { bytes: Number(row.archive_bytes), sha256: row.archive_sha256, url: `${deps.baseUrl}/api/v1/bundles/${row.id}.zip` } }
      : {}),
  });

  const renderStoredCheck = (code: string, check: StoredCheck): Promise<Buffer> =>
    catalogue.render(code, check.record, { tenant: check.accountId, recordId: check.id, environment: check.environment, recordedAt: check.createdAt });

  /** RPT-016 as a PDF is the bundle's cover sheet, read from the finished archive so it is the very same bytes. */
  async function bundleCover(accountId: string, bundleId: string): Promise<Buffer | undefined> {
    const archive = await bundles.loadArchive(accountId, bundleId);
    const cover = archive && unzipSync(archive, { filter: (file) => file.name === 'report.pdf' })['report.pdf'];
    return cover && Buffer.from(cover);
  }

  return {
    catalogue,

    async renderCheckReport(accountId, code, checkId) {
      if (code === BUNDLE_CODE) return bundleCover(accountId, checkId);
      if (deps.checks.kindOf(checkId)?.report.code !== code) return undefined;
      const check = await deps.findCheck(accountId, checkId);
      return check && renderStoredCheck(code, check);
    },

    async registerBundle(accountId, input, now = new Date()) {
      const resolved = await resolveSubject(accountId, input.checkId);
      if (!resolved) return { ok: false, notFound: true };
      const defaultTypes = [...new Set(resolved.members.map((check) => deps.checks.kindOf(check.id)!.report.code))];
      const validation = validateIncludeTypes(catalogue, input.includeTypes, defaultTypes);
      if (!validation.ok) return { ok: false, reasons: validation.reasons };
      const row: BundlesTable = {
        id: newId('bnd'),
        account_id: accountId,
        check_id: resolved.subject.id,
        regulator_ref: input.regulatorRef,
        include_types: JSON.stringify(validation.types),
        status: 'generating',
        failure_reason: null,
        archive_bytes: null,
        archive_sha256: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await bundles.insertQueued(row, now);
      deps.kickWorker();
      return { ok: true, bundle: toBundle(row) };
    },

    async findBundle(accountId, bundleId) {
      const row = await bundles.findForAccount(accountId, bundleId);
      return row && toBundle(row);
    },

    bundlesOf: async (accountId, checkId) => (await bundles.listForCheck(accountId, checkId)).map(toBundle),
    loadArchive: (accountId, bundleId) => bundles.loadArchive(accountId, bundleId),

    registerSubjectSource(source) {
      if (subjectSources.has(source.idPrefix) || deps.checks.kindOf(`${source.idPrefix}_`)) throw new Error(`bundle subjects share the id prefix ${source.idPrefix}`);
      subjectSources.set(source.idPrefix, source);
    },

    async runBundleJob(job, workerId) {
      const { bundleId } = job.payload as { bundleId: string };
      const row = await bundles.find(bundleId);
      if (!row || row.status !== 'generating') {
        await completeJob(db, job, workerId, new Date());
        return;
      }
      try {
        const resolved = await resolveSubject(row.account_id, row.check_id);
        if (!resolved) {
          await completeJobWith(db, job, workerId, (trx, now) => bundles.fail(trx, bundleId, `check ${row.check_id} no longer exists`, now));
          return;
        }
        const byId = new Map(resolved.members.map((check) => [check.id, check]));
        const archive = await buildBundleArchive(catalogue, {
          bundleId,
          regulatorRef: row.regulator_ref,
          check: resolved.subject,
          ...(resolved.group ? { members: resolved.members.map(asBundleCheck) } : {}),
          requestedTypes: JSON.parse(row.include_types) as string[],
          produce: (code, check) => renderStoredCheck(code, byId.get(check.id)!),
          createdAt: row.created_at,
        });
        const sha256 = sha256Hex(archive);
        await completeJobWith(db, job, workerId, async (trx, now) => {
          await bundles.land(trx, bundleId, archive, sha256, now);
          await deps.events.emit(
            trx,
            {
              accountId: row.account_id,
              environment: resolved.subject.environment,
              type: 'bundle.ready',
              data: { bundleId, checkId: row.check_id, regulatorRef: row.regulator_ref, archive: { bytes: archive.byteLength, sha256, url: `${deps.baseUrl}/api/v1/bundles/${bundleId}.zip` } },
            },
            now,
          );
        });
      } catch (error) {
        const now = new Date();
        const reason = error instanceof Error ? error.message : String(error);
        if ((await releaseFailedJob(db, job, workerId, reason, now)) === 'failed') await bundles.fail(db, bundleId, `generation failed: ${reason}`, now);
      }
    },
  };
}
