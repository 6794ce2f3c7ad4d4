// KYB through HTTP: sandbox scenarios with test keys, live keys against local registers, AML screening of the
// parties, field errors, storage, meters and tenant isolation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type Tenant, type TestApp } from '../helpers/app.ts';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { SANDBOX_SCENARIOS as kycSandboxScenarios } from '../../src/kyc/scenarios.ts';
import { ACME_LEI, ACME_REQUEST, acmeState, startFakeRegisters, type RegisterState } from './fake-registers.ts';
import type { LocalServer } from './local-server.ts';

// A UK Sanctions List file (OFSI CSV format) with one designated person.
const UK_LIST = [
  'Report Date: 14-Mar-2025',
  'Last Updated,Unique ID,OFSI Group ID,UN Reference Number,Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Name type,Alias strength,Title,Name non-latin script,Non-latin script type,Non-latin script language,Regime Name,Designation Type,Designation source,Sanctions Imposed,Other Information,Address Line 1,Address Line 2,Address Postal Code,Address Country,Date Designated,D.O.B,Nationality(/ies),National Identifier number,Passport number,Position,Gender,Town of birth,Country of birth,Type of entity,Business registration number (s),IMO number',
  '14/03/2025,RUS0001,15001,,IVANOV,Sergei,Borisovich,,,,Primary name,,,,,,Russia,Individual,UK,Asset freeze,,,,,,16/03/2022,31/01/1953,Russia,,,Former Chief of Staff,Male,Leningrad,Russia,,,',
  '',
].join('\n');

const SANCTIONED_OWNER = { name: 'Sergei Borisovich Ivanov', dateOfBirth: '1953-01-31', ownershipPercent: 40 };

const activeCompany = kybSandboxScenarios.find((scenario) => scenario.id === 'active_company')!.request;

const acmeRequest = ACME_REQUEST;

function liveRegisterEnv(baseUrl: string): Record<string, string> {
  return {
    KYX_COMPANIES_HOUSE_API_KEY: 'ch-key',
    KYX_COMPANIES_HOUSE_BASE_URL: baseUrl,
    KYX_GLEIF_BASE_URL: baseUrl,
    KYX_VIES_BASE_URL: baseUrl,
    KYX_FCA_BASE_URL: baseUrl,
    KYX_FCA_API_EMAIL: 'ops@example.com',
    KYX_FCA_API_KEY: 'fca-key',
    KYX_KYB_TIMEOUT_MS: '400',
    KYX_KYB_MAX_ATTEMPTS: '2',
    KYX_KYB_BACKOFF_MS: '20',
    KYX_KYB_BUDGET_MS: '3000',
  };
}

async function appWithRegisters(baseUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp({ env: { ...liveRegisterEnv(baseUrl), ...env } });
}

let registers: LocalServer;
let state: RegisterState;
let listsDir: string;
let t: TestApp;
let testKey: Tenant;
let liveKey: Tenant;

beforeAll(async () => {
  state = acmeState();
  registers = await startFakeRegisters(state);
  listsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-kyb-lists-'));
  fs.writeFileSync(path.join(listsDir, 'uk_sanctions_list.csv'), UK_LIST);
  t = await appWithRegisters(registers.baseUrl, { KYX_LISTS_DIR: listsDir });
  testKey = await t.tenant({ env: 'test' });
  liveKey = await t.tenant({ env: 'live' });
});

afterAll(async () => {
  await t?.close();
  await registers?.close();
  fs.rmSync(listsDir, { recursive: true, force: true });
});

const verify = (tenant: Tenant, payload: unknown, app: TestApp = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', headers: tenant.headers, payload: payload as object });

const getCheck = (tenant: Tenant, kybId: string, app: TestApp = t) =>
  app.app.inject({ method: 'GET', url: `/api/v1/kyb/checks/${kybId}`, headers: tenant.headers });

const usage = async (tenant: Tenant) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).json().usage;

const checkResults = (body: { checks: Array<{ name: string; result: string }> }) =>
  Object.fromEntries(body.checks.map((check) => [check.name, check.result]));

