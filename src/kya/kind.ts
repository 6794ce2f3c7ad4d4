import type { CheckKindDefinition } from '../core.ts';
import { kyaReport } from './report.ts';

export const kyaCheckKind: CheckKindDefinition = {
  kind: 'kya',
  idPrefix: 'kya',
  table: 'kya_verifications',
  label: 'KYA verification',
  meter: 'kyaChecks',
  report: { code: 'RPT-KYA', title: 'KYA verification report', produce: kyaReport },
};
