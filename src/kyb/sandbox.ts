// Sandbox registers for test keys: synthetic fixtures behind the same KybSource interface as the live adapters, so
// a test-key verification runs the same decision code without calling any real register. Each scenario is keyed
// by a magic UK company number (country GB) and carries the VAT number, LEI and FCA reference that go with it;
// any other company number is "not found" at the sandbox registry.
import type {
  CheckName,
  CheckResult,
  KybRequest,
  KybSource,
  KybSourceName,
  KybSources,
  LeiRecord,
  RegistryRecord,
  RegulatorRecord,
  SourceAnswer,
  VatRecord,
} from './types.ts';
import { VIES_MEMBER_STATES } from './sources/live.ts';
import { withLeiCheckDigits } from './validation.ts';

type Fixture<R> = R | 'down' | 'not_found';

interface ScenarioFixtures {
  registry: Fixture<RegistryRecord>;
  vat?: Fixture<VatRecord>;
  regulator?: Fixture<RegulatorRecord>;
  lei?: Fixture<LeiRecord>;
}

export interface KybSandboxScenario {
  id: string;
  description: string;
  /** A complete POST /api/v1/kyb/verify body that triggers the scenario. */
  request: KybRequest;
  /** Outcome with a clear AML screening of the parties. */
  expected: { status: 'passed' | 'review' | 'failed'; checks: Record<CheckName, CheckResult> };
}

const ADDRESS = { lines: ['1 Sandbox Street'], locality: 'London', postalCode: 'EC1A 1AA', country: 'United Kingdom' };

function company(number: string, name: string, status = 'active'): RegistryRecord {
  return {
    companyNumber: number,
    name,
    status,
    type: 'ltd',
    incorporatedOn: '2015-06-01',
    jurisdiction: 'england-wales',
    address: ADDRESS,
    sicCodes: ['64999'],
    officers: [
      { name: 'Alex Example', role: 'director', appointedOn: '2015-06-01', birthYearMonth: '1980-04', nationality: 'British' },
      { name: 'Sam Sample', role: 'secretary', appointedOn: '2018-02-12' },
    ],
    owners: [
      {
        name: 'Alex Example',
        kind: 'person',
        naturesOfControl: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
        ownershipPercentAtLeast: 75,
        birthYearMonth: '1980-04',
      },
    ],
  };
}

const vat = (vatNumber: string, name: string, valid = true): VatRecord => ({
  countryCode: 'XI',
  vatNumber,
  valid,
  ...(valid ? { name: name.toUpperCase(), address: '1 SANDBOX STREET, LONDON, EC1A 1AA' } : {}),
});

const firm = (frn: string, name: string, status: string, companiesHouseNumber: string): RegulatorRecord => ({
  firmReference: frn,
  name,
  status,
  statusEffectiveDate: '01/06/2016',
  businessType: 'Regulated',
  companiesHouseNumber,
});

const lei = (code: string, legalName: string, registeredAs: string, registrationStatus = 'ISSUED'): LeiRecord => ({
  lei: code,
  legalName: legalName.toUpperCase(),
  registrationStatus,
  entityStatus: 'ACTIVE',
  registeredAs,
  jurisdiction: 'GB',
  legalAddress: ADDRESS,
  nextRenewalDate: '2027-06-01T00:00:00Z',
});

interface ScenarioDefinition extends KybSandboxScenario {
  fixtures: ScenarioFixtures;
}

function scenario(
  id: string,
  number: string,
  description: string,
  expected: KybSandboxScenario['expected'],
  fixtures: (ids: { name: string; number: string; vat: string; frn: string; lei: string }) => ScenarioFixtures,
): ScenarioDefinition {
  const serial = number.slice(-2);
  const ids = {
    name: `Sandbox ${id.replace(/_/g, ' ')} Ltd`,
    number,
    vat: `9000000${serial}`,
    frn: `9000${serial}`,
    lei: withLeiCheckDigits(`213800SANDBOX000${serial}`),
  };
  return {
    id,
    description,
    request: {
      companyName: ids.name,
      country: 'GB',
      registrationNumber: number,
      vatNumber: `XI${ids.vat}`,
      lei: ids.lei,
      regulatorId: ids.frn,
    },
    expected,
    fixtures: fixtures(ids),
  };
}

const ALL_PASSED = { registry: 'passed', tax: 'passed', regulator: 'passed', lei: 'passed', aml: 'passed' } as const;

