// RPT-016 evidence bundles: validation of includeTypes at registration, and the archive itself.
// The archive is a pure function of its inputs: fixed entry order, entry times from the bundle's createdAt,
// and deterministic PDFs, so building the same bundle twice gives byte-identical ZIPs.
import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import type { CheckKindDefinition } from '../core.ts';
import { bundleCoverReport, type BundleCover } from './bundle-cover.ts';
import type { JsonRecord } from './record.ts';
import { BUNDLE_CODE, type ReportCatalogue, renderBundleCover } from './registry.ts';
import type { ReportEnvironment } from './render.ts';

export const COVER_FILE = 'report.pdf';
export const EVIDENCE_FILE = 'evidence.json';
export const MANIFEST_FILE = 'manifest.json';

export interface RejectedType {
  type: string;
  reason: string;
}

export type IncludeTypesValidation = { ok: true; types: string[] } | { ok: false; reasons: RejectedType[] };

function rejectionReason(catalogue: ReportCatalogue, type: unknown): string | null {
  if (typeof type !== 'string') return 'a report type is a string such as "RPT-001"';
  if (type === BUNDLE_CODE) return 'RPT-016 is the evidence bundle itself and cannot be included in a bundle';
  if (catalogue.isProduced(type)) return null;
  if (catalogue.isPlanned(type)) return `${type} is a planned report type that the platform does not produce`;
  const sameCodeOtherCase = catalogue.includable.find((code) => code.toLowerCase() === type.toLowerCase());
  if (sameCodeOtherCase) return `unknown report type; report codes are case-sensitive (did you mean ${sameCodeOtherCase}?)`;
  return `unknown report type; a bundle can include ${catalogue.includable.join(', ')}`;
}

/**
 * Registration-time validation (400 UNSUPPORTED_REPORT_TYPES with one reason per rejected entry).
 * Omitted → `defaultTypes` (the report type of the check's kind, or of every kind of check a run holds).
 * Duplicates collapse, order is kept.
 * A produced type that the check's kind cannot have (RPT-002 for a chk_) is accepted here: it is a type the
 * platform produces. The archive lists it under unavailableReports with the reason, because the specification
 * separates "not produced" (400 at registration) from "could not be produced" (unavailableReports).
 */
export function validateIncludeTypes(catalogue: ReportCatalogue, types: readonly unknown[] | undefined, defaultTypes: readonly string[]): IncludeTypesValidation {
  if (types === undefined) return { ok: true, types: [...defaultTypes] };
  const reasons = types.flatMap((type) => {
    const reason = rejectionReason(catalogue, type);
    return reason ? [{ type: typeof type === 'string' ? type : JSON.stringify(type) ?? String(type), reason }] : [];
  });
  if (reasons.length > 0) return { ok: false, reasons };
  return { ok: true, types: [...new Set(types as string[])] };
}

export interface BundleCheck {
  id: string;
  /** A check kind, or for a bundle of a group of checks what the group is (a workflow run). */
  kind: Pick<CheckKindDefinition, 'kind' | 'label'>;
  /** Account id of the tenant that owns the check. */
  tenant: string;
  environment: ReportEnvironment;
  /** The stored check record, exactly as the API returns it. */
  record: JsonRecord;
}

export type ProducedReport = Uint8Array | { unavailable: string };

export interface BundleInput {
  bundleId: string;
  regulatorRef: string;
  /** What the bundle is registered for: a check, or a group of checks (a workflow run). */
  check: BundleCheck;
  /** The checks of a group, whose reports the bundle holds; by default the check itself. */
  members?: readonly BundleCheck[];
  /** includeTypes as accepted by validateIncludeTypes. */
  requestedTypes: readonly string[];
  /**
   * Renders one report of a check. Called only for types the check's kind can have. Return
   * `{unavailable: reason}` when the report cannot be produced; throw for a transient failure, which fails
   * the build (to be retried) instead of baking "unavailable" into an archive that never changes.
   */
  produce(code: string, check: BundleCheck): ProducedReport | Promise<ProducedReport>;
  /** ISO 8601; fixes the cover sheet's dates and every entry's time in the ZIP. */
  createdAt: string;
}

export interface ManifestEntry {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  files: ManifestEntry[];
  signature: null;
  signatureAlgorithm: null;
  integrity: 'sha256_hashes_only';
}

