import type { CheckKindDefinition } from '../core.ts';
import { amlReport } from './report.ts';

export const amlCheckKind: CheckKindDefinition = {
  kind: 'aml',
  idPrefix: 'aml',
  table: 'aml_screenings',
  label: 'AML screening',
  meter: 'amlScreenings',
  report: { code: 'RPT-003', title: 'AML screening report', produce: amlReport },
};
