// RPT-001: the KYC check report, from the stored KYC check result.
import type { ReportContent } from '../reports/content.ts';
import { asRecord, fieldRows, genericBlocks, isRecord, otherFieldsSection, type JsonRecord } from '../reports/record.ts';
import { checksTable, embeddedAmlSection, listsVersionBlock } from '../reports/blocks.ts';
import { THRESHOLDS } from './decision.ts';

const OUTCOME_FIELDS = [
  ['checkId', 'Check id'],
  ['status', 'Status'],
  ['riskLevel', 'Risk level'],
  ['score', 'Score (0–1, higher = more confidence the identity is genuine)'],
  ['documentType', 'Document type'],
  ['environment', 'Environment'],
  ['createdAt', 'Created at'],
  ['completedAt', 'Completed at'],
  ['reportUrl', 'Report URL'],
] as const;

const SUBJECT_FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['reference', 'Reference'],
  ['source', 'Source'],
] as const;

const FACE_FIELDS = [
  ['similarity', `Face-match score (cosine similarity; pass ≥ ${THRESHOLDS.faceMatchPass})`],
  ['selfieFaces', 'Faces on the selfie'],
  ['documentFaces', 'Faces on the document'],
] as const;

const IMAGE_HASH_FIELDS = [
  ['document', 'Document image SHA-256'],
  ['selfie', 'Selfie image SHA-256'],
] as const;

/** The AML section, with a table of the list versions screened against when the record names them. */
function amlSection(aml: unknown) {
  const section = embeddedAmlSection('AML name screening', aml);
  const lists = asRecord(aml).lists;
  return Array.isArray(lists) && lists.length > 0 ? { ...section, blocks: [...section.blocks, listsVersionBlock(lists)] } : section;
}

export function kycReport(record: JsonRecord): ReportContent {
  const shown = [...OUTCOME_FIELDS.map(([field]) => field), 'metadata', 'checks', 'aml', 'document', 'face', 'imageHashes'];
  return {
    sections: [
      { title: 'Outcome', blocks: [fieldRows(record, OUTCOME_FIELDS)] },
      { title: 'Subject', blocks: [fieldRows(asRecord(record.metadata), SUBJECT_FIELDS)] },
      ...(isRecord(record.document) ? [{ title: 'Document', blocks: genericBlocks(record.document) }] : []),
      { title: 'Checks run', blocks: [checksTable(record.checks)] },
      ...(isRecord(record.face) ? [{ title: 'Face match', blocks: [fieldRows(record.face, FACE_FIELDS)] }] : []),
      amlSection(record.aml),
      ...(isRecord(record.imageHashes) ? [{ title: 'Image hashes', blocks: [fieldRows(record.imageHashes, IMAGE_HASH_FIELDS)] }] : []),
      ...otherFieldsSection(record, shown),
    ],
  };
}