const DEFINITIONS: ScenarioDefinition[] = [
  scenario(
    'active_company',
    '00000001',
    'An active company whose VAT number, FCA authorisation and LEI all agree with the registry: passes.',
    { status: 'passed', checks: { ...ALL_PASSED } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'dissolved_company',
    '00000002',
    'The registry lists the company as dissolved: the registry check fails.',
    { status: 'failed', checks: { ...ALL_PASSED, registry: 'failed' } },
    (ids) => ({
      registry: company(ids.number, ids.name, 'dissolved'),
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'vat_invalid',
    '00000003',
    'VIES answers valid: false for the VAT number: the tax check fails.',
    { status: 'failed', checks: { ...ALL_PASSED, tax: 'failed' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name, false),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'regulator_not_authorised',
    '00000004',
    'The FCA register lists the firm as "No longer authorised": the regulator check fails.',
    { status: 'failed', checks: { ...ALL_PASSED, regulator: 'failed' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'No longer authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'registry_down',
    '00000005',
    'The company registry does not answer (HTTP 503 after retries): the registry check is review, never passed.',
    { status: 'review', checks: { ...ALL_PASSED, registry: 'review' } },
    (ids) => ({
      registry: 'down',
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'tax_authority_down',
    '00000006',
    'VIES answers MS_UNAVAILABLE for the member state: the tax check is review.',
    { status: 'review', checks: { ...ALL_PASSED, tax: 'review' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: 'down',
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
  scenario(
    'lei_lapsed',
    '00000007',
    'The LEI registration is LAPSED (not renewed): the LEI check is review.',
    { status: 'review', checks: { ...ALL_PASSED, lei: 'review' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, ids.number, 'LAPSED'),
    }),
  ),
  scenario(
    'lei_other_company',
    '00000008',
    "GLEIF's registeredAs names another company number: the LEI does not belong to this company, the LEI check fails.",
    { status: 'failed', checks: { ...ALL_PASSED, lei: 'failed' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name),
      regulator: firm(ids.frn, ids.name, 'Authorised', ids.number),
      lei: lei(ids.lei, ids.name, '09999999'),
    }),
  ),
  scenario(
    'regulator_down',
    '00000009',
    'The FCA register does not answer in time: the regulator check is review.',
    { status: 'review', checks: { ...ALL_PASSED, regulator: 'review' } },
    (ids) => ({
      registry: company(ids.number, ids.name),
      vat: vat(ids.vat, ids.name),
      regulator: 'down',
      lei: lei(ids.lei, ids.name, ids.number),
    }),
  ),
];

/** The catalogue for GET /api/v1/sandbox/scenarios. */
export const kybSandboxScenarios: KybSandboxScenario[] = DEFINITIONS.map(({ fixtures: _fixtures, ...entry }) => entry);

export const KYB_SANDBOX_NOT_FOUND_NOTE =
  'Any other GB company number is answered "not found" by the sandbox registry (registry check failed).';

function fixtureSource<Q, R>(
  name: KybSourceName,
  fixtures: Map<string, Fixture<R>>,
  keyOf: (query: Q) => string,
  downReason: string,
  summarise: (record: R) => Record<string, unknown>,
): KybSource<Q, R> {
  return {
    name,
    async lookup(query, { clock }): Promise<SourceAnswer<R>> {
      const retrievedAt = new Date(clock.now()).toISOString();
      const fixture = fixtures.get(keyOf(query)) ?? 'not_found';
      if (fixture === 'down') return { outcome: 'unavailable', reason: downReason, retrievedAt, summary: { sandbox: true } };
      if (fixture === 'not_found') return { outcome: 'not_found', reason: 'sandbox_unknown', retrievedAt, summary: { sandbox: true } };
      return { outcome: 'found', record: fixture, retrievedAt, summary: { sandbox: true, ...summarise(fixture) } };
    },
  };
}

function fixturesBy<R>(pick: (fixtures: ScenarioFixtures) => Fixture<R> | undefined, keyOf: (d: ScenarioDefinition) => string) {
  return new Map(
    DEFINITIONS.flatMap((definition) => {
      const fixture = pick(definition.fixtures);
      return fixture === undefined ? [] : [[keyOf(definition), fixture] as const];
    }),
  );
}

const vatKey = (countryCode: string, number: string) => `${countryCode}${number}`;

export function createSandboxSources(): KybSources {
  const registry = fixtureSource<{ companyNumber: string }, RegistryRecord>(
    'companies_house',
    fixturesBy((f) => f.registry, (d) => d.request.registrationNumber),
    (query) => query.companyNumber,
    'http_503',
    (record) => ({ companyNumber: record.companyNumber, companyName: record.name, companyStatus: record.status }),
  );
  const vies = fixtureSource<{ countryCode: string; vatNumber: string }, VatRecord>(
    'vies',
    fixturesBy((f) => f.vat, (d) => d.request.vatNumber!),
    (query) => vatKey(query.countryCode, query.vatNumber),
    'MS_UNAVAILABLE',
    (record) => ({ countryCode: record.countryCode, vatNumber: record.vatNumber, valid: record.valid }),
  );
  const fca = fixtureSource<{ firmReference: string }, RegulatorRecord>(
    'fca',
    fixturesBy((f) => f.regulator, (d) => d.request.regulatorId!),
    (query) => query.firmReference,
    'timeout',
    (record) => ({ firmReference: record.firmReference, firmStatus: record.status }),
  );
  const gleif = fixtureSource<{ lei: string }, LeiRecord>(
    'gleif',
    fixturesBy((f) => f.lei, (d) => d.request.lei!),
    (query) => query.lei,
    'timeout',
    (record) => ({ lei: record.lei, registrationStatus: record.registrationStatus, registeredAs: record.registeredAs }),
  );
  return {
    registries: { GB: registry },
    taxAuthorities: Object.fromEntries(VIES_MEMBER_STATES.map((state) => [state, vies])),
    regulators: { GB: fca },
    lei: gleif,
  };
}
