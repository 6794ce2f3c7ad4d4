import { describe, expect, it } from 'vitest';
import { companyNameSimilarity, parseCompanyName } from '../../src/kyb/names.ts';
import {
  isCountryCode,
  leiCheckProblem,
  normaliseUkCompanyNumber,
  parseVatNumber,
  validateKybRequest,
  withLeiCheckDigits,
} from '../../src/kyb/validation.ts';

describe('LEI check digits (ISO 17442, ISO 7064 MOD 97-10)', () => {
  it.each(['5493001KJTIIGC8Y1R12', '213800WAVVOPS85N2205', 'HWUPKR0MPOU8FGXBT394'])('accepts %s', (lei) => {
    expect(leiCheckProblem(lei)).toBeNull();
  });

  it('rejects a wrong check digit, a bad length and lower case with a reason', () => {
    expect(leiCheckProblem('5493001KJTIIGC8Y1R13')).toMatch(/check digits do not match/);
    expect(leiCheckProblem('5493001KJTIIGC8Y1R1')).toMatch(/20 characters/);
    expect(leiCheckProblem('5493001kjtiigc8y1r12')).toMatch(/20 characters/);
    expect(leiCheckProblem('5493001KJTIIGC8Y1RAB')).toMatch(/check digits/);
  });

  it('computes check digits that validate', () => {
    expect(withLeiCheckDigits('5493001KJTIIGC8Y1R')).toBe('5493001KJTIIGC8Y1R12');
  });
});

describe('VAT number formats', () => {
  it.each([
    ['DE123456789', 'DE', { prefix: 'DE', number: '123456789' }],
    ['123456789', 'DE', { prefix: 'DE', number: '123456789' }],
    ['EL 123 456 789', 'GR', { prefix: 'EL', number: '123456789' }],
    ['FRAB123456789', 'FR', { prefix: 'FR', number: 'AB123456789' }],
    ['NL123456789B01', 'NL', { prefix: 'NL', number: '123456789B01' }],
    ['ATU12345678', 'AT', { prefix: 'AT', number: 'U12345678' }],
    ['IE1234567WA', 'IE', { prefix: 'IE', number: '1234567WA' }],
    ['XI123456789', 'GB', { prefix: 'XI', number: '123456789' }],
    ['GB123456789', 'GB', { prefix: 'GB', number: '123456789' }],
    ['GBGD001', 'GB', { prefix: 'GB', number: 'GD001' }],
    ['ESX1234567L', 'ES', { prefix: 'ES', number: 'X1234567L' }],
    ['SE123456789001', 'SE', { prefix: 'SE', number: '123456789001' }],
  ])('parses %s for %s', (raw, country, expected) => {
    expect(parseVatNumber(raw, country)).toEqual(expected);
  });

  it.each([
    ['DE12345678', 'DE', /not a DE VAT number/],
    ['ATX12345678', 'AT', /not a AT VAT number/],
    ['NL123456789A01', 'NL', /not a NL VAT number/],
    ['SE123456789012', 'SE', /not a SE VAT number/],
    ['12345', 'US', /no VAT number format is known for country US/],
  ])('rejects %s for %s with the reason', (raw, country, reason) => {
    const parsed = parseVatNumber(raw, country);
    expect('problem' in parsed && parsed.problem).toMatch(reason);
  });
});

describe('UK company numbers as Companies House keys them', () => {
  it.each([
    ['1234567', '01234567'],
    ['102498', '00102498'],
    ['SC1234', 'SC001234'],
    ['sc 123456', 'SC123456'],
    ['NI12345', 'NI012345'],
    ['OC300001', 'OC300001'],
    ['SO1', 'SO000001'],
    ['NC123', 'NC000123'],
    ['R0123', 'R0000123'],
    ['01234567', '01234567'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normaliseUkCompanyNumber(raw)).toBe(expected);
  });

  it.each(['123456789', 'XX123456', 'SC1234567', 'ABCDEFGH', ''])('rejects %s', (raw) => {
    expect(normaliseUkCompanyNumber(raw)).toHaveProperty('problem');
  });
});