describe('POST /api/v1/kyb/verify with a test key (sandbox registers)', () => {
  it.each(kybSandboxScenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    registers.received.length = 0;
    const response = await verify(testKey, scenario.request);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe(scenario.expected.status);
    expect(checkResults(body)).toEqual(scenario.expected.checks);
    expect(body).toMatchObject({ environment: 'sandbox', reportUrl: `http://kyx.test/reports/RPT-002/${body.kybId}.pdf` });
    expect(body.kybId).toMatch(/^kyb_[0-9A-Za-z]{22,}$/);
    expect(body.sources.every((source: { summary: { sandbox?: boolean } }) => source.summary.sandbox === true)).toBe(true);
    // A test key never reaches a live register.
    expect(registers.received).toEqual([]);
  });

  it('answers "not found" for a company number outside the catalogue, and counts nothing in the meters', async () => {
    const response = await verify(testKey, { companyName: 'Nobody Ltd', country: 'GB', registrationNumber: '12345678' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'failed', environment: 'sandbox' });
    expect(checkResults(response.json()).registry).toBe('failed');
    expect((await usage(testKey)).kybChecks).toBe(0);
  });

  it('fails a check whose owner is on a sanctions list, naming the list entry', async () => {
    const response = await verify(testKey, { ...activeCompany, owners: [SANCTIONED_OWNER] });
    const body = response.json();
    expect(body).toMatchObject({ status: 'failed', riskLevel: 'high' });
    const aml = body.checks.find((check: { name: string }) => check.name === 'aml');
    expect(aml.result).toBe('failed');
    expect(aml.reasons[0].message).toMatch(/owner "Sergei Borisovich Ivanov"/);
    const owner = body.parties.find((party: { name: string }) => party.name === SANCTIONED_OWNER.name);
    expect(owner.screening).toMatchObject({ status: 'potential_match', matches: [{ entityId: expect.stringContaining('RUS0001') }] });
    // The registry's officers were screened too, and are clear.
    expect(body.parties.find((party: { name: string }) => party.name === 'Alex Example').screening.status).toBe('clear');
  });
});

describe('POST /api/v1/kyb/verify with a live key (local registers)', () => {
  it('verifies against the registers, stores the result and counts one kybChecks', async () => {
    registers.received.length = 0;
    const before = (await usage(liveKey)).kybChecks;
    const response = await verify(liveKey, acmeRequest);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'passed', riskLevel: 'low', environment: 'live' });
    expect(checkResults(body)).toEqual({ registry: 'passed', tax: 'passed', regulator: 'passed', lei: 'passed', aml: 'passed' });
    expect(body.company).toMatchObject({ name: 'ACME LIMITED', registrationNumber: '01234567', status: 'active' });
    expect(body.sources.map((source: { name: string }) => source.name).sort()).toEqual(['companies_house', 'fca', 'gleif', 'vies']);
    expect(registers.received.some((request) => request.url === '/company/01234567')).toBe(true);
    expect((await usage(liveKey)).kybChecks).toBe(before + 1);

    const stored = await getCheck(liveKey, body.kybId);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual(body);
  });

  it('makes a register that is down a review with its reason, never a 5xx', async () => {
    state.down = ['companies_house'];
    try {
      const response = await verify(liveKey, acmeRequest);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.status).toBe('review');
      expect(checkResults(body).registry).toBe('review');
      expect(body.sources.find((source: { name: string }) => source.name === 'companies_house').status).toBe('unavailable');
    } finally {
      state.down = [];
    }
  });
});

describe('AML screening without lists', () => {
  it('puts every check under review: an unscreened party never passes', async () => {
    const noLists = await appWithRegisters(registers.baseUrl);
    try {
      const tenant = await noLists.tenant({ env: 'test' });
      const body = (await verify(tenant, activeCompany, noLists)).json();
      expect(body.status).toBe('review');
      const aml = body.checks.find((check: { name: string }) => check.name === 'aml');
      expect(aml).toMatchObject({ result: 'review', reasons: expect.arrayContaining([expect.objectContaining({ code: 'screening_unavailable' })]) });
      expect(body.parties.every((party: { screening: { status: string } }) => party.screening.status === 'unavailable')).toBe(true);
    } finally {
      await noLists.close();
    }
  });
});

describe('GET /api/v1/kyb/checks/{kybId}', () => {
  it('returns the stored record, also from another instance over the same database', async () => {
    const created = (await verify(testKey, kybSandboxScenarios[1].request)).json();
    const replica = await createTestApp({ sharing: t });
    try {
      const stored = await getCheck(testKey, created.kybId, replica);
      expect(stored.statusCode).toBe(200);
      expect(stored.json()).toEqual(created);
    } finally {
      await replica.close();
    }
  });

  it('gives reports the record through the check finder, for its own tenant only', async () => {
    const created = (await verify(testKey, activeCompany)).json();
    const found = await t.context.checks.find(testKey.accountId, created.kybId);
    expect(found).toMatchObject({ id: created.kybId, kind: 'kyb', environment: 'sandbox', record: created });
    expect(await t.context.checks.find(liveKey.accountId, created.kybId)).toBeUndefined();
  });
});

