// RPT-001: the KYC check report, from the stored KYC check result.
import type { ReportContent } from '../content.ts';
import { asRecord, fieldRows, genericBlocks, isRecord, otherFieldsSection, type JsonRecord } from '../record.ts';
import { checksTable, embeddedAmlSection } from './shared.ts';

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

export function kycReport(record: JsonRecord): ReportContent {
  const shown = [...OUTCOME_FIELDS.map(([field]) => field), 'metadata', 'checks', 'aml', 'document'];
  return {
    sections: [
      { title: 'Outcome', blocks: [fieldRows(record, OUTCOME_FIELDS)] },
      { title: 'Subject', blocks: [fieldRows(asRecord(record.metadata), SUBJECT_FIELDS)] },
      ...(isRecord(record.document) ? [{ title: 'Document', blocks: genericBlocks(record.document) }] : []),
      { title: 'Checks run', blocks: [checksTable(record.checks)] },
      embeddedAmlSection('AML name screening', record.aml),
      ...otherFieldsSection(record, shown),
    ],
  };
}
