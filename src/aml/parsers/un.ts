// UN Security Council consolidated list XML (scsanctions.un.org/resources/xml/en/consolidated.xml):
// <CONSOLIDATED_LIST dateGenerated><INDIVIDUALS><INDIVIDUAL>… and <ENTITIES><ENTITY>…, with *_ALIAS
// (QUALITY Good/Low/a.k.a./f.k.a.), *_DATE_OF_BIRTH (EXACT/APPROXIMATELY/BETWEEN), *_DOCUMENT, *_ADDRESS.

import { childText, childValues, childrenNamed, parseXml, type XmlElement } from './xml.ts';
import { countryCode, normaliseCountry } from './countries.ts';
import { parseLooseDate } from './dates.ts';
import { addIdentifier, addName, emptyEntity, pushUnique, type ListEntity, type NameKind, type ParsedList } from '../model.ts';

function aliasKind(quality: string): NameKind {
  const q = quality.toLowerCase();
  if (q === 'low') return 'weak_alias';
  if (q === 'f.k.a.') return 'former';
  return 'alias';
}

function documentType(text: string): string {
  const t = text.toLowerCase();
  if (t.includes('passport')) return 'passport';
  if (t.includes('tax')) return 'tax_id';
  if (t.includes('registration')) return 'registration';
  if (t.includes('imo')) return 'imo';
  if (t.includes('national') || t.includes('identi')) return 'national_id';
  return 'other';
}

function readDatesOfBirth(element: XmlElement, entity: ListEntity): void {
  for (const dob of childrenNamed(element, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const kind = childText(dob, 'TYPE_OF_DATE').toUpperCase();
    if (kind === 'BETWEEN') {
      pushUnique(entity.birthDates, parseLooseDate(`${childText(dob, 'FROM_YEAR')} to ${childText(dob, 'TO_YEAR')}`));
      continue;
    }
    pushUnique(entity.birthDates, parseLooseDate(childText(dob, 'DATE') || childText(dob, 'YEAR')));
  }
}

/**
 * The names an ALIAS_NAME holds. A few pack several, separated by semicolons, some as an original-script name with
 * its romanisations in brackets: "Qasim Soleimani; Qasem Sulaimani; …", "حسن غول (Hassan Ghul; Hassan Gul; Hasan
 * Gul)", "Hay’at Tahrir al-Sham (HTS) (هيئة تحرير الشام (original script); Hay’at Tahrir al-Sham; …)", "Mohammed
 * Sabet; Mohammad Sabet b) M. Javad Kareemi Sabet". Each is a name of its own. Only a bracket that itself holds a
 * semicolon is a list of names; any other bracket (an acronym "(HTS)", a place "(Hong Kong)", a note "(birth name)")
 * stays with its name, as does every alias without a semicolon. The note "original script" is dropped.
 */
export function aliasNames(text: string): string[] {
  if (!text.includes(';')) return [text];
  const names: string[] = [];
  splitPacked(text.replace(/\(original script\)|original script:/gi, ''), names);
  return names.map((name) => name.replace(/\s+/g, ' ').trim()).filter((name) => /\p{L}/u.test(name));
}

/** Splits at top-level semicolons and "b)" items; a bracket that holds a semicolon gives its names after its own. */
function splitPacked(text: string, names: string[]): void {
  let piece = '';
  let depth = 0;
  let bracket = '';
  const inner: string[] = [];
  const close = (): void => {
    for (const item of piece.split(/\s[b-z]\)\s/)) names.push(item.replace(/^\s*a\)\s/, ''));
    names.push(...inner.splice(0));
    piece = '';
  };
  const endBracket = (): void => {
    if (bracket.includes(';')) splitPacked(bracket, inner);
    else piece += `(${bracket.trim()})`;
  };
  for (const char of text) {
    if (depth > 0) {
      if (char === '(') depth++;
      else if (char === ')') depth--;
      if (depth > 0) bracket += char;
      else endBracket();
    } else if (char === '(') {
      depth = 1;
      bracket = '';
    } else if (char === ';') close();
    else piece += char;
  }
  // An unclosed bracket ends the text.
  if (depth > 0) endBracket();
  close();
}

