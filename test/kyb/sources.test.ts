import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompaniesHouseSource } from '../../src/kyb/sources/companies-house.ts';
import { createFcaSource } from '../../src/kyb/sources/fca.ts';
import { createGleifSource } from '../../src/kyb/sources/gleif.ts';
import type { SourceEndpointConfig } from '../../src/kyb/sources/http.ts';
import { createViesSource } from '../../src/kyb/sources/vies.ts';
import type { LookupContext } from '../../src/kyb/types.ts';
import { json, startLocalServer, type LocalServer } from './local-server.ts';
import * as shapes from './register-shapes.ts';

const clock = { now: () => Date.now() };
let server: LocalServer;
let endpoint: SourceEndpointConfig;

beforeAll(async () => {
  server = await startLocalServer();
  endpoint = { baseUrl: server.baseUrl, timeoutMs: 5_000, maxAttempts: 3, ratePerSecond: 1000, burst: 1000, backoffBaseMs: 10 };
});
afterAll(() => server.close());

const within = (ms: number): LookupContext => ({ deadline: Date.now() + ms, clock });

describe('Companies House adapter', () => {
  const source = () => createCompaniesHouseSource({ ...endpoint, apiKey: 'ch-key' }, clock);

  it('reads profile, active officers and PSCs with Basic auth (API key as user name)', async () => {
    server.handle((request, response) => {
      if (request.url === '/company/01234567') return json(response, 200, shapes.companyProfile('01234567', 'ACME LIMITED'));
      if (request.url.startsWith('/company/01234567/officers')) return json(response, 200, shapes.officerList());
      if (request.url.startsWith('/company/01234567/persons-with-significant-control')) return json(response, 200, shapes.pscList());
      json(response, 404, shapes.companyNotFound);
    });
    const answer = await source().lookup({ companyNumber: '01234567' }, within(2000));
    expect(answer.outcome).toBe('found');
    if (answer.outcome !== 'found') return;
    expect(answer.record).toMatchObject({ companyNumber: '01234567', name: 'ACME LIMITED', status: 'active' });
    expect(answer.record.address).toEqual({ lines: ['10 Example Road'], locality: 'Leeds', region: undefined, postalCode: 'LS1 4AB', country: 'England' });
    expect(answer.record.officers).toEqual([
      { name: 'Jane Mary EXAMPLE', role: 'director', appointedOn: '2009-03-17', birthYearMonth: '1975-06', nationality: 'British' },
    ]);
    expect(answer.record.owners).toEqual([
      {
        name: 'Mr John OWNER',
        kind: 'person',
        naturesOfControl: ['ownership-of-shares-50-to-75-percent', 'voting-rights-50-to-75-percent'],
        ownershipPercentAtLeast: 50,
        birthYearMonth: '1970-01',
      },
    ]);
    expect(server.received.map((r) => r.headers.authorization)).toEqual(
      Array(3).fill(`Basic ${Buffer.from('ch-key:').toString('base64')}`),
    );
  });

  it('maps 404 company-profile-not-found to not_found', async () => {
    server.handle((_request, response) => json(response, 404, shapes.companyNotFound));
    const answer = await source().lookup({ companyNumber: '09999999' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'not_found', reason: 'company_not_found', summary: { error: 'company-profile-not-found' } });
  });

  it('retries a 429 after Retry-After and uses the answer that follows', async () => {
    let profileCalls = 0;
    server.handle((request, response) => {
      if (request.url !== '/company/01234567') return json(response, 404, shapes.companyNotFound);
      profileCalls += 1;
      if (profileCalls === 1) return json(response, 429, {}, { 'retry-after': '0' });
      json(response, 200, shapes.companyProfile('01234567', 'ACME LIMITED'));
    });
    const answer = await source().lookup({ companyNumber: '01234567' }, within(2000));
    expect(answer.outcome).toBe('found');
    expect(profileCalls).toBe(2);
  });

  it('answers unavailable (rate_limited) when 429 persists, after the configured attempts', async () => {
    server.handle((_request, response) => json(response, 429, {}));
    const answer = await source().lookup({ companyNumber: '01234567' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'unavailable', reason: 'rate_limited', summary: { attempts: 3 } });
  });

  it('reports a rejected API key as unauthorised without retrying', async () => {
    server.handle((_request, response) => json(response, 401, { error: 'Invalid Authorization', type: 'ch:service' }));
    const answer = await source().lookup({ companyNumber: '01234567' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'unavailable', reason: 'unauthorised' });
    expect(server.received.filter((r) => r.url === '/company/01234567')).toHaveLength(1);
  });

  it('keeps the profile and flags the gap when the officers list fails', async () => {
    server.handle((request, response) => {
      if (request.url === '/company/01234567') return json(response, 200, shapes.companyProfile('01234567', 'ACME LIMITED'));
      if (request.url.includes('/officers')) return json(response, 503, {});
      json(response, 404, {});
    });
    const answer = await source().lookup({ companyNumber: '01234567' }, within(2000));
    expect(answer.outcome).toBe('found');
    if (answer.outcome === 'found') {
      expect(answer.record.incomplete).toEqual(['officers: http_503']);
      expect(answer.record.owners).toEqual([]);
    }
  });

  it('gives up at the deadline when the registry does not answer', async () => {
    server.handle(() => {});
    const answer = await source().lookup({ companyNumber: '01234567' }, within(500));
    expect(answer).toMatchObject({ outcome: 'unavailable', reason: 'timeout' });
  });
});

