import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { createSandboxSources, kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { KybSandboxScenario, KybVerifyRequest, KybVerifyResponse } from '../../src/kyb/schemas.ts';
import type { KybResult, ScreenFunction } from '../../src/kyb/types.ts';
import { validateKybRequest } from '../../src/kyb/validation.ts';
import { verifyBusiness } from '../../src/kyb/verify.ts';

const clear: ScreenFunction = async () => ({ status: 'clear', matches: [] });
const sources = createSandboxSources();
const run = (request: (typeof kybSandboxScenarios)[number]['request'], screen = clear) =>
  verifyBusiness(request, { sources, screen, budgetMs: 2000 });

describe('KYB sandbox', () => {
  it('lists the scenarios the issue names, each with a request that passes the offline checks', () => {
    expect(kybSandboxScenarios.map((s) => s.id)).toEqual(
      expect.arrayContaining(['active_company', 'dissolved_company', 'vat_invalid', 'regulator_not_authorised', 'registry_down']),
    );
    for (const scenario of kybSandboxScenarios) {
      expect(Value.Check(KybSandboxScenario, scenario)).toBe(true);
      expect(Value.Check(KybVerifyRequest, scenario.request)).toBe(true);
      expect(validateKybRequest(scenario.request)).toHaveProperty('request');
    }
    expect(new Set(kybSandboxScenarios.map((s) => s.request.registrationNumber)).size).toBe(kybSandboxScenarios.length);
  });

  it.each(kybSandboxScenarios.map((s) => [s.id, s] as const))('%s gives the documented outcome', async (_id, scenario) => {
    const result = await run(scenario.request);
    expect(result.status).toBe(scenario.expected.status);
    expect(Object.fromEntries(result.checks.map((c) => [c.name, c.result]))).toEqual(scenario.expected.checks);
  });

  it('answers results that fit the response schema', async () => {
    const result: KybResult = await run(kybSandboxScenarios[0].request);
    const body = { kybId: 'kyb_x', reportUrl: 'http://localhost/reports/RPT-002/kyb_x.pdf', completedAt: new Date().toISOString(), environment: 'sandbox', ...result };
    expect([...Value.Errors(KybVerifyResponse, body)]).toEqual([]);
  });

  it('answers "not found" for any other company number', async () => {
    const result = await run({ companyName: 'Unknown Ltd', country: 'GB', registrationNumber: '12345678' });
    expect(result.checks[0]).toMatchObject({ name: 'registry', result: 'failed', reasons: [{ code: 'company_not_found' }] });
  });

  it('still screens with the injected engine: a sanctioned owner fails a sandbox company', async () => {
    const screen: ScreenFunction = async (subject) =>
      subject.name === 'Alex Example' ? { status: 'potential_match', matches: [{ score: 1, lists: ['OFAC SDN'] }] } : { status: 'clear', matches: [] };
    const result = await run(kybSandboxScenarios[0].request, screen);
    expect(result).toMatchObject({ status: 'failed', riskLevel: 'high' });
  });
});
