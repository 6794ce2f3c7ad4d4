import { afterEach, describe, expect, it } from 'vitest';
import { KybRequestInvalidError, verifyBusiness } from '../../src/kyb/verify.ts';
import type { KybCheck, KybRequest, KybResult, ScreenFunction, ScreeningSubject } from '../../src/kyb/types.ts';
import { ACME_LEI, ACME_REQUEST, acmeState, liveSourcesAt, startFakeRegisters, type RegisterState } from './fake-registers.ts';
import type { LocalServer } from './local-server.ts';

const acmeRequest: KybRequest = {
  ...ACME_REQUEST,
  owners: [{ name: 'Ivan Petrov', ownershipPercent: 30, dateOfBirth: '1961-02-03' }],
};

const clear: ScreenFunction = async () => ({ status: 'clear', matches: [] });

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function verify(
  state: RegisterState,
  request: KybRequest = acmeRequest,
  screen: ScreenFunction = clear,
  budgetMs = 3000,
): Promise<KybResult> {
  server = await startFakeRegisters(state);
  return verifyBusiness(request, { sources: liveSourcesAt(server.baseUrl), screen, budgetMs });
}

const checkNamed = (result: KybResult, name: KybCheck['name']) => result.checks.find((c) => c.name === name)!;
const codes = (check: KybCheck) => check.reasons.map((r) => r.code);

