// Report codes, the check kinds they belong to, and the producers that turn a stored record into content.
import type { ReportContent } from './content.ts';
import { amlReport } from './producers/aml.ts';
import { bundleCoverReport } from './producers/bundle-cover.ts';
import { kyaReport } from './producers/kya.ts';
import { kybReport } from './producers/kyb.ts';
import { kycReport } from './producers/kyc.ts';
import type { JsonRecord } from './record.ts';
import { renderPdf, type ReportEnvironment } from './render.ts';

export const PRODUCED_CODES = ['RPT-001', 'RPT-002', 'RPT-003', 'RPT-KYA', 'RPT-016'] as const;
export type ProducedCode = (typeof PRODUCED_CODES)[number];

export type CheckKind = 'kyc' | 'kyb' | 'aml' | 'kya';

interface CheckKindInfo {
  idPrefix: string;
  label: string;
  reportCode: ProducedCode;
}

export const CHECK_KINDS: Readonly<Record<CheckKind, CheckKindInfo>> = {
  kyc: { idPrefix: 'chk_', label: 'KYC check', reportCode: 'RPT-001' },
  kyb: { idPrefix: 'kyb_', label: 'KYB check', reportCode: 'RPT-002' },
  aml: { idPrefix: 'aml_', label: 'AML screening', reportCode: 'RPT-003' },
  kya: { idPrefix: 'kya_', label: 'KYA verification', reportCode: 'RPT-KYA' },
};

interface ReportDefinition {
  title: string;
  /** The check kind whose record the report describes; null for the bundle cover sheet. */
  checkKind: CheckKind | null;
  produce(record: JsonRecord): ReportContent;
}

const REPORTS: Readonly<Record<ProducedCode, ReportDefinition>> = {
  'RPT-001': { title: 'KYC check report', checkKind: 'kyc', produce: kycReport },
  'RPT-002': { title: 'KYB check report', checkKind: 'kyb', produce: kybReport },
  'RPT-003': { title: 'AML screening report', checkKind: 'aml', produce: amlReport },
  'RPT-KYA': { title: 'KYA verification report', checkKind: 'kya', produce: kyaReport },
  'RPT-016': { title: 'Regulatory evidence bundle', checkKind: null, produce: bundleCoverReport },
};

export function isProducedCode(code: string): code is ProducedCode {
  return (PRODUCED_CODES as readonly string[]).includes(code);
}

/** `RPT-` and three digits that the platform does not produce: answered 501, not 404. */
export function isPlannedCode(code: string): boolean {
  return /^RPT-\d{3}$/.test(code) && !isProducedCode(code);
}

export function reportTitle(code: ProducedCode): string {
  return REPORTS[code].title;
}

export function reportCheckKind(code: ProducedCode): CheckKind | null {
  return REPORTS[code].checkKind;
}

export function checkKindForId(id: string): CheckKind | null {
  const kinds = Object.keys(CHECK_KINDS) as CheckKind[];
  return kinds.find((kind) => id.startsWith(CHECK_KINDS[kind].idPrefix)) ?? null;
}

export function reportCodeForCheckId(id: string): ProducedCode | null {
  const kind = checkKindForId(id);
  return kind ? CHECK_KINDS[kind].reportCode : null;
}

export interface ReportMeta {
  /** Account id of the tenant that owns the record. */
  tenant: string;
  recordId: string;
  environment: ReportEnvironment;
  /** ISO 8601, the record's own timestamp (e.g. completedAt): it fixes the PDF dates, keeping bytes stable. */
  recordedAt: string;
}

export function renderReport(code: ProducedCode, record: JsonRecord, meta: ReportMeta): Promise<Buffer> {
  const report = REPORTS[code];
  return renderPdf({ code, title: report.title, ...meta }, report.produce(record));
}

/**
 * The first report of a process also parses the fonts' layout tables and loads pdfkit (about a second on a
 * busy machine); call this at start-up so no client request pays for it.
 */
export async function warmUpReports(): Promise<void> {
  await renderReport('RPT-003', { screeningId: 'aml_warmup', query: { name: 'Warm-up Прогрев Προθέρμανση تسخين' } }, {
    tenant: 'acct_warmup',
    recordId: 'aml_warmup',
    environment: 'sandbox',
    recordedAt: '2000-01-01T00:00:00Z',
  });
}
