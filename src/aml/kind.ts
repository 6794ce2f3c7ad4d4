import type { CheckKindDefinition } from '../core.ts';
import type { AmlScreeningRecord } from './service.ts';
import { amlReport } from './report.ts';

export const amlCheckKind: CheckKindDefinition = {
  kind: 'aml',
  idPrefix: 'aml',
  table: 'aml_screenings',
  label: 'AML screening',
  meter: 'amlScreenings',
  report: { code: 'RPT-003', title: 'AML screening report', produce: amlReport },
  statusColumn: 'status',
  review: { awaiting: ['potential_match'] },
  summary: (record) => {
    const { status, query } = record as Partial<AmlScreeningRecord>;
    return { status: status ?? 'unknown', subject: query?.name ?? null };
  },
};
