import { describe, expect, it } from 'vitest';
import type { ScreeningQueryBody } from '../../src/aml/schemas.ts';
import { validateScreeningBatch, validateScreeningQuery } from '../../src/aml/validate.ts';

// The route's schema checks structure (types, the threshold range, sizes; test/aml/api.test.ts); these are the
// rules it cannot express.
const errorsOf = (body: ScreeningQueryBody) => {
  const result = validateScreeningQuery(body);
  return result.ok ? [] : result.errors;
};

describe('screening query validation', () => {
  it('accepts a full query and normalises country names to ISO codes', () => {
    expect(validateScreeningQuery({ name: '  Ivan   Petrov ', type: 'person', dateOfBirth: '1961-03-12', country: 'Russia', threshold: 0.85 }))
      .toEqual({ ok: true, value: { name: 'Ivan Petrov', type: 'person', dateOfBirth: '1961-03-12', country: 'RU', threshold: 0.85 } });
    // Names ICU spells otherwise ("Türkiye") or gives to a withdrawn code first (VD "Vietnam", RH "Zimbabwe").
    for (const [country, code] of [['Turkey', 'TR'], ['Türkiye', 'TR'], ['Vietnam', 'VN'], ['Zimbabwe', 'ZW'], ['Vanuatu', 'VU'], ['Benin', 'BJ']]) {
      expect(validateScreeningQuery({ name: 'Ivan Petrov', country })).toEqual({ ok: true, value: { name: 'Ivan Petrov', country: code } });
    }
    expect(validateScreeningQuery({ name: 'Σαντάμ Χουσεΐν' }).ok).toBe(true);
    expect(validateScreeningQuery({ name: 'Vlаdimir Putin' }).ok).toBe(true); // mixed Latin/Cyrillic: screened, not refused
  });

  it('screens the name parts of a person joined as said when no name is given', () => {
    expect(validateScreeningQuery({ firstName: ' Vladimir ', fatherName: 'Vladimirovich', lastName: 'Putin' }))
      .toEqual({ ok: true, value: { name: 'Vladimir Vladimirovich Putin' } });
    expect(validateScreeningQuery({ firstName: 'V.', middleName: 'V', lastName: 'Putin' })).toEqual({ ok: true, value: { name: 'V. V Putin' } });
    expect(validateScreeningQuery({ name: 'Vladimir Putin', firstName: 'Vladimir' })).toEqual({ ok: true, value: { name: 'Vladimir Putin' } });
    expect(errorsOf({ firstName: 'Ivan', lastName: '1234' }).map((e) => e.path)).toEqual(['/lastName']);
    expect(errorsOf({ firstName: 'Ivan', lastName: 'P\u0000' }).map((e) => e.path)).toEqual(['/lastName']);
    expect(errorsOf({ lastName: 'X' }).map((e) => e.path)).toEqual(['/name']);
  });

  it.each<[ScreeningQueryBody, string]>([
    [{}, '/name'],
    [{ name: '' }, '/name'],
    [{ name: 'A' }, '/name'],
    [{ name: '12345' }, '/name'],
    [{ name: 'x'.repeat(10_000) }, '/name'],
    [{ name: 'Ivan\u0000Petrov' }, '/name'],
    [{ name: 'Ivan\u202ePetrov' }, '/name'],
    [{ name: 'Ivan Petrov', dateOfBirth: '1961-02-30' }, '/dateOfBirth'],
    [{ name: 'Ivan Petrov', dateOfBirth: '2999-01-01' }, '/dateOfBirth'],
    [{ name: 'Ivan Petrov', dateOfBirth: '12/03/1961' }, '/dateOfBirth'],
    [{ name: 'Ivan Petrov', country: 'Atlantis' }, '/country'],
    [{ name: 'Ivan Petrov', identifiers: [{ value: '' }] }, '/identifiers/0/value'],
  ])('refuses %j at %s', (body, path) => {
    expect(errorsOf(body).map((e) => e.path)).toEqual([path]);
  });

  it('names every bad field of a batch by position', () => {
    const result = validateScreeningBatch({ queries: [{ name: 'Ivan Petrov' }, { name: 'B' }, { name: 'Olga Ivanova', country: 'Narnia' }] });
    expect(result).toEqual({ ok: false, errors: [
      { path: '/queries/1/name', message: expect.any(String) },
      { path: '/queries/2/country', message: expect.any(String) },
    ] });
  });
});
