// Stored-record shapes as the CONTRACT names their fields, with names in several scripts.
import { CHECK_KINDS } from '../../src/domains.ts';
import { type JsonRecord, type ReportMeta, createReportCatalogue } from '../../src/reports/index.ts';

export const TENANT = 'acct_7QmZ3tR9wXy2';

export const kycRecord: JsonRecord = {
  checkId: 'chk_9fK2mQ7xLp3vT8wZ',
  status: 'review',
  score: 0.82,
  riskLevel: 'medium',
  documentType: 'passport',
  environment: 'sandbox',
  reportUrl: 'http://localhost:3000/reports/RPT-001/chk_9fK2mQ7xLp3vT8wZ.pdf',
  createdAt: '2025-03-14T09:26:51.000Z',
  completedAt: '2025-03-14T09:26:53.412Z',
  metadata: { firstName: 'Анна', lastName: 'Кузнецова', reference: 'cust-001', source: 'onboarding' },
  document: { mrz: { surname: 'KUZNETSOVA', givenNames: 'ANNA', nationality: 'RUS', expiryDate: '2031-05-02' } },
  checks: [
    { name: 'document', result: 'passed', reasons: [] },
    { name: 'selfie', result: 'passed', reasons: [] },
    { name: 'face_match', result: 'review', reasons: ['similarity 0.61 below 0.70'] },
    { name: 'aml', result: 'passed', reasons: [] },
  ],
  aml: { screened: true, matches: [], listsVersion: { ofac_sdn: '2025-03-13', un_consolidated: '2025-03-12' } },
  imageHashes: { document: 'a'.repeat(64), selfie: 'b'.repeat(64) },
};

export const kybRecord: JsonRecord = {
  kybId: 'kyb_4hT8nW2qZr6yB1cX',
  status: 'passed',
  riskLevel: 'low',
  score: 0.93,
  environment: 'live',
  completedAt: '2025-03-14T10:00:00.000Z',
  companyName: 'Παπαδόπουλος Ναυτιλιακή Α.Ε.',
  country: 'GR',
  registrationNumber: '123456789000',
  company: { name: 'Παπαδόπουλος Ναυτιλιακή Α.Ε.', status: 'active', address: { city: 'Πειραιάς' } },
  checks: [
    { name: 'registry', result: 'passed', reasons: ['name matches'], retrievedAt: '2025-03-14T09:59:58.000Z' },
    { name: 'tax', result: 'passed', reasons: [] },
  ],
  officers: [{ name: 'Γιώργος Παπαδόπουλος', role: 'director', screening: { status: 'clear' } }],
  owners: [{ name: 'Γιώργος Παπαδόπουλος', ownershipPercent: 60, screening: { status: 'clear' } }],
};

export const amlRecord: JsonRecord = {
  screeningId: 'aml_2xV7kP9mR4tQ8nLs',
  status: 'potential_match',
  environment: 'live',
  screenedAt: '2025-03-14T11:15:00.000Z',
  query: { name: 'محمد بن سلمان', type: 'person', country: 'SA', threshold: 0.85 },
  listsVersion: { ofac_sdn: '2025-03-13', eu_fsf: '2025-03-11' },
  matches: [
    {
      entityId: 'ofac-12345',
      name: 'محمد بن سلمان',
      matchedName: 'Mohammed bin Salman',
      score: 0.91,
      lists: ['ofac_sdn'],
      programs: ['SDGT'],
      features: { transliteration: true, dobMatch: null },
    },
  ],
};

export const kyaRecord: JsonRecord = {
  verificationId: 'kya_8mN3bV6cX1zL5kJh',
  action: 'allow',
  allowed: true,
  environment: 'live',
  createdAt: '2025-03-14T12:00:00.000Z',
  screening: { outcome: 'passed_screening', engine: 'kyx-injection 1.0', modelVerdict: true, injectionScore: 0.02, signatures: [] },
  agent: { id: 'agent-42', name: 'Помощник', operator: 'Example Ltd' },
  promptSha256: 'c'.repeat(64),
  promptLength: 120,
  prompt: 'SECRET PROMPT TEXT that must never be printed',
  certificate: {
    id: 'cert_5gH7jK9lM2nB4vC6',
    alg: 'EdDSA',
    token: 'eyJhbGciOiJFZERTQSJ9.TOKEN-MUST-NOT-BE-PRINTED.sig',
    issuedAt: '2025-03-14T12:00:00.000Z',
    expiresAt: '2025-03-14T13:00:00.000Z',
  },
};

export function metaFor(recordId: string, recordedAt: string, environment: ReportMeta['environment'] = 'live'): ReportMeta {
  return { tenant: TENANT, recordId, environment, recordedAt };
}

/** The report catalogue of every registered check kind, as the service builds it. */
export const catalogue = createReportCatalogue(CHECK_KINDS);

export const kindOf = (kind: string) => {
  const found = CHECK_KINDS.find((definition) => definition.kind === kind);
  if (!found) throw new Error(`no check kind ${kind}`);
  return found;
};
