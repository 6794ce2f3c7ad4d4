// EU Financial Sanctions Files (webgate.ec.europa.eu/fsd/fsf), XML 1.1 and CSV (1.0 `Naal_*` and 1.1
// `NameAlias_*` column families). XML: <export generationDate><sanctionEntity logicalId euReferenceNumber>
// with <regulation programme>, <subjectType code>, <nameAlias wholeName strong>, <citizenship>,
// <birthdate>, <identification>, <address>. CSV: one row per sub-record, grouped by the entity logical id.

import { parseCsv } from './csv.ts';
import { childrenNamed, parseXml } from './xml.ts';
import { lowerCaseRecord } from './columns.ts';
import { countryCode, normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import { addIdentifier, addName, emptyEntity, pushUnique, type EntityType, type ListEntity, type ParsedList } from '../model.ts';

function subjectType(code: string): EntityType {
  const c = code.trim().toLowerCase();
  if (c === 'person' || c === 'p') return 'person';
  return 'organization';
}

function identifierType(code: string): string {
  const c = code.toLowerCase();
  if (c.includes('passport')) return 'passport';
  if (c.includes('tax') || c === 'fiscalcode') return 'tax_id';
  if (c.includes('regnumber') || c.includes('registration')) return 'registration';
  if (c.includes('imo')) return 'imo';
  if (c === 'id' || c.includes('identi') || c.includes('national')) return 'national_id';
  return 'other';
}

function birthDate(full: string, year: string): string | undefined {
  return parseLooseDate(full) ?? parseLooseDate(year);
}

export function parseEuXml(text: string, listName: string): ParsedList {
  const root = parseXml(text);
  if (root.name !== 'export') throw new Error(`not an EU Financial Sanctions File: root <${root.name}>`);
  const entities: ListEntity[] = [];
  for (const item of childrenNamed(root, 'sanctionEntity')) {
    const type = subjectType(childrenNamed(item, 'subjectType')[0]?.attributes.code ?? '');
    const entity = emptyEntity(listName, item.attributes.logicalId ?? item.attributes.euReferenceNumber ?? '', type);
    for (const regulation of childrenNamed(item, 'regulation')) pushUnique(entity.programs, regulation.attributes.programme);
    for (const alias of childrenNamed(item, 'nameAlias')) {
      const a = alias.attributes;
      const whole = a.wholeName || [a.firstName, a.middleName, a.lastName].filter(Boolean).join(' ');
      addName(entity, whole, entity.names.length === 0 ? 'primary' : a.strong === 'false' ? 'weak_alias' : 'alias');
      if (!entity.gender && (a.gender === 'M' || a.gender === 'F')) entity.gender = a.gender === 'M' ? 'male' : 'female';
    }
    if (entity.names.length === 0) continue;
    for (const citizenship of childrenNamed(item, 'citizenship')) {
      pushUnique(entity.nationalities, normaliseCountry(citizenship.attributes.countryIso2Code || citizenship.attributes.countryDescription));
    }
    for (const birth of childrenNamed(item, 'birthdate')) {
      const b = birth.attributes;
      pushUnique(entity.birthDates, birthDate(b.birthdate ?? '', b.year ?? ''));
      pushUnique(entity.birthPlaces, [b.city, b.place, b.countryDescription].filter(Boolean).join(', '));
    }
    for (const identification of childrenNamed(item, 'identification')) {
      const i = identification.attributes;
      if (!i.number) continue;
      addIdentifier(entity, {
        type: identifierType(i.identificationTypeCode ?? ''),
        value: i.number,
        country: countryCode(i.countryIso2Code || i.countryDescription),
      });
    }
    for (const address of childrenNamed(item, 'address')) {
      const a = address.attributes;
      const full = [a.street, a.poBox, a.city, a.zipCode, a.region, a.place, a.countryDescription].filter(Boolean).join(', ');
      const country = normaliseCountry(a.countryIso2Code || a.countryDescription);
      if (full) entity.addresses.push({ full, country });
      pushUnique(entity.countries, country);
    }
    entities.push(entity);
  }
  const generated = root.attributes.generationDate;
  return { name: listName, format: 'eu_xml', publishedAt: generated ? new Date(generated).toISOString() : null, entities };
}

/** Column names of both CSV generations: [1.0, 1.1]. */
const EU_CSV = {
  id: ['entity_logical_id', 'entity_logicalid'],
  fileDate: ['date_file', 'filegenerationdate'],
  subjectType: ['subject_type', 'entity_subjecttype'],
  programme: ['programme', 'entity_regulation_programme'],
  wholeName: ['naal_wholename', 'namealias_wholename'],
  firstName: ['naal_firstname', 'namealias_firstname'],
  middleName: ['naal_middlename', 'namealias_middlename'],
  lastName: ['naal_lastname', 'namealias_lastname'],
  gender: ['naal_gender', 'namealias_gender'],
  strong: ['naal_strong', 'namealias_strong'],
  birthDate: ['birt_date', 'birthdate_birthdate'],
  birthYear: ['birt_year', 'birthdate_year'],
  birthCity: ['birt_city', 'birthdate_city'],
  birthCountry: ['birt_country', 'birthdate_countrydescription'],
  citizenship: ['citi_country', 'citizenship_countryiso2code', 'citizenship_countrydescription'],
  idNumber: ['iden_number', 'identification_number'],
  idType: ['iden_idtype', 'identification_typecode'],
  idCountry: ['iden_country', 'identification_countryiso2code'],
  addressStreet: ['addr_street', 'address_street'],
  addressCity: ['addr_city', 'address_city'],
  addressCountry: ['addr_country', 'address_countryiso2code', 'address_countrydescription'],
} as const;

function pick(record: Record<string, string>, names: readonly string[]): string {
  for (const name of names) if (record[name]) return record[name];
  return '';
}

export function isEuCsvHeader(headerLine: string): boolean {
  const lower = headerLine.toLowerCase();
  return lower.includes(';') && EU_CSV.id.some((c) => lower.includes(c)) && EU_CSV.wholeName.some((c) => lower.includes(c));
}

export function parseEuCsv(text: string, listName: string): ParsedList {
  const rows = parseCsv(text, { delimiter: ';' });
  const header = rows[0] ?? [];
  if (!isEuCsvHeader(header.join(';'))) throw new Error('not an EU Financial Sanctions CSV: missing logical id / whole name columns');
  const byId = new Map<string, ListEntity>();
  let fileDate = '';
  for (const row of rows.slice(1)) {
    const r = lowerCaseRecord(header, row);
    const id = pick(r, EU_CSV.id);
    if (!id) continue;
    fileDate ||= pick(r, EU_CSV.fileDate);
    let entity = byId.get(id);
    if (!entity) {
      entity = emptyEntity(listName, id, subjectType(pick(r, EU_CSV.subjectType)));
      byId.set(id, entity);
    }
    pushUnique(entity.programs, pick(r, EU_CSV.programme));
    const whole = pick(r, EU_CSV.wholeName) || [pick(r, EU_CSV.firstName), pick(r, EU_CSV.middleName), pick(r, EU_CSV.lastName)].filter(Boolean).join(' ');
    if (whole) addName(entity, whole, entity.names.length === 0 ? 'primary' : pick(r, EU_CSV.strong).toLowerCase() === 'false' ? 'weak_alias' : 'alias');
    const gender = pick(r, EU_CSV.gender);
    if (!entity.gender && (gender === 'M' || gender === 'F')) entity.gender = gender === 'M' ? 'male' : 'female';
    pushUnique(entity.birthDates, birthDate(pick(r, EU_CSV.birthDate), pick(r, EU_CSV.birthYear)));
    pushUnique(entity.birthPlaces, [pick(r, EU_CSV.birthCity), pick(r, EU_CSV.birthCountry)].filter(Boolean).join(', '));
    pushUnique(entity.nationalities, normaliseCountry(pick(r, EU_CSV.citizenship)));
    const idNumber = pick(r, EU_CSV.idNumber);
    if (idNumber) addIdentifier(entity, { type: identifierType(pick(r, EU_CSV.idType)), value: idNumber, country: countryCode(pick(r, EU_CSV.idCountry)) });
    const addressCountry = normaliseCountry(pick(r, EU_CSV.addressCountry));
    const address = [pick(r, EU_CSV.addressStreet), pick(r, EU_CSV.addressCity), pick(r, EU_CSV.addressCountry)].filter(Boolean).join(', ');
    if (address && !entity.addresses.some((a) => a.full === address)) entity.addresses.push({ full: address, country: addressCountry });
    pushUnique(entity.countries, addressCountry);
  }
  const entities = [...byId.values()].filter((e) => e.names.length > 0);
  const published = parseLooseDate(fileDate);
  return { name: listName, format: 'eu_csv', publishedAt: published && published.length === 10 ? `${published}T00:00:00.000Z` : null, entities };
}