describe('GLEIF adapter', () => {
  const source = () => createGleifSource(endpoint, clock);
  const lei = '5493001KJTIIGC8Y1R12';

  it('maps the JSON:API envelope (legal name, registeredAs, jurisdiction, statuses)', async () => {
    server.handle((request, response) => json(response, 200, shapes.leiRecord(lei, 'ACME LIMITED', '01234567')));
    const answer = await source().lookup({ lei }, within(2000));
    expect(server.received[0].url).toBe(`/api/v1/lei-records/${lei}`);
    expect(answer).toMatchObject({
      outcome: 'found',
      record: { lei, legalName: 'ACME LIMITED', registeredAs: '01234567', jurisdiction: 'GB', registrationStatus: 'ISSUED', entityStatus: 'ACTIVE' },
    });
  });

  it('keeps a LAPSED registration status', async () => {
    server.handle((_request, response) => json(response, 200, shapes.leiRecord(lei, 'ACME LIMITED', '01234567', 'LAPSED')));
    const answer = await source().lookup({ lei }, within(2000));
    expect(answer).toMatchObject({ outcome: 'found', record: { registrationStatus: 'LAPSED' } });
  });

  it('maps 404 to not_found and retries 503', async () => {
    server.handle((_request, response) => json(response, 404, shapes.leiNotFound));
    expect(await source().lookup({ lei }, within(2000))).toMatchObject({ outcome: 'not_found', reason: 'lei_not_found' });
    server.handle((_request, response) =>
      server.received.length === 1 ? json(response, 503, {}) : json(response, 200, shapes.leiRecord(lei, 'ACME LIMITED', '01234567')),
    );
    expect(await source().lookup({ lei }, within(2000))).toMatchObject({ outcome: 'found' });
    expect(server.received).toHaveLength(2);
  });
});

