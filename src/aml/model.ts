// The one entity model every list parser produces, whatever the publisher's format.

export type EntityType = 'person' | 'organization' | 'vessel' | 'aircraft';

/** primary: the listed name; alias: a.k.a. (strong); weak_alias: nickname or generic a.k.a.; former: f.k.a. */
export type NameKind = 'primary' | 'alias' | 'weak_alias' | 'former';

export interface EntityName {
  full: string;
  kind: NameKind;
}

export interface Identifier {
  /** e.g. passport, national_id, tax_id, registration, imo, lei, swift, other */
  type: string;
  value: string;
  /** ISO 3166-1 alpha-2 when known */
  country?: string;
}

export interface Address {
  full: string;
  country?: string;
}

/**
 * Dates of birth as ISO 8601 prefixes: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a year range `YYYY/YYYY`.
 * Countries are ISO 3166-1 alpha-2 (upper case) when the name is recognised, else the publisher's text.
 */
export interface ListEntity {
  /** Unique across lists: `<list>:<id in the list>` */
  id: string;
  sourceId: string;
  list: string;
  programs: string[];
  type: EntityType;
  names: EntityName[];
  birthDates: string[];
  birthPlaces: string[];
  nationalities: string[];
  countries: string[];
  identifiers: Identifier[];
  addresses: Address[];
  gender?: 'male' | 'female';
}

export type ListFormat =
  | 'ofac_csv'
  | 'un_xml'
  | 'eu_xml'
  | 'eu_csv'
  | 'uk_csv'
  | 'bis_dpl_tsv'
  | 'ftm_json';

export interface ParsedList {
  name: string;
  format: ListFormat;
  /** Date the publisher gives to this version when the file carries one (ISO 8601), else null. */
  publishedAt: string | null;
  entities: ListEntity[];
}

export function emptyEntity(list: string, sourceId: string, type: EntityType): ListEntity {
  return {
    id: `${list}:${sourceId}`,
    sourceId,
    list,
    programs: [],
    type,
    names: [],
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    countries: [],
    identifiers: [],
    addresses: [],
  };
}

export function pushUnique<T>(target: T[], value: T | undefined | null | ''): void {
  if (value !== undefined && value !== null && value !== '' && !target.includes(value)) target.push(value);
}

export function addName(entity: ListEntity, full: string, kind: NameKind): void {
  const cleaned = full.replace(/\s+/g, ' ').trim();
  if (!cleaned || entity.names.some((n) => n.full === cleaned)) return;
  entity.names.push({ full: cleaned, kind });
}

export function addIdentifier(entity: ListEntity, identifier: Identifier): void {
  const value = identifier.value.trim();
  if (!value || entity.identifiers.some((i) => i.type === identifier.type && i.value === value)) return;
  entity.identifiers.push({ ...identifier, value });
}
