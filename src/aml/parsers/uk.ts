// UK sanctions list CSV, both generations: the FCDO "UK Sanctions List" export (preamble "Report Date: …",
// then a header with "Unique ID", "Name type", "Alias strength", "Regime Name", "D.O.B", …) and the older
// OFSI consolidated list ("Last Updated,<date>" preamble, header with "Group ID", "Alias Type", "Alias Quality",
// "Regime", "DOB", …). Name 6 is the surname; Name 1–5 the other parts. One row per name, grouped by id.

import { parseCsv } from './csv.ts';
import { lowerCaseRecord } from './columns.ts';
import { normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import { addIdentifier, addName, emptyEntity, pushUnique, type EntityType, type ListEntity, type NameKind, type ParsedList } from '../model.ts';

function isHeader(row: string[]): boolean {
  const cells = row.map((c) => c.trim().toLowerCase());
  return cells.includes('name 6') && (cells.includes('unique id') || cells.includes('group id'));
}

export function isUkCsv(text: string): boolean {
  return parseCsv(text.slice(0, 8192).split(/\r?\n/).slice(0, 4).join('\n')).some(isHeader);
}

function entityType(raw: string): EntityType {
  const t = raw.toLowerCase();
  if (t.includes('individual')) return 'person';
  if (t.includes('ship') || t.includes('vessel')) return 'vessel';
  return 'organization';
}

function nameKind(nameType: string, strength: string, hasPrimary: boolean): NameKind {
  const t = nameType.toLowerCase();
  if (t.startsWith('primary name') && !t.includes('variation') && !hasPrimary) return 'primary';
  if (/low/i.test(strength)) return 'weak_alias';
  return 'alias';
}

/** "(1) Russia (2) Ukraine" or "Russia, Ukraine" → ["Russia", "Ukraine"] */
function splitList(value: string): string[] {
  return value.split(/\(\d+\)|[;,]/).map((v) => v.trim()).filter(Boolean);
}

function preambleDate(rows: string[][]): string | null {
  for (const row of rows) {
    const joined = row.join(' ');
    const m = /(?:report date|last updated)\s*:?\s*(.+)$/i.exec(joined);
    if (!m) continue;
    const raw = m[1].trim();
    const parsed = parseLooseDate(raw.replace(/-/g, ' ')) ?? parseLooseDate(raw);
    if (parsed && parsed.length === 10) return `${parsed}T00:00:00.000Z`;
  }
  return null;
}

export function parseUkCsv(text: string, listName: string): ParsedList {
  const rows = parseCsv(text);
  const headerAt = rows.findIndex(isHeader);
  if (headerAt === -1) throw new Error('not a UK sanctions list CSV: no header with "Name 6" and "Unique ID"/"Group ID"');
  const header = rows[headerAt];
  const byId = new Map<string, ListEntity>();
  for (const row of rows.slice(headerAt + 1)) {
    const r = lowerCaseRecord(header, row);
    const id = r['unique id'] || r['group id'];
    if (!id) continue;
    let entity = byId.get(id);
    if (!entity) {
      entity = emptyEntity(listName, id, entityType(r['designation type'] || r['group type'] || ''));
      byId.set(id, entity);
    }
    const parts = ['name 1', 'name 2', 'name 3', 'name 4', 'name 5', 'name 6'].map((k) => r[k]).filter(Boolean);
    const hasPrimary = entity.names.some((n) => n.kind === 'primary');
    if (parts.length) addName(entity, parts.join(' '), nameKind(r['name type'] || r['alias type'] || '', r['alias strength'] || r['alias quality'] || '', hasPrimary));
    const nonLatin = r['name non-latin script'];
    if (nonLatin) addName(entity, nonLatin, 'alias');
    pushUnique(entity.programs, r['regime name'] || r['regime']);
    for (const dob of splitList(r['d.o.b'] || r['dob'] || '')) pushUnique(entity.birthDates, parseLooseDate(dob));
    pushUnique(entity.birthPlaces, [r['town of birth'], r['country of birth']].filter(Boolean).join(', '));
    for (const nationality of splitList(r['nationality(/ies)'] || r['nationality'] || '')) pushUnique(entity.nationalities, normaliseCountry(nationality));
    const passport = r['passport number'];
    if (passport) addIdentifier(entity, { type: 'passport', value: passport });
    const nationalId = r['national identifier number'] || r['national identification number'];
    if (nationalId) addIdentifier(entity, { type: 'national_id', value: nationalId });
    const imo = r['imo number'];
    if (imo) addIdentifier(entity, { type: 'imo', value: imo });
    for (const registration of splitList(r['business registration number (s)'] || '')) addIdentifier(entity, { type: 'registration', value: registration });
    const country = r['address country'] || r['country'];
    const address = ['address line 1', 'address line 2', 'address line 3', 'address 1', 'address 2', 'address 3', 'address postal town', 'address 6']
      .map((k) => r[k])
      .filter(Boolean)
      .concat(country ? [country] : [])
      .join(', ');
    const code = normaliseCountry(country);
    if (address && !entity.addresses.some((a) => a.full === address)) entity.addresses.push({ full: address, country: code });
    pushUnique(entity.countries, code);
    if (!entity.gender) {
      const gender = (r['gender'] || '').toLowerCase();
      if (gender === 'male' || gender === 'female') entity.gender = gender;
    }
  }
  const entities = [...byId.values()].filter((e) => e.names.length > 0);
  for (const entity of entities) {
    if (!entity.names.some((n) => n.kind === 'primary')) entity.names[0].kind = 'primary';
  }
  return { name: listName, format: 'uk_csv', publishedAt: preambleDate(rows.slice(0, headerAt)), entities };
}
