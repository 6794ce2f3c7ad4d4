// The report catalogue: the report each registered check kind declares, plus the RPT-016 bundle cover sheet.
import type { CheckKindDefinition, CheckReview } from '../core.ts';
import { type ReportContent, type Section, formatUtc } from './content.ts';
import type { JsonRecord } from './record.ts';
import { renderPdf, type ReportEnvironment } from './render.ts';

export const BUNDLE_CODE = 'RPT-016';
const BUNDLE_TITLE = 'Regulatory evidence bundle';

export interface ReportMeta {
  /** Account id of the tenant that owns the record. */
  tenant: string;
  recordId: string;
  environment: ReportEnvironment;
  /** ISO 8601, the record's own timestamp (e.g. completedAt): it fixes the PDF dates, keeping bytes stable. */
  recordedAt: string;
}

export interface ReportCatalogue {
  /** Every code the platform produces, sorted; RPT-016 included. */
  readonly codes: readonly string[];
  /** Every code a bundle can include: the check kinds' reports. */
  readonly includable: readonly string[];
  isProduced(code: string): boolean;
  /** `RPT-` and three digits that the platform does not produce: answered 501, not 404. */
  isPlanned(code: string): boolean;
  title(code: string): string;
  /** The check kind whose record the report describes; null for the bundle cover sheet and unknown codes. */
  kindOfReport(code: string): CheckKindDefinition | null;
  /** Renders the check kind's report of `record`. */
  render(code: string, record: JsonRecord, meta: ReportMeta): Promise<Buffer>;
}

export function createReportCatalogue(kinds: readonly CheckKindDefinition[]): ReportCatalogue {
  const byCode = new Map(kinds.map((kind) => [kind.report.code, kind]));
  if (byCode.size !== kinds.length || byCode.has(BUNDLE_CODE)) throw new Error('two reports share a code');
  const includable = [...byCode.keys()].sort();
  const codes = [...includable, BUNDLE_CODE].sort();
  const isProduced = (code: string) => codes.includes(code);
  return {
    codes,
    includable,
    isProduced,
    isPlanned: (code) => /^RPT-\d{3}$/.test(code) && !isProduced(code),
    title: (code) => (code === BUNDLE_CODE ? BUNDLE_TITLE : (byCode.get(code)?.report.title ?? code)),
    kindOfReport: (code) => byCode.get(code) ?? null,
    render(code, record, meta) {
      const kind = byCode.get(code);
      if (!kind) throw new Error(`${code} is not the report of a registered check kind`);
      const content = kind.report.produce(record);
      const review = record.review as CheckReview | undefined;
      return renderPdf({ code, title: kind.report.title, ...meta }, review ? { sections: [...content.sections, reviewSection(review)] } : content);
    },
  };
}

/** A person's decision, shown after the automated outcome it decides, in every check kind's report. */
function reviewSection(review: CheckReview): Section {
  return {
    title: 'Human review',
    blocks: [
      {
        kind: 'keyValue',
        rows: [
          ['Decision', review.decision],
          ['Reason', review.reason],
          ['Decided by', review.decidedBy],
          ['Decided at', formatUtc(new Date(review.decidedAt))],
        ],
      },
    ],
  };
}

/** The bundle cover sheet and any other report that is not a check kind's renders through here. */
export function renderBundleCover(meta: ReportMeta, content: ReportContent): Promise<Buffer> {
  return renderPdf({ code: BUNDLE_CODE, title: BUNDLE_TITLE, ...meta }, content);
}

/**
 * The first report of a process also parses the fonts' layout tables and loads pdfkit (about a second on a
 * busy machine); call this at start-up so no client request pays for it.
 */
export async function warmUpReports(): Promise<void> {
  await renderBundleCover(
    { tenant: 'acct_warmup', recordId: 'bnd_warmup', environment: 'sandbox', recordedAt: '2000-01-01T00:00:00Z' },
    { sections: [{ title: 'Warm-up', blocks: [{ kind: 'paragraph', text: 'Warm-up Прогрев Προθέρμανση تسخين' }] }] },
  );
}
