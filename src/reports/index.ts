// The reports platform's public surface: what the HTTP layer, the bundle worker and the CLI call.
export type { Block, CellValue, ReportContent, Section } from './content.ts';
export type { ReportEnvironment } from './render.ts';
export type { JsonRecord } from './record.ts';
export { BUNDLE_CODE, createReportCatalogue, renderBundleCover, warmUpReports, type ReportCatalogue, type ReportMeta } from './registry.ts';
export {
  buildBundleArchive,
  validateIncludeTypes,
  reportFileName,
  type BundleCheck,
  type BundleInput,
  type IncludeTypesValidation,
  type Manifest,
  type ManifestEntry,
  type ProducedReport,
  type RejectedType,
} from './bundle.ts';
export { AUTHORSHIP_NOTE, formatBundleVerification, runBundleVerify, verifyBundle, type BundleVerification } from './verify.ts';
