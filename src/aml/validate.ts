// Validation of screening requests for the HTTP layer: every problem is reported with the field it concerns
// (`{path, message}`, JSON Pointer paths) so the route answers 400 `invalid_request` and never 5xx.

import { isValidQueryDate } from './parsers/dates.ts';
import { countryCode } from './parsers/countries.ts';
import type { ScreeningQuery } from './screen.ts';
import type { FieldError } from '../http/errors.ts';

export const NAME_MAX_LENGTH = 512;
export const BATCH_MAX = 100;
const IDENTIFIERS_MAX = 20;
const IDENTIFIER_MAX_LENGTH = 64;

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

// C0/C1 controls and the bidirectional overrides that can disguise a name. Zero-width joiners stay allowed:
// Persian and Indic names need them.
const FORBIDDEN_CHARACTERS = /[\p{Cc}\u202a-\u202e\u2066-\u2069\ufffe\uffff]/u;

function validateName(value: unknown, path: string, errors: FieldError[]): string | undefined {
  if (typeof value !== 'string') {
    errors.push({ path, message: 'name is required and must be a string' });
    return undefined;
  }
  const name = value.normalize('NFKC').trim();
  if ([...name].length > NAME_MAX_LENGTH) {
    errors.push({ path, message: `name must be at most ${NAME_MAX_LENGTH} characters` });
    return undefined;
  }
  if (FORBIDDEN_CHARACTERS.test(name)) {
    errors.push({ path, message: 'name must not contain control characters' });
    return undefined;
  }
  const letters = name.match(/[\p{L}\p{N}]/gu) ?? [];
  if (letters.length < 2 || !/\p{L}/u.test(name)) {
    errors.push({ path, message: 'name must have at least 2 letters' });
    return undefined;
  }
  return name.replace(/\s+/g, ' ');
}

/** Parts of a person's name a query may give instead of `name`, in the order they are said. */
const NAME_PARTS = ['firstName', 'middleName', 'fatherName', 'lastName'] as const;

/**
 * The name to screen: `name` when given, else the name parts joined as said ("first middle father last"); a part
 * is checked like a name but may be one letter (an initial).
 */
function validateNameOrParts(input: Record<string, unknown>, prefix: string, errors: FieldError[]): string | undefined {
  const given = NAME_PARTS.filter((part) => input[part] !== undefined);
  const parts: string[] = [];
  for (const part of given) {
    const value = input[part];
    const text = typeof value === 'string' ? value.normalize('NFKC').trim().replace(/\s+/g, ' ') : undefined;
    if (text === undefined || [...text].length > NAME_MAX_LENGTH || FORBIDDEN_CHARACTERS.test(text) || !/\p{L}/u.test(text)) {
      errors.push({ path: `${prefix}/${part}`, message: `${part} must be a string of letters, at most ${NAME_MAX_LENGTH} characters` });
    } else {
      parts.push(text);
    }
  }
  if (input.name !== undefined || given.length === 0) return validateName(input.name, `${prefix}/name`, errors);
  if (parts.length < given.length) return undefined;
  return validateName(parts.join(' '), `${prefix}/name`, errors);
}

/** Checks one screening query; `prefix` is the JSON Pointer of the query inside the body ('' at the root). */
export function validateScreeningQuery(body: unknown, prefix = ''): Validation<ScreeningQuery> {
  const errors: FieldError[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ path: prefix || '/', message: 'body must be a JSON object' }] };
  }
  const input = body as Record<string, unknown>;
  const name = validateNameOrParts(input, prefix, errors);
  const query: ScreeningQuery = { name: name ?? '' };

  if (input.type !== undefined) {
    if (input.type === 'person' || input.type === 'organization') query.type = input.type;
    else errors.push({ path: `${prefix}/type`, message: 'type must be "person" or "organization"' });
  }
  if (input.dateOfBirth !== undefined) {
    if (typeof input.dateOfBirth === 'string' && isValidQueryDate(input.dateOfBirth)) query.dateOfBirth = input.dateOfBirth;
    else errors.push({ path: `${prefix}/dateOfBirth`, message: 'dateOfBirth must be a real past date: YYYY, YYYY-MM or YYYY-MM-DD' });
  }
  if (input.country !== undefined) {
    const code = typeof input.country === 'string' && input.country.length <= 64 ? countryCode(input.country) : undefined;
    if (code) query.country = code;
    else errors.push({ path: `${prefix}/country`, message: 'country must be an ISO 3166-1 alpha-2 code or a country name' });
  }
  if (input.threshold !== undefined) {
    if (typeof input.threshold === 'number' && Number.isFinite(input.threshold) && input.threshold >= 0.5 && input.threshold <= 1) {
      query.threshold = input.threshold;
    } else {
      errors.push({ path: `${prefix}/threshold`, message: 'threshold must be a number from 0.5 to 1' });
    }
  }
  if (input.identifiers !== undefined) {
    const path = `${prefix}/identifiers`;
    if (!Array.isArray(input.identifiers) || input.identifiers.length > IDENTIFIERS_MAX) {
      errors.push({ path, message: `identifiers must be an array of at most ${IDENTIFIERS_MAX} {type?, value}` });
    } else {
      query.identifiers = [];
      input.identifiers.forEach((item: unknown, i) => {
        const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : undefined;
        const value = record?.value;
        const type = record?.type;
        if (typeof value !== 'string' || !value.trim() || value.length > IDENTIFIER_MAX_LENGTH || FORBIDDEN_CHARACTERS.test(value)) {
          errors.push({ path: `${path}/${i}/value`, message: `value must be a string of 1 to ${IDENTIFIER_MAX_LENGTH} printable characters` });
        } else if (type !== undefined && (typeof type !== 'string' || type.length > 32)) {
          errors.push({ path: `${path}/${i}/type`, message: 'type must be a short string' });
        } else {
          query.identifiers!.push({ value: value.trim(), ...(typeof type === 'string' ? { type } : {}) });
        }
      });
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: query };
}

/** Checks `{queries: [...]}` for POST /api/v1/aml/screen/batch (1 to BATCH_MAX queries). */
export function validateScreeningBatch(body: unknown): Validation<ScreeningQuery[]> {
  const queries = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).queries : undefined;
  if (!Array.isArray(queries) || queries.length === 0 || queries.length > BATCH_MAX) {
    return { ok: false, errors: [{ path: '/queries', message: `queries must be an array of 1 to ${BATCH_MAX} screening queries` }] };
  }
  const errors: FieldError[] = [];
  const valid: ScreeningQuery[] = [];
  queries.forEach((query, i) => {
    const result = validateScreeningQuery(query, `/queries/${i}`);
    if (result.ok) valid.push(result.value);
    else errors.push(...result.errors);
  });
  return errors.length ? { ok: false, errors } : { ok: true, value: valid };
}