describe('RPT-002', () => {
  it('renders the stored check at its reportUrl for its own tenant only', async () => {
    const created = (await verify(testKey, activeCompany)).json();
    const path = new URL(created.reportUrl).pathname;
    const pdf = await t.app.inject({ method: 'GET', url: path, headers: testKey.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    errorBody(await t.app.inject({ method: 'GET', url: path, headers: liveKey.headers }), 404, 'not_found');
  });
});

describe('GET /api/v1/sandbox/scenarios', () => {
  it('lists the KYB catalogue and the KYC catalogue for any valid key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/sandbox/scenarios', headers: liveKey.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.kyb.map((scenario: { id: string }) => scenario.id)).toEqual(kybSandboxScenarios.map((scenario) => scenario.id));
    expect(body.kyb[0].request.registrationNumber).toBe('00000001');
    expect(body.kyc.map((scenario: { reference: string }) => scenario.reference)).toEqual(kycSandboxScenarios.map((s) => s.reference));
  });

  it('needs a credential', async () => {
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/sandbox/scenarios' }), 401, 'unauthorized');
  });
});

describe('bad input', () => {
  const base = activeCompany;
  const fieldErrors = async (payload: unknown) => errorBody(await verify(testKey, payload), 400, 'invalid_request').errors;

  it('names an unknown country', async () => {
    expect(await fieldErrors({ ...base, country: 'XX' })).toEqual([{ path: 'body/country', message: expect.stringMatching(/unknown country code "XX"/) }]);
  });

  it('gives the reason for a malformed LEI, VAT number and company number', async () => {
    const errors = await fieldErrors({ ...base, lei: `${ACME_LEI.slice(0, 18)}00`, vatNumber: 'XI12', registrationNumber: 'ZZ1' });
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: 'body/lei', message: expect.stringMatching(/check digits/) },
        { path: 'body/vatNumber', message: expect.stringMatching(/not a XI VAT number/) },
        { path: 'body/registrationNumber', message: expect.stringMatching(/register prefix ZZ/) },
      ]),
    );
  });

  it('names a missing field, an unknown field and an impossible date of birth', async () => {
    const { companyName: _omitted, ...withoutName } = base;
    expect(await fieldErrors(withoutName)).toEqual([{ path: 'body/companyName', message: expect.any(String) }]);
    expect(await fieldErrors({ ...base, shareCapital: 1 })).toEqual([{ path: 'body/shareCapital', message: 'is not an allowed property' }]);
    expect(await fieldErrors({ ...base, owners: [{ name: 'A Person', ownershipPercent: 10, dateOfBirth: '1980-02-30' }] })).toEqual([
      { path: 'body/owners/0/dateOfBirth', message: expect.stringMatching(/calendar date/) },
    ]);
  });

  it('counts nothing for a refused live request', async () => {
    const before = (await usage(liveKey)).kybChecks;
    errorBody(await verify(liveKey, { ...acmeRequest, country: 'XX' }), 400, 'invalid_request');
    expect((await usage(liveKey)).kybChecks).toBe(before);
  });
});

describe('security', () => {
  it("answers 404 for another tenant's check and for an unknown id", async () => {
    const created = (await verify(testKey, activeCompany)).json();
    errorBody(await getCheck(liveKey, created.kybId), 404, 'not_found');
    errorBody(await getCheck(testKey, 'kyb_doesnotexist'), 404, 'not_found');
  });

  it('requires kyb:write to verify and kyb:read to read', async () => {
    const readOnly = await t.tenant({ env: 'test', scopes: ['kyb:read'] });
    errorBody(await verify(readOnly, activeCompany), 403, 'forbidden');
    const writeOnly = await t.tenant({ env: 'test', scopes: ['kyb:write'] });
    const created = (await verify(writeOnly, activeCompany)).json();
    errorBody(await getCheck(writeOnly, created.kybId), 403, 'forbidden');
    errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', payload: activeCompany }), 401, 'unauthorized');
  });
});
