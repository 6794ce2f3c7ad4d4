// OFAC legacy CSV family: SDN.CSV (or CONS_PRIM.CSV) with optional ALT, ADD and COMMENTS companions.
// Columns (no header): ent_num, name, type, programs, title, call_sign, vess_type, tonnage, GRT, vess_flag,
// vess_owner, remarks. `-0-` means empty. Remarks overflowing 1,000 characters continue in COMMENTS.

import { parseCsv } from './csv.ts';
import { countryCode, normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import {
  addIdentifier, addName, emptyEntity, pushUnique,
  type EntityType, type ListEntity, type NameKind, type ParsedList,
} from '../model.ts';

export interface OfacFiles {
  main: string;
  alt?: string;
  add?: string;
  comments?: string;
}

function clean(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  return trimmed === '-0-' ? '' : trimmed;
}

function entityType(raw: string): EntityType {
  switch (raw.toLowerCase()) {
    case 'individual': return 'person';
    case 'vessel': return 'vessel';
    case 'aircraft': return 'aircraft';
    default: return 'organization';
  }
}

/**
 * OFAC's weak AKAs are "relatively broad or generic" names: a person's single-word nickname or a kunya such as
 * "ABU ALI", an organisation's short acronym. They only count as an exact match (see matching docs).
 */
export function isWeakAlias(name: string, type: EntityType): boolean {
  const tokens = name.trim().split(/[\s-]+/).filter(Boolean);
  if (type === 'person') {
    if (tokens.length <= 1) return true;
    return tokens.length === 2 && /^(abu|abou|abo|umm|um|el|al)$/i.test(tokens[0]);
  }
  return tokens.length === 1 && tokens[0].replace(/[^A-Za-z0-9]/g, '').length <= 3;
}

const IDENTIFIER_TYPES: Array<[RegExp, string]> = [
  [/passport/i, 'passport'],
  [/\bimo\b/i, 'imo'],
  [/mmsi/i, 'mmsi'],
  [/legal entity number|\blei\b/i, 'lei'],
  [/swift|\bbic\b/i, 'swift'],
  [/tax|r\.f\.c|\bnit\b|v\.a\.t|\binn\b|\bruc\b|cuit|nuit/i, 'tax_id'],
  [/national id|cedula|c\.u\.r\.p|d\.n\.i|identification number|personal id|id card|id no|ssn|residency/i, 'national_id'],
  [/registration|company number|business|commercial|ogrn|folio|matricula|uscc|gazette|trade licen/i, 'registration'],
  [/aircraft (manufacturer|tail)|serial number/i, 'aircraft'],
];

const IDENTIFIER_ITEM = /^(?:alt\.\s+)?([A-Za-z][A-Za-z .#'()/&-]*?)\s*[:#]?\s+([A-Za-z0-9][A-Za-z0-9\-/.]*\d[A-Za-z0-9\-/.]*)(?:\s*\(([^)]+)\))?/;

export interface RemarkFacts {
  aliases: Array<{ name: string; kind: NameKind }>;
  birthDates: string[];
  birthPlaces: string[];
  nationalities: string[];
  identifiers: Array<{ type: string; value: string; country?: string }>;
  gender?: 'male' | 'female';
}

/** Extracts what OFAC remarks hide: a.k.a./f.k.a. aliases, DOB, POB, nationality/citizenship, gender, IDs. */
export function parseOfacRemarks(remarks: string, type: EntityType): RemarkFacts {
  const facts: RemarkFacts = { aliases: [], birthDates: [], birthPlaces: [], nationalities: [], identifiers: [] };
  const text = remarks.replace(/\.$/, '');
  for (const match of text.matchAll(/\b([afn])\.k\.a\.,?\s+'([^']+)'/g)) {
    const name = match[2].trim();
    const kind: NameKind = match[1] === 'f' ? 'former' : isWeakAlias(name, type) ? 'weak_alias' : 'alias';
    facts.aliases.push({ name, kind });
  }
  for (const rawItem of text.split(/;\s+/)) {
    const item = rawItem.trim().replace(/\.$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^(?:alt\.\s+)?DOB\s+(.+)$/i.exec(item))) {
      pushUnique(facts.birthDates, parseLooseDate(m[1]));
    } else if ((m = /^(?:alt\.\s+)?POB\s+(.+)$/i.exec(item))) {
      pushUnique(facts.birthPlaces, m[1].trim());
    } else if ((m = /^(?:alt\.\s+)?(?:nationality|citizen)\s+(.+)$/i.exec(item))) {
      pushUnique(facts.nationalities, normaliseCountry(m[1]));
    } else if ((m = /^Gender\s+(Male|Female)$/i.exec(item))) {
      facts.gender = m[1].toLowerCase() as 'male' | 'female';
    } else if (!/date|phone|fax|website|email|telephone|tonnage|construction|model|year/i.test(item.split(/\s\d/)[0])) {
      const idMatch = IDENTIFIER_ITEM.exec(item);
      if (!idMatch) continue;
      const label = idMatch[1];
      const idType = IDENTIFIER_TYPES.find(([pattern]) => pattern.test(label))?.[1];
      if (!idType) continue;
      facts.identifiers.push({ type: idType, value: idMatch[2], country: countryCode(idMatch[3]) });
    }
  }
  return facts;
}

function isAltRow(row: string[]): boolean {
  return row.length >= 4 && /^(aka|fka|nka)$/i.test(clean(row[2]));
}

export function parseOfac(files: OfacFiles, listName: string): ParsedList {
  const mainRows = parseCsv(files.main);
  if (mainRows.length === 0 || mainRows[0].length < 12 || !/^\d+$/.test(mainRows[0][0].trim())) {
    throw new Error('not an OFAC SDN/CONS main file: expected 12 columns starting with a numeric ent_num');
  }
  const comments = new Map<string, string>();
  if (files.comments) {
    for (const row of parseCsv(files.comments)) comments.set(row[0].trim(), clean(row[1]));
  }
  const byId = new Map<string, ListEntity>();
  const entities: ListEntity[] = [];
  for (const row of mainRows) {
    const id = row[0].trim();
    const name = clean(row[1]);
    if (!/^\d+$/.test(id) || !name) continue;
    const type = entityType(clean(row[2]));
    const entity = emptyEntity(listName, id, type);
    addName(entity, name, 'primary');
    for (const program of clean(row[3]).replace(/^\[|\]$/g, '').split(/\]\s*\[/)) pushUnique(entity.programs, program.trim());
    const callSign = clean(row[5]);
    if (callSign) addIdentifier(entity, { type: 'call_sign', value: callSign });
    pushUnique(entity.countries, normaliseCountry(clean(row[9])));
    const remarks = clean(row[11]) + (comments.get(id) ?? '');
    if (remarks) {
      const facts = parseOfacRemarks(remarks, type);
      for (const alias of facts.aliases) addName(entity, alias.name, alias.kind);
      for (const date of facts.birthDates) pushUnique(entity.birthDates, date);
      for (const place of facts.birthPlaces) pushUnique(entity.birthPlaces, place);
      for (const nationality of facts.nationalities) pushUnique(entity.nationalities, nationality);
      for (const identifier of facts.identifiers) addIdentifier(entity, identifier);
      if (facts.gender) entity.gender = facts.gender;
    }
    byId.set(id, entity);
    entities.push(entity);
  }
  if (files.alt) {
    for (const row of parseCsv(files.alt)) {
      if (!isAltRow(row)) continue;
      const entity = byId.get(row[0].trim());
      const name = clean(row[3]);
      if (!entity || !name) continue;
      const altType = clean(row[2]).toLowerCase();
      addName(entity, name, altType === 'fka' ? 'former' : isWeakAlias(name, entity.type) ? 'weak_alias' : 'alias');
    }
  }
  if (files.add) {
    for (const row of parseCsv(files.add)) {
      const entity = byId.get(row[0].trim());
      if (!entity) continue;
      const country = clean(row[4]);
      const full = [clean(row[2]), clean(row[3]), country].filter(Boolean).join(', ');
      if (!full) continue;
      const code = normaliseCountry(country);
      if (!entity.addresses.some((a) => a.full === full)) entity.addresses.push({ full, country: code });
      pushUnique(entity.countries, code);
    }
  }
  return { name: listName, format: 'ofac_csv', publishedAt: null, entities };
}

export type OfacRole = 'main' | 'alt' | 'add' | 'comments';

/** Recognises an OFAC family file by its first record. */
export function ofacRole(text: string): OfacRole | undefined {
  const firstLine = text.slice(0, 32768).split(/\r?\n/)[0];
  const rows = parseCsv(firstLine);
  const row = rows[0];
  if (!row || !/^\d+$/.test(row[0].trim())) return undefined;
  if (row.length === 12 && row[1].trim()) return 'main';
  if (row.length === 5 && isAltRow(row)) return 'alt';
  if (row.length === 6 && /^\d+$/.test(row[1].trim())) return 'add';
  if (row.length === 2) return 'comments';
  return undefined;
}
