import type { CheckKindDefinition } from '../core.ts';
import type { KyaVerificationRecord } from './schemas.ts';
import { kyaReport } from './report.ts';

export const kyaCheckKind: CheckKindDefinition = {
  kind: 'kya',
  idPrefix: 'kya',
  table: 'kya_verifications',
  label: 'KYA verification',
  meter: 'kyaChecks',
  report: { code: 'RPT-KYA', title: 'KYA verification report', produce: kyaReport },
  statusColumn: 'outcome',
  review: { awaiting: ['review'] },
  summary: (record) => {
    const { screening, agent } = record as Partial<KyaVerificationRecord>;
    return { status: screening?.outcome ?? 'unknown', subject: agent?.name ?? agent?.id ?? null };
  },
};
