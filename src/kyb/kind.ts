import type { CheckKindDefinition } from '../core.ts';
import type { KybVerifyResponse } from './schemas.ts';
import { kybReport } from './report.ts';

export const kybCheckKind: CheckKindDefinition = {
  kind: 'kyb',
  idPrefix: 'kyb',
  table: 'kyb_checks',
  label: 'KYB check',
  meter: 'kybChecks',
  report: { code: 'RPT-002', title: 'KYB check report', produce: kybReport },
  statusColumn: 'status',
  review: { awaiting: ['review'] },
  summary: (record) => {
    const { status, request } = record as Partial<KybVerifyResponse>;
    return { status: status ?? 'unknown', subject: request?.companyName ?? null };
  },
};
