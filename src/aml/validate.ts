// The meaning of a screening request, once its structure has passed the route's schema: every problem is reported
// with the field it concerns (`{path, message}`, JSON Pointer paths) so the route answers 400 and never 5xx.

import { isValidQueryDate } from './parsers/dates.ts';
import { countryCode } from './parsers/countries.ts';
import type { ScreeningBatchBody, ScreeningQueryBody } from './schemas.ts';
import type { ScreeningQuery } from './screen.ts';
import type { FieldIssue } from '../errors.ts';

export const NAME_MAX_LENGTH = 512;
export const BATCH_MAX = 100;
export const IDENTIFIERS_MAX = 20;
export const IDENTIFIER_MAX_LENGTH = 64;

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldIssue[] };

// C0/C1 controls and the bidirectional overrides that can disguise a name. Zero-width joiners stay allowed:
// Persian and Indic names need them.
const FORBIDDEN_CHARACTERS = /[\p{Cc}\u202a-\u202e\u2066-\u2069\ufffe\uffff]/u;

function validateName(value: unknown, path: string, errors: FieldIssue[]): string | undefined {
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
function validateNameOrParts(body: ScreeningQueryBody, prefix: string, errors: FieldIssue[]): string | undefined {
  const given = NAME_PARTS.filter((part) => body[part] !== undefined);
  const parts: string[] = [];
  for (const part of given) {
    const text = body[part]!.normalize('NFKC').trim().replace(/\s+/g, ' ');
    if ([...text].length > NAME_MAX_LENGTH || FORBIDDEN_CHARACTERS.test(text) || !/\p{L}/u.test(text)) {
      errors.push({ path: `${prefix}/${part}`, message: `${part} must be a string of letters, at most ${NAME_MAX_LENGTH} characters` });
    } else {
      parts.push(text);
    }
  }
  if (body.name !== undefined || given.length === 0) return validateName(body.name, `${prefix}/name`, errors);
  if (parts.length < given.length) return undefined;
  return validateName(parts.join(' '), `${prefix}/name`, errors);
}

/**
 * The rules a screening query must follow beyond its structure, which the route's schema has checked: a name
 * (or name parts) with letters and no control characters (length counted after NFKC), a real past date, a known
 * country, printable identifiers. `prefix` is the JSON Pointer of the query inside the body ('' at the root).
 */
export function validateScreeningQuery(body: ScreeningQueryBody, prefix = ''): Validation<ScreeningQuery> {
  const errors: FieldIssue[] = [];
  const name = validateNameOrParts(body, prefix, errors);
  const query: ScreeningQuery = { name: name ?? '' };
  if (body.type !== undefined) query.type = body.type;
  if (body.threshold !== undefined) query.threshold = body.threshold;
  if (body.dateOfBirth !== undefined) {
    if (isValidQueryDate(body.dateOfBirth)) query.dateOfBirth = body.dateOfBirth;
    else errors.push({ path: `${prefix}/dateOfBirth`, message: 'dateOfBirth must be a real past date: YYYY, YYYY-MM or YYYY-MM-DD' });
  }
  if (body.country !== undefined) {
    const code = body.country.length <= 64 ? countryCode(body.country) : undefined;
    if (code) query.country = code;
    else errors.push({ path: `${prefix}/country`, message: 'country must be an ISO 3166-1 alpha-2 code or a country name' });
  }
  if (body.identifiers !== undefined) {
    query.identifiers = [];
    body.identifiers.forEach(({ type, value }, i) => {
      if (!value.trim() || FORBIDDEN_CHARACTERS.test(value)) {
        errors.push({ path: `${prefix}/identifiers/${i}/value`, message: `value must be a string of 1 to ${IDENTIFIER_MAX_LENGTH} printable characters` });
      } else {
        query.identifiers!.push({ value: value.trim(), ...(type !== undefined ? { type } : {}) });
      }
    });
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: query };
}

/** The rules of every query of a batch (POST /api/v1/aml/screen/batch), each error naming its query by position. */
export function validateScreeningBatch(body: ScreeningBatchBody): Validation<ScreeningQuery[]> {
  const errors: FieldIssue[] = [];
  const valid: ScreeningQuery[] = [];
  body.queries.forEach((query, i) => {
    const result = validateScreeningQuery(query, `/queries/${i}`);
    if (result.ok) valid.push(result.value);
    else errors.push(...result.errors);
  });
  return errors.length ? { ok: false, errors } : { ok: true, value: valid };
}
