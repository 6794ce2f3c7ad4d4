// RPT-KYA: the KYA verification report, from the stored verification record.
// The prompt itself and the certificate token are left out on purpose: the report identifies the prompt by
// its SHA-256 and length, and a certificate token is a credential fetched from the API, not printed.
import type { ReportContent } from '../reports/content.ts';
import { asRecord, fieldRows, otherFieldsSection, type JsonRecord } from '../reports/record.ts';

const DECISION_FIELDS = [
  ['verificationId', 'Verification id'],
  ['action', 'Action'],
  ['allowed', 'Allowed'],
  ['environment', 'Environment'],
  ['createdAt', 'Created at'],
  ['completedAt', 'Completed at'],
] as const;

const SCREENING_FIELDS = [
  ['outcome', 'Outcome'],
  ['engine', 'Engine'],
  ['modelVerdict', 'Model verdict'],
  ['injectionScore', 'Injection score (model probability)'],
  ['signatures', 'Signatures matched'],
] as const;

const PROMPT_FIELDS = [
  ['promptSha256', 'Prompt SHA-256'],
  ['promptLength', 'Prompt length (characters)'],
] as const;

const CERTIFICATE_FIELDS = [
  ['id', 'Certificate id'],
  ['alg', 'Algorithm'],
  ['action', 'Action'],
  ['environment', 'Environment'],
  ['issuedAt', 'Issued at'],
  ['expiresAt', 'Expires at'],
] as const;

const NEVER_PRINTED = ['prompt', 'token'];

export function kyaReport(record: JsonRecord): ReportContent {
  const shown = [
    ...DECISION_FIELDS.map(([field]) => field),
    ...PROMPT_FIELDS.map(([field]) => field),
    'screening',
    'agent',
    'certificate',
    ...NEVER_PRINTED,
  ];
  return {
    sections: [
      { title: 'Decision', blocks: [fieldRows(record, DECISION_FIELDS)] },
      { title: 'Screening', blocks: [fieldRows(asRecord(record.screening), SCREENING_FIELDS)] },
      {
        title: 'Agent',
        blocks: [fieldRows(asRecord(record.agent), [['id', 'Agent id'], ['name', 'Name'], ['operator', 'Operator']])],
      },
      { title: 'Prompt', blocks: [fieldRows(record, PROMPT_FIELDS)] },
      {
        title: 'Certificate',
        blocks: record.certificate
          ? [fieldRows(asRecord(record.certificate), CERTIFICATE_FIELDS)]
          : [{ kind: 'paragraph', text: 'No certificate was issued.' }],
      },
      ...otherFieldsSection(record, shown),
    ],
  };
}