export function reportFileName(code: string, checkId: string): string {
  return `reports/${code}-${checkId}.pdf`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function manifestEntry(name: string, bytes: Uint8Array): ManifestEntry {
  return { name, bytes: bytes.byteLength, sha256: sha256Hex(bytes) };
}

function jsonBytes(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

function kindMismatchReason(catalogue: ReportCatalogue, code: string, check: BundleCheck, members: readonly BundleCheck[] | undefined): string {
  const reportKind = catalogue.kindOfReport(code);
  const reportOf = reportKind ? reportKind.label : 'another record';
  const has = members ? `${check.id} is a ${check.kind.label} with no such check` : `${check.id} is a ${check.kind.label}`;
  return `${code} is the ${catalogue.title(code)} of a ${reportOf}; ${has}`;
}

export async function buildBundleArchive(catalogue: ReportCatalogue, input: BundleInput): Promise<Buffer> {
  const { check, members } = input;
  const reports: Array<{ code: string; name: string; bytes: Uint8Array }> = [];
  const unavailableReports: RejectedType[] = [];
  for (const code of input.requestedTypes) {
    const reportKind = catalogue.kindOfReport(code)?.kind;
    const sources = (members ?? [check]).filter((member) => member.kind.kind === reportKind);
    if (sources.length === 0) unavailableReports.push({ type: code, reason: kindMismatchReason(catalogue, code, check, members) });
    for (const source of sources) {
      const produced = await input.produce(code, source);
      if ('unavailable' in produced) unavailableReports.push({ type: code, reason: members ? `${source.id}: ${produced.unavailable}` : produced.unavailable });
      else reports.push({ code, name: reportFileName(code, source.id), bytes: produced });
    }
  }

  const evidence = jsonBytes({
    bundleId: input.bundleId,
    regulatorRef: input.regulatorRef,
    createdAt: input.createdAt,
    checkId: check.id,
    checkKind: check.kind.kind,
    accountId: check.tenant,
    environment: check.environment,
    includeTypes: [...new Set(reports.map((report) => report.code))],
    unavailableReports,
    record: check.record,
    ...(members ? { checks: members.map((member) => ({ checkId: member.id, checkKind: member.kind.kind, record: member.record })) } : {}),
  });
  const described = [...reports.map((report) => manifestEntry(report.name, report.bytes)), manifestEntry(EVIDENCE_FILE, evidence)];

  const cover: BundleCover = {
    bundleId: input.bundleId,
    regulatorRef: input.regulatorRef,
    createdAt: input.createdAt,
    check: {
      id: check.id,
      kind: check.kind.label,
      accountId: check.tenant,
      environment: check.environment,
      status: typeof check.record.status === 'string' ? check.record.status : null,
    },
    contents: described,
    unavailableReports,
  };
  const coverPdf = await renderBundleCover(
    { tenant: check.tenant, recordId: input.bundleId, environment: check.environment, recordedAt: input.createdAt },
    bundleCoverReport(cover),
  );

  const files = new Map<string, Uint8Array>([
    [COVER_FILE, coverPdf],
    ...reports.map((report) => [report.name, report.bytes] as const),
    [EVIDENCE_FILE, evidence],
  ]);
  const manifest: Manifest = {
    files: [...files].map(([name, bytes]) => manifestEntry(name, bytes)),
    signature: null,
    signatureAlgorithm: null,
    integrity: 'sha256_hashes_only',
  };
  files.set(MANIFEST_FILE, jsonBytes(manifest));
  return zipDeterministic(files, new Date(input.createdAt));
}

/**
 * fflate writes DOS times from the local-time getters; building the Date from the UTC fields makes the entries
 * carry the UTC time whatever the host's time zone. The extended-timestamp field (0x5455) carries the exact
 * Unix time for unzip tools that read it.
 */
function zipDeterministic(files: ReadonlyMap<string, Uint8Array>, createdAt: Date): Buffer {
  if (Number.isNaN(createdAt.getTime())) throw new Error('bundle: createdAt is not a timestamp');
  const dosTime = new Date(
    createdAt.getUTCFullYear(),
    createdAt.getUTCMonth(),
    createdAt.getUTCDate(),
    createdAt.getUTCHours(),
    createdAt.getUTCMinutes(),
    createdAt.getUTCSeconds(),
  );
  const extendedTimestamp = Buffer.alloc(5);
  extendedTimestamp.writeUInt8(1, 0);
  extendedTimestamp.writeUInt32LE(Math.floor(createdAt.getTime() / 1000), 1);
  const entries: Zippable = {};
  for (const [name, bytes] of files) {
    // PDFs are already compressed; storing them keeps builds fast and costs nothing in size.
    const level = name.endsWith('.pdf') ? 0 : 9;
    entries[name] = [bytes, { level, mtime: dosTime, extra: { 0x5455: extendedTimestamp } }];
  }
  return Buffer.from(zipSync(entries));
}
