// US BIS Denied Persons List, tab-separated with a quoted header: Name, Street_Address, City, State, Country,
// Postal_Code, Effective_Date, Expiration_Date, Standard_Order, Last_Update, Action, FR_Citation.
// One row per order and address: the same party appears on several rows and is merged by name.
// The list has no entity type: company-form words in the name mark an organisation.

import { parseCsv, recordsFromRows } from './csv.ts';
import { normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import { addName, emptyEntity, pushUnique, type ListEntity, type ParsedList } from '../model.ts';

const ORGANISATION_WORDS = /\b(ltd|limited|inc|incorporated|corp|corporation|co|company|llc|l\.l\.c|gmbh|s\.a|sa|ag|plc|group|international|industries|trading|technology|technologies|solutions|enterprises?|airlines?|services|systems|electronics|supply|import|export|associates|partners|holdings?|bv|srl|fze|fzco|fzc)\b\.?/i;

const ALIAS_SEPARATOR = /\s+(?:A\/K\/A|D\/B\/A|F\/K\/A|AKA)\s+/i;

export function isDplHeader(firstLine: string): boolean {
  const cells = firstLine.split('\t').map((c) => c.replace(/"/g, '').trim().toLowerCase());
  return cells[0] === 'name' && cells.includes('street_address') && cells.includes('effective_date');
}

export function parseBisDpl(text: string, listName: string): ParsedList {
  const rows = parseCsv(text, { delimiter: '\t' });
  if (!rows.length || !isDplHeader(rows[0].join('\t'))) throw new Error('not a BIS Denied Persons List: unexpected header');
  const byName = new Map<string, ListEntity>();
  let latestUpdate = '';
  for (const r of recordsFromRows(rows[0], rows.slice(1))) {
    const raw = r.Name.replace(/\s+/g, ' ').trim();
    if (!raw) continue;
    const [primary, ...aliases] = raw.split(ALIAS_SEPARATOR);
    const key = primary.toUpperCase();
    let entity = byName.get(key);
    if (!entity) {
      const slug = key.replace(/[^A-Z0-9]+/g, '-').replace(/^-|-$/g, '');
      entity = emptyEntity(listName, slug, ORGANISATION_WORDS.test(raw) ? 'organization' : 'person');
      addName(entity, primary, 'primary');
      byName.set(key, entity);
    }
    for (const alias of aliases) addName(entity, alias, 'alias');
    pushUnique(entity.programs, r.Standard_Order === 'Y' ? 'DPL standard order' : 'DPL');
    const country = normaliseCountry(r.Country);
    const address = [r.Street_Address, r.City, r.State, r.Postal_Code, r.Country].filter(Boolean).join(', ');
    if (address && !entity.addresses.some((a) => a.full === address)) entity.addresses.push({ full: address, country });
    pushUnique(entity.countries, country);
    const updated = parseLooseDate(r.Last_Update ?? '');
    if (updated && updated > latestUpdate) latestUpdate = updated;
  }
  for (const entity of byName.values()) {
    entity.programs = entity.programs.filter((p) => p !== 'DPL' || entity.programs.length === 1);
  }
  return {
    name: listName,
    format: 'bis_dpl_tsv',
    publishedAt: latestUpdate.length === 10 ? `${latestUpdate}T00:00:00.000Z` : null,
    entities: [...byName.values()],
  };
}