describe('VIES adapter', () => {
  const source = () => createViesSource(endpoint, clock);

  it('posts {countryCode, vatNumber} and maps a valid answer', async () => {
    server.handle((_request, response) => json(response, 200, shapes.vatAnswer('DE', '123456789', true, 'ACME GMBH')));
    const answer = await source().lookup({ countryCode: 'DE', vatNumber: '123456789' }, within(2000));
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/check-vat-number' });
    expect(JSON.parse(server.received[0].body)).toEqual({ countryCode: 'DE', vatNumber: '123456789' });
    expect(answer).toMatchObject({ outcome: 'found', record: { valid: true, name: 'ACME GMBH', address: '10 EXAMPLE ROAD\nLEEDS' } });
  });

  it('maps valid: false with "---" name to an invalid number without a name', async () => {
    server.handle((_request, response) => json(response, 200, shapes.vatAnswer('DE', '123456789', false)));
    const answer = await source().lookup({ countryCode: 'DE', vatNumber: '123456789' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'found', record: { valid: false } });
    if (answer.outcome === 'found') expect(answer.record.name).toBeUndefined();
  });

  it('retries MS_UNAVAILABLE in an HTTP 200 errorWrappers envelope', async () => {
    server.handle((_request, response) =>
      server.received.length === 1
        ? json(response, 200, shapes.viesError('MS_UNAVAILABLE'))
        : json(response, 200, shapes.vatAnswer('FR', '12345678901', true, 'ACME SA')),
    );
    const answer = await source().lookup({ countryCode: 'FR', vatNumber: '12345678901' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'found', record: { valid: true } });
    expect(server.received).toHaveLength(2);
  });

  it.each(['TIMEOUT', 'MS_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'MS_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ'])(
    'answers unavailable with the VIES code when %s persists (HTTP 500 envelope)',
    async (code) => {
      server.handle((_request, response) => json(response, 500, shapes.viesError(code)));
      const answer = await source().lookup({ countryCode: 'IT', vatNumber: '12345678901' }, within(2000));
      expect(answer).toMatchObject({ outcome: 'unavailable', reason: code, summary: { attempts: 3 } });
    },
  );

  it('maps INVALID_INPUT to not_found without retrying, and VAT_BLOCKED to unavailable', async () => {
    server.handle((_request, response) => json(response, 400, shapes.viesError('INVALID_INPUT')));
    expect(await source().lookup({ countryCode: 'IT', vatNumber: '1' }, within(2000))).toMatchObject({
      outcome: 'not_found',
      reason: 'vat_invalid_input',
    });
    expect(server.received).toHaveLength(1);
    server.handle((_request, response) => json(response, 200, shapes.viesError('VAT_BLOCKED')));
    expect(await source().lookup({ countryCode: 'IT', vatNumber: '1' }, within(2000))).toMatchObject({
      outcome: 'unavailable',
      reason: 'VAT_BLOCKED',
    });
  });

  it('reads userError of the GET form as a failure code', async () => {
    server.handle((_request, response) => json(response, 200, { isValid: false, userError: 'MS_UNAVAILABLE' }));
    const answer = await source().lookup({ countryCode: 'IT', vatNumber: '12345678901' }, within(2000));
    expect(answer).toMatchObject({ outcome: 'unavailable', reason: 'MS_UNAVAILABLE' });
  });
});

describe('FCA register adapter', () => {
  const source = (overrides: Partial<SourceEndpointConfig> = {}) =>
    createFcaSource({ ...endpoint, email: 'ops@example.com', apiKey: 'fca-key', ...overrides }, clock);

  it('sends x-auth-email / x-auth-key and maps the firm', async () => {
    server.handle((_request, response) => json(response, 200, shapes.fcaFirm('123456', 'ACME LIMITED', 'Authorised', '1234567')));
    const answer = await source().lookup({ firmReference: '123456' }, within(2000));
    expect(server.received[0]).toMatchObject({ url: '/V0.1/Firm/123456', headers: { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'fca-key' } });
    expect(answer).toMatchObject({
      outcome: 'found',
      record: { firmReference: '123456', name: 'ACME LIMITED', status: 'Authorised', companiesHouseNumber: '1234567' },
    });
  });

  it('reads failures from the Status code inside HTTP 200', async () => {
    const cases: Array<[string, string, object]> = [
      ['FSR-API-02-01-11', 'Firm not found', { outcome: 'not_found', reason: 'firm_not_found' }],
      ['FSR-API-02-01-21', 'Bad request. Invalid Input', { outcome: 'not_found', reason: 'firm_reference_rejected' }],
      ['FSR-API-01-01-11', 'Unauthorised: Please include a valid API key and Email address', { outcome: 'unavailable', reason: 'unauthorised' }],
      ['FSR-API-09-09-99', 'Something new', { outcome: 'unavailable', reason: 'unexpected_answer' }],
    ];
    for (const [status, message, expected] of cases) {
      server.handle((_request, response) => json(response, 200, shapes.fcaStatus(status, message)));
      expect(await source().lookup({ firmReference: '123456' }, within(2000))).toMatchObject(expected);
    }
  });

  it('keeps "No longer authorised" as the firm status', async () => {
    server.handle((_request, response) => json(response, 200, shapes.fcaFirm('123456', 'ACME LIMITED', 'No longer authorised', '01234567')));
    expect(await source().lookup({ firmReference: '123456' }, within(2000))).toMatchObject({ record: { status: 'No longer authorised' } });
  });

  it('times out each attempt on a register that does not answer, and gives up after the last', async () => {
    server.handle(() => {});
    const answer = await source({ timeoutMs: 300 }).lookup({ firmReference: '123456' }, within(120_000));
    expect(answer).toMatchObject({ outcome: 'unavailable', reason: 'timeout' });
    expect(server.received.length).toBe(endpoint.maxAttempts);
  });
});