describe('country codes', () => {
  it('knows ISO 3166-1 alpha-2 codes and nothing else', () => {
    for (const code of ['GB', 'DE', 'GR', 'US', 'AX']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['UK', 'EL', 'XI', 'EU', 'ZZ', 'gb']) expect(isCountryCode(code)).toBe(false);
  });
});

describe('validateKybRequest', () => {
  it('normalises a good request', () => {
    const result = validateKybRequest({
      companyName: ' Acme Ltd ',
      country: 'gb',
      registrationNumber: '1234567',
      vatNumber: 'XI 123 4567 89',
      lei: '5493001kjtiigc8y1r12',
      regulatorId: '123456',
      officers: [{ name: 'Jane Example', role: 'director', dateOfBirth: '1975-06-01' }],
    });
    expect(result).toEqual({
      request: {
        companyName: 'Acme Ltd',
        country: 'GB',
        registrationNumber: '01234567',
        vat: { prefix: 'XI', number: '123456789' },
        lei: '5493001KJTIIGC8Y1R12',
        regulatorId: '123456',
        officers: [{ name: 'Jane Example', role: 'director', dateOfBirth: '1975-06-01' }],
        owners: [],
      },
    });
  });

  it('returns one field error per problem, with the reason', () => {
    const result = validateKybRequest({
      companyName: 'Acme',
      country: 'XX',
      registrationNumber: '1',
      vatNumber: 'DE1',
      lei: '5493001KJTIIGC8Y1R13',
      owners: [{ name: '', ownershipPercent: 120, dateOfBirth: '1975-02-30' }],
    });
    expect('errors' in result && result.errors.map((e) => e.path)).toEqual([
      '/country',
      '/vatNumber',
      '/lei',
      '/owners/0/name',
      '/owners/0/ownershipPercent',
      '/owners/0/dateOfBirth',
    ]);
    expect('errors' in result && result.errors[0].message).toMatch(/unknown country code "XX"/);
  });

  it('checks the FRN format for a UK regulator reference', () => {
    const result = validateKybRequest({ companyName: 'Acme', country: 'GB', registrationNumber: '1', regulatorId: 'FRN-1' });
    expect(result).toEqual({ errors: [{ path: '/regulatorId', message: expect.stringMatching(/6 or 7 digits/) }] });
  });
});

describe('company name matching', () => {
  it('treats legal-form spellings as the same form', () => {
    expect(parseCompanyName('Acme Ltd')).toEqual({ core: 'acme', legalForm: 'ltd' });
    expect(parseCompanyName('ACME LIMITED')).toEqual({ core: 'acme', legalForm: 'ltd' });
    expect(companyNameSimilarity('Acme Ltd', 'ACME LIMITED')).toBe(1);
    expect(companyNameSimilarity('The Acme Trading Co. Public Limited Company', 'acme trading co plc')).toBe(1);
    expect(companyNameSimilarity('Acme SARL', 'SARL ACME')).toBe(1);
    expect(companyNameSimilarity('Müller & Söhne GmbH', 'MULLER AND SOHNE GESELLSCHAFT MIT BESCHRANKTER HAFTUNG')).toBe(1);
  });

  it('tolerates a typo and word order but not a different company', () => {
    expect(companyNameSimilarity('Acme Widgets Ltd', 'ACME WIDGETZ LIMITED')).toBeGreaterThan(0.85);
    expect(companyNameSimilarity('Widgets Acme Ltd', 'ACME WIDGETS LIMITED')).toBe(1);
    expect(companyNameSimilarity('Acme Ltd', 'Zenith Holdings Limited')).toBeLessThan(0.5);
  });

  it('lowers the score when the legal forms differ', () => {
    expect(companyNameSimilarity('Acme Ltd', 'Acme PLC')).toBe(0.9);
  });
});
