import type { CheckKindDefinition } from '../core.ts';
import type { KycCheckResult } from './schemas.ts';
import { kycReport } from './report.ts';

export const kycCheckKind: CheckKindDefinition = {
  kind: 'kyc',
  idPrefix: 'chk',
  table: 'kyc_checks',
  label: 'KYC check',
  meter: 'kycChecks',
  report: { code: 'RPT-001', title: 'KYC check report', produce: kycReport },
  statusColumn: 'status',
  review: { awaiting: ['review'] },
  // The record column also holds the signals the result was decided from; the public record is the result.
  publicRecord: (stored) => (stored as { result: Record<string, unknown> }).result,
  summary: (record) => {
    const { status, metadata } = record as Partial<KycCheckResult>;
    return { status: status ?? 'unknown', subject: metadata ? `${metadata.firstName} ${metadata.lastName}` : null };
  },
};
