// One local server speaking all four registers' documented formats, for end-to-end tests and the benchmark.
import { createCompaniesHouseSource } from '../../src/kyb/sources/companies-house.ts';
import { createFcaSource } from '../../src/kyb/sources/fca.ts';
import { createGleifSource } from '../../src/kyb/sources/gleif.ts';
import type { SourceEndpointConfig } from '../../src/kyb/sources/http.ts';
import { createViesSource } from '../../src/kyb/sources/vies.ts';
import type { KybSources } from '../../src/kyb/types.ts';
import { json, startLocalServer, type LocalServer } from './local-server.ts';
import * as shapes from './register-shapes.ts';

export interface RegisterState {
  company: { number: string; name: string; status: string };
  owner: { forename: string; surname: string };
  vat: { valid: boolean; name: string };
  lei: { code: string; registeredAs: string; status: string };
  firm: { frn: string; status: string; companiesHouseNumber: string };
  /** Registers that answer only after this many milliseconds. */
  slow: Partial<Record<'companies_house' | 'gleif' | 'vies' | 'fca', number>>;
  down: Array<'companies_house' | 'gleif' | 'vies' | 'fca'>;
}

export const ACME_LEI = '5493001KJTIIGC8Y1R12';

/** The request that matches acmeState() in every register. */
export const ACME_REQUEST = {
  companyName: 'Acme Ltd',
  country: 'GB',
  registrationNumber: '1234567',
  vatNumber: 'XI123456789',
  lei: ACME_LEI,
  regulatorId: '123456',
} as const;

export function acmeState(): RegisterState {
  return {
    company: { number: '01234567', name: 'ACME LIMITED', status: 'active' },
    owner: { forename: 'John', surname: 'OWNER' },
    vat: { valid: true, name: 'ACME LIMITED' },
    lei: { code: ACME_LEI, registeredAs: '01234567', status: 'ISSUED' },
    firm: { frn: '123456', status: 'Authorised', companiesHouseNumber: '1234567' },
    slow: {},
    down: [],
  };
}

function registerOf(url: string) {
  if (url.startsWith('/company/')) return 'companies_house' as const;
  if (url.startsWith('/api/v1/lei-records/')) return 'gleif' as const;
  if (url.startsWith('/check-vat-number')) return 'vies' as const;
  return 'fca' as const;
}

export async function startFakeRegisters(state: RegisterState): Promise<LocalServer> {
  const server = await startLocalServer();
  server.handle((request, response) => {
    const register = registerOf(request.url);
    const answer = () => {
      if (state.down.includes(register)) {
        return register === 'vies' ? json(response, 200, shapes.viesError('MS_UNAVAILABLE')) : json(response, 503, {});
      }
      const { company, vat, lei, firm } = state;
      const base = `/company/${company.number}`;
      if (request.url === base) return json(response, 200, shapes.companyProfile(company.number, company.name, company.status));
      if (request.url.startsWith(`${base}/officers`)) return json(response, 200, shapes.officerList());
      if (request.url.startsWith(`${base}/persons-with-significant-control`)) return json(response, 200, shapes.pscList(state.owner));
      if (register === 'companies_house') return json(response, 404, shapes.companyNotFound);
      if (request.url === `/api/v1/lei-records/${lei.code}`) {
        return json(response, 200, shapes.leiRecord(lei.code, company.name, lei.registeredAs, lei.status));
      }
      if (register === 'gleif') return json(response, 404, shapes.leiNotFound);
      if (register === 'vies') {
        const asked = JSON.parse(request.body) as { countryCode: string; vatNumber: string };
        return json(response, 200, shapes.vatAnswer(asked.countryCode, asked.vatNumber, vat.valid, vat.name));
      }
      if (request.url === `/V0.1/Firm/${firm.frn}`) {
        return json(response, 200, shapes.fcaFirm(firm.frn, company.name, firm.status, firm.companiesHouseNumber));
      }
      json(response, 200, shapes.fcaStatus('FSR-API-02-01-11', 'Firm not found'));
    };
    const delay = state.slow[register];
    if (delay) setTimeout(answer, delay).unref();
    else answer();
  });
  return server;
}

export function liveSourcesAt(baseUrl: string, overrides: Partial<SourceEndpointConfig> = {}): KybSources {
  const endpoint: SourceEndpointConfig = {
    baseUrl,
    timeoutMs: 400,
    maxAttempts: 2,
    ratePerSecond: 10_000,
    burst: 10_000,
    backoffBaseMs: 20,
    ...overrides,
  };
  const clock = { now: () => Date.now() };
  const vies = createViesSource(endpoint, clock);
  return {
    registries: { GB: createCompaniesHouseSource({ ...endpoint, apiKey: 'ch-key' }, clock) },
    taxAuthorities: { XI: vies, DE: vies },
    regulators: { GB: createFcaSource({ ...endpoint, email: 'ops@example.com', apiKey: 'fca-key' }, clock) },
    lei: createGleifSource(endpoint, clock),
  };
}
