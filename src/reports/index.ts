// The reports platform's public surface: what the HTTP layer, the bundle worker and the CLI call.
export type { Block, CellValue, ReportContent, Section } from './content.ts';
export type { ReportEnvironment } from './render.ts';
export type { JsonRecord } from './record.ts';
export {
  CHECK_KINDS,
  PRODUCED_CODES,
  checkKindForId,
  isPlannedCode,
  isProducedCode,
  renderReport,
  reportCodeForCheckId,
  reportTitle,
  warmUpReports,
  type CheckKind,
  type ProducedCode,
  type ReportMeta,
} from './registry.ts';
export {
  buildBundleArchive,
  validateIncludeTypes,
  reportFileName,
  type BundleCheck,
  type BundleInput,
  type IncludableCode,
  type IncludeTypesValidation,
  type Manifest,
  type ManifestEntry,
  type ProducedReport,
  type RejectedType,
} from './bundle.ts';
export { AUTHORSHIP_NOTE, formatBundleVerification, runBundleVerify, verifyBundle, type BundleVerification } from './verify.ts';