function readCommon(element: XmlElement, entity: ListEntity, prefix: 'INDIVIDUAL' | 'ENTITY'): void {
  for (const alias of childrenNamed(element, `${prefix}_ALIAS`)) {
    const kind = aliasKind(childText(alias, 'QUALITY'));
    for (const name of aliasNames(childText(alias, 'ALIAS_NAME'))) if (name) addName(entity, name, kind);
  }
  const original = childText(element, 'NAME_ORIGINAL_SCRIPT');
  if (original) addName(entity, original, 'alias');
  for (const address of childrenNamed(element, `${prefix}_ADDRESS`)) {
    const country = childText(address, 'COUNTRY');
    const parts = ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY'].map((tag) => childText(address, tag));
    const full = parts.filter(Boolean).join(', ');
    if (!full) continue;
    const code = normaliseCountry(country);
    entity.addresses.push({ full, country: code });
    pushUnique(entity.countries, code);
  }
}

export function parseUnXml(text: string, listName: string): ParsedList {
  const root = parseXml(text);
  if (root.name !== 'CONSOLIDATED_LIST') throw new Error(`not a UN consolidated list: root <${root.name}>`);
  const entities: ListEntity[] = [];
  const sections: Array<['INDIVIDUALS' | 'ENTITIES', 'INDIVIDUAL' | 'ENTITY']> = [
    ['INDIVIDUALS', 'INDIVIDUAL'],
    ['ENTITIES', 'ENTITY'],
  ];
  for (const [sectionName, itemName] of sections) {
    for (const section of childrenNamed(root, sectionName)) {
      for (const item of childrenNamed(section, itemName)) {
        const id = childText(item, 'REFERENCE_NUMBER') || childText(item, 'DATAID');
        const entity = emptyEntity(listName, id, itemName === 'INDIVIDUAL' ? 'person' : 'organization');
        const primary = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
          .map((tag) => childText(item, tag))
          .filter(Boolean)
          .join(' ');
        if (!primary) continue;
        // One primary name packs two, as some aliases do ("COMPAGNIE AERIENNE DES GRANDS LACS (CAGL) ; GREAT LAKES
        // BUSINESS COMPANY (GLBC)"): the first is the primary name, the others its aliases (after the listed
        // aliases, so that one listed as such keeps its quality).
        // A primary without letters around its semicolon gives no names: it stays the primary as written, as before.
        const [first = primary, ...others] = aliasNames(primary);
        addName(entity, first, 'primary');
        pushUnique(entity.programs, childText(item, 'UN_LIST_TYPE'));
        readCommon(item, entity, itemName);
        for (const other of others) addName(entity, other, 'alias');
        if (itemName === 'INDIVIDUAL') {
          readDatesOfBirth(item, entity);
          for (const nationality of childValues(item, 'NATIONALITY')) pushUnique(entity.nationalities, normaliseCountry(nationality));
          for (const place of childrenNamed(item, 'INDIVIDUAL_PLACE_OF_BIRTH')) {
            const pob = ['CITY', 'STATE_PROVINCE', 'COUNTRY'].map((tag) => childText(place, tag)).filter(Boolean).join(', ');
            pushUnique(entity.birthPlaces, pob);
          }
          for (const doc of childrenNamed(item, 'INDIVIDUAL_DOCUMENT')) {
            const number = childText(doc, 'NUMBER');
            if (!number) continue;
            addIdentifier(entity, {
              type: documentType(childText(doc, 'TYPE_OF_DOCUMENT')),
              value: number,
              country: countryCode(childText(doc, 'ISSUING_COUNTRY') || childText(doc, 'COUNTRY_OF_ISSUE')),
            });
          }
          const gender = childText(item, 'GENDER').toLowerCase();
          if (gender === 'male' || gender === 'female') entity.gender = gender;
        }
        entities.push(entity);
      }
    }
  }
  const generated = root.attributes.dateGenerated;
  return { name: listName, format: 'un_xml', publishedAt: generated ? new Date(generated).toISOString() : null, entities };
}