describe('verifyBusiness with the live adapters against local registers', () => {
  it('passes a company every register agrees on, matching "Acme Ltd" to "ACME LIMITED"', async () => {
    const result = await verify(acmeState());
    expect(result.checks.map((c) => [c.name, c.result])).toEqual([
      ['registry', 'passed'],
      ['tax', 'passed'],
      ['regulator', 'passed'],
      ['lei', 'passed'],
      ['aml', 'passed'],
    ]);
    expect(result).toMatchObject({ status: 'passed', riskLevel: 'low', score: 1 });
    expect(result.company).toMatchObject({
      name: 'ACME LIMITED',
      registrationNumber: '01234567',
      status: 'active',
      vat: { number: 'XI123456789', valid: true },
      lei: { code: ACME_LEI, registrationStatus: 'ISSUED' },
      regulator: { id: '123456', status: 'Authorised' },
    });
    expect(result.sources.map((s) => [s.name, s.status])).toEqual([
      ['companies_house', 'found'],
      ['vies', 'found'],
      ['fca', 'found'],
      ['gleif', 'found'],
    ]);
    // FCA writes the company number unpadded; linking compares it as Companies House keys it.
    expect(codes(checkNamed(result, 'regulator'))).toContain('regulator_company_number_linked');
    expect(codes(checkNamed(result, 'lei'))).toContain('lei_company_number_linked');
  });

  it('screens the company, the registry officers and PSCs and the owners named in the request', async () => {
    const screened: ScreeningSubject[] = [];
    const result = await verify(acmeState(), acmeRequest, async (subject) => {
      screened.push(subject);
      return { status: 'clear', matches: [] };
    });
    expect(screened.map((s) => `${s.type}:${s.name}`).sort()).toEqual([
      'organization:ACME LIMITED',
      'organization:Acme Ltd',
      'person:Ivan Petrov',
      'person:Jane Mary EXAMPLE',
      'person:Mr John OWNER',
    ]);
    expect(screened.find((s) => s.name === 'Ivan Petrov')?.dateOfBirth).toBe('1961-02-03');
    expect(result.parties.find((p) => p.name === 'Mr John OWNER')).toMatchObject({ role: 'owner', ownershipPercent: 50, from: ['registry'] });
  });

  it('fails the LEI check when GLEIF registeredAs names another company', async () => {
    const state = acmeState();
    state.lei.registeredAs = '07654321';
    const result = await verify(state);
    expect(checkNamed(result, 'lei')).toMatchObject({ result: 'failed', source: 'gleif' });
    expect(codes(checkNamed(result, 'lei'))).toContain('lei_company_number_mismatch');
    expect(result).toMatchObject({ status: 'failed', riskLevel: 'high' });
  });

  it('fails the regulator check when the FCA "Companies House Number" is another company', async () => {
    const state = acmeState();
    state.firm.companiesHouseNumber = 'SC123456';
    const result = await verify(state);
    expect(codes(checkNamed(result, 'regulator'))).toContain('regulator_company_number_mismatch');
    expect(checkNamed(result, 'regulator').result).toBe('failed');
  });

  it('puts a LAPSED LEI under review', async () => {
    const state = acmeState();
    state.lei.status = 'LAPSED';
    const result = await verify(state);
    expect(checkNamed(result, 'lei')).toMatchObject({ result: 'review', reasons: expect.arrayContaining([expect.objectContaining({ code: 'lei_lapsed' })]) });
    expect(result.status).toBe('review');
  });

  it('fails a sanctioned owner named in the request: aml failed, riskLevel high', async () => {
    const screen: ScreenFunction = async (subject) =>
      subject.name === 'Ivan Petrov'
        ? { status: 'potential_match', matches: [{ entityId: 'ofac-1', matchedName: 'PETROV, Ivan', score: 0.97, lists: ['OFAC SDN'] }] }
        : { status: 'clear', matches: [] };
    const result = await verify(acmeState(), acmeRequest, screen);
    expect(checkNamed(result, 'aml')).toMatchObject({ result: 'failed', reasons: [{ code: 'sanctions_match' }] });
    expect(checkNamed(result, 'aml').reasons[0].message).toMatch(/owner "Ivan Petrov" matches OFAC SDN/);
    expect(result).toMatchObject({ status: 'failed', riskLevel: 'high' });
    expect(result.score).toBeLessThanOrEqual(0.3);
    expect(result.parties.find((p) => p.name === 'Ivan Petrov')?.screening.status).toBe('potential_match');
  });

  it('fails a sanctioned PSC the registry names, and reviews a weak match', async () => {
    const state = acmeState();
    state.owner = { forename: 'Viktor', surname: 'LISTED' };
    const strong: ScreenFunction = async (subject) =>
      subject.name.includes('LISTED') ? { status: 'potential_match', matches: [{ score: 0.95, lists: ['UN'] }] } : { status: 'clear', matches: [] };
    expect(checkNamed(await verify(state, acmeRequest, strong), 'aml').result).toBe('failed');
    await server?.close();
    const weak: ScreenFunction = async (subject) =>
      subject.name.includes('LISTED') ? { status: 'potential_match', matches: [{ score: 0.72 }] } : { status: 'clear', matches: [] };
    const result = await verify(state, acmeRequest, weak);
    expect(checkNamed(result, 'aml')).toMatchObject({ result: 'review', reasons: [{ code: 'possible_sanctions_match' }] });
  });

  it('turns a screening engine that throws into review, not an exception', async () => {
    const result = await verify(acmeState(), acmeRequest, async () => {
      throw new Error('lists_unavailable');
    });
    expect(checkNamed(result, 'aml').result).toBe('review');
    expect(codes(checkNamed(result, 'aml'))).toContain('screening_unavailable');
  });

  it('makes a register that times out a review check within the budget, never passed', async () => {
    const state = acmeState();
    state.slow.fca = 5000;
    const result = await verify(state, acmeRequest, clear, 1000);
    expect(checkNamed(result, 'regulator')).toMatchObject({ result: 'review', reasons: [{ code: 'source_unavailable' }] });
    expect(checkNamed(result, 'regulator').reasons[0].message).toMatch(/timeout/);
    expect(result.sources.find((s) => s.name === 'fca')).toMatchObject({ status: 'unavailable', reason: 'timeout' });
    expect(result).toMatchObject({ status: 'review', riskLevel: 'medium' });
    expect(checkNamed(result, 'registry').result).toBe('passed');
  });

  it('reviews the registry check when the registry is down, and fails a dissolved company', async () => {
    const down = acmeState();
    down.down = ['companies_house'];
    const result = await verify(down);
    expect(checkNamed(result, 'registry')).toMatchObject({ result: 'review', reasons: [{ code: 'source_unavailable' }] });
    await server?.close();
    const dissolved = acmeState();
    dissolved.company.status = 'dissolved';
    expect(codes(checkNamed(await verify(dissolved), 'registry'))).toContain('company_not_active');
  });

  it('fails an invalid VAT number and a name the registry does not know', async () => {
    const state = acmeState();
    state.vat.valid = false;
    const result = await verify(state, { ...acmeRequest, companyName: 'Zenith Holdings Ltd' });
    expect(codes(checkNamed(result, 'tax'))).toEqual(['vat_invalid']);
    expect(codes(checkNamed(result, 'registry'))).toContain('registry_name_mismatch');
  });

  it('reviews checks no configured register can do (GB VAT, registry of another country)', async () => {
    const gbVat = await verify(acmeState(), { ...acmeRequest, vatNumber: 'GB123456789' });
    expect(checkNamed(gbVat, 'tax')).toMatchObject({ result: 'review', reasons: [{ code: 'no_source' }] });
    await server?.close();
    const german = await verify(acmeState(), { companyName: 'Acme GmbH', country: 'DE', registrationNumber: 'HRB 12345' });
    expect(checkNamed(german, 'registry')).toMatchObject({ result: 'review', reasons: [{ code: 'no_source' }] });
    expect(german.checks.filter((c) => c.result === 'skipped').map((c) => c.name)).toEqual(['tax', 'regulator', 'lei']);
  });

  it('refuses a malformed request before calling any register', async () => {
    server = await startFakeRegisters(acmeState());
    const attempt = verifyBusiness({ ...acmeRequest, lei: 'NOT-AN-LEI' }, { sources: liveSourcesAt(server.baseUrl), screen: clear, budgetMs: 1000 });
    await expect(attempt).rejects.toBeInstanceOf(KybRequestInvalidError);
    await expect(attempt).rejects.toMatchObject({ issues: [{ path: '/lei' }] });
    expect(server.received).toHaveLength(0);
  });
});
