// FollowTheMoney JSON lines (OpenSanctions exports such as PEPs, and custom lists written in the same shape):
// one `{id, schema, properties: {name: [...], alias: [...], ...}, target?}` object per line. Only matchable
// schemata are kept; when the export marks targets, non-target helper entities are skipped.

import { countryCode, normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import { addIdentifier, addName, emptyEntity, pushUnique, type EntityType, type ListEntity, type ParsedList } from '../model.ts';

const SCHEMA_TYPES: Record<string, EntityType> = {
  Person: 'person',
  Organization: 'organization',
  Company: 'organization',
  LegalEntity: 'organization',
  PublicBody: 'organization',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

const IDENTIFIER_PROPERTIES: Record<string, string> = {
  passportNumber: 'passport',
  idNumber: 'national_id',
  taxNumber: 'tax_id',
  innCode: 'tax_id',
  vatCode: 'tax_id',
  registrationNumber: 'registration',
  ogrnCode: 'registration',
  leiCode: 'lei',
  swiftBic: 'swift',
  imoNumber: 'imo',
  mmsi: 'mmsi',
};

interface FtmRecord {
  id?: unknown;
  schema?: unknown;
  target?: unknown;
  last_change?: unknown;
  properties?: Record<string, unknown>;
}

function strings(properties: Record<string, unknown>, key: string): string[] {
  const value = properties[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

export function looksLikeFtm(firstLine: string): boolean {
  try {
    const record = JSON.parse(firstLine) as FtmRecord;
    return typeof record.schema === 'string' && typeof record.properties === 'object' && record.properties !== null;
  } catch {
    return false;
  }
}

export function parseFtm(text: string, listName: string): ParsedList {
  const entities: ListEntity[] = [];
  let lineNumber = 0;
  let latest = '';
  for (const line of text.split(/\r?\n/)) {
    lineNumber++;
    if (!line.trim()) continue;
    let record: FtmRecord;
    try {
      record = JSON.parse(line) as FtmRecord;
    } catch {
      throw new Error(`FollowTheMoney line ${lineNumber} is not JSON`);
    }
    // Only the table's own schemata: "constructor" or "toString" would read what every object inherits.
    const type = typeof record.schema === 'string' && Object.hasOwn(SCHEMA_TYPES, record.schema) ? SCHEMA_TYPES[record.schema] : undefined;
    const properties = record.properties ?? {};
    if (!type || record.target === false || typeof record.id !== 'string') continue;
    const entity = emptyEntity(listName, record.id, type);
    for (const name of strings(properties, 'name')) addName(entity, name, entity.names.length === 0 ? 'primary' : 'alias');
    for (const name of strings(properties, 'alias')) addName(entity, name, 'alias');
    for (const name of strings(properties, 'previousName')) addName(entity, name, 'former');
    for (const name of strings(properties, 'weakAlias')) addName(entity, name, 'weak_alias');
    if (entity.names.length === 0) continue;
    for (const program of [...strings(properties, 'program'), ...strings(properties, 'topics')]) pushUnique(entity.programs, program);
    for (const date of strings(properties, 'birthDate')) pushUnique(entity.birthDates, parseLooseDate(date));
    for (const place of strings(properties, 'birthPlace')) pushUnique(entity.birthPlaces, place);
    for (const nationality of [...strings(properties, 'nationality'), ...strings(properties, 'citizenship')]) {
      pushUnique(entity.nationalities, normaliseCountry(nationality));
    }
    for (const key of ['country', 'jurisdiction', 'flag']) {
      for (const country of strings(properties, key)) pushUnique(entity.countries, normaliseCountry(country));
    }
    for (const address of strings(properties, 'address')) entity.addresses.push({ full: address });
    for (const [property, idType] of Object.entries(IDENTIFIER_PROPERTIES)) {
      for (const value of strings(properties, property)) addIdentifier(entity, { type: idType, value, country: countryCode(strings(properties, 'country')[0]) });
    }
    const gender = strings(properties, 'gender')[0]?.toLowerCase();
    if (gender === 'male' || gender === 'female') entity.gender = gender;
    if (typeof record.last_change === 'string' && record.last_change > latest) latest = record.last_change;
    entities.push(entity);
  }
  return { name: listName, format: 'ftm_json', publishedAt: latest && !Number.isNaN(Date.parse(latest)) ? new Date(latest).toISOString() : null, entities };
}
