// Round 33 (issue #13): organisations written with their kind words romanised from Russian, Persian, Arabic,
// Turkish or Romanian, found by their English name and the other way round. Invented names, so nothing here is a
// row of an eval file.
import { describe, expect, it } from 'vitest';
import { acronymsOf, buildIndex } from '../../src/aml/matching.ts';
import { tokenise } from '../../src/aml/normalize.ts';
import { withShortCountryNames } from '../../src/aml/places.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';
import { withKindWordsInEnglish } from '../../src/aml/kind-word-translations.ts';

const organisation = (id: string, name: string): ListEntity => ({ ...emptyEntity('r33', id, 'organization'), names: [{ full: name, kind: 'primary' as const }] });
const LISTED = [
  organisation('pipe', 'KORVALSK PIPE METALLURGICAL COMPANY'),
  organisation('airline', 'SHERKAT-E HAVA PEYMAEI-YE DROVAN'),
  organisation('party', 'PARTIDUL ZELMAR'),
  organisation('mining', 'ZELVORSKAYA GORNO RUDNAYA KOMPANIYA'),
  organisation('eponym', 'KORVALSK STATE TECHNICAL UNIVERSITY NAMED AFTER N.E. DROVSKY'),
  organisation('dprk', "GRELMOR TRADE BANK OF THE DEMOCRATIC PEOPLE'S REPUBLIC OF KOREA"),
  organisation('election', 'CENTRAL VOTING COMMISSION OF THE REPUBLIC OF BELARUS'),
  organisation('generic-bank', 'BANCO NATIONAL'),
  organisation('generic-gas', 'OOO GAS'),
  { ...emptyEntity('r33', 'person', 'person'), names: [{ full: 'PARTY, Velko', kind: 'primary' as const }] },
  // Fillers, so that the invented words are rare, as names are on the lists.
  ...Array.from({ length: 40 }, (_, i) => organisation(`filler-${i}`, `FILLER ${String.fromCharCode(65 + (i % 26))}${i} TRADING COMPANY`)),
];
const snapshot: ListsSnapshot = { index: buildIndex(LISTED), lists: [], listsVersion: 'r33' };
const matches = (name: string) => screen(snapshot, { name }).matches;
const found = (name: string): string[] => matches(name).map((m) => m.entityId);

describe('kind words romanised from other languages, read in English (round 33)', () => {
  it('translates kind words, in English order after a head-first Persian, Arabic or Romanian kind', () => {
    expect(withKindWordsInEnglish('Trubnaya Metallurgicheskaya Kompaniya')).toBe('pipe metallurgical company');
    expect(withKindWordsInEnglish('Sazeman-e Sanaye-e Havafaza')).toBe('aerospace industries organization');
    expect(withKindWordsInEnglish('Sherkat-e Hava Peymaei-ye Drovan')).toBe('drovan airlines company');
    expect(withKindWordsInEnglish('Partidul Politic Zelmar')).toBe('zelmar politic party');
    expect(withKindWordsInEnglish('Korvalsk Trading Company')).toBeUndefined();
    // A word every object has as a key is a word like any other here (it made tokenise throw before).
    expect(withKindWordsInEnglish('Constructor Zavod')).toBe('constructor plant');
    expect(tokenise('Constructor LLC')).toEqual(['constructor', 'llc']);
    expect(tokenise('toString valueOf hasOwnProperty __proto__ LLC')).toEqual(['tostring', 'valueof', 'hasownproperty', 'proto', 'llc']);
  });
  it('finds a listed English name from a romanised query, and a listed romanised name from an English one', () => {
    expect(found('Korvalsk Trubnaya Metallurgicheskaya Kompaniya')).toContain('r33:pipe');
    expect(found('Drovan Airlines')).toContain('r33:airline');
    expect(found('Zelmar Party')).toContain('r33:party');
  });
  it('scores a translated reading below the name as written', () => {
    const score = matches('Drovan Airlines').find((m) => m.entityId === 'r33:airline')!.score;
    expect(score).toBeLessThanOrEqual(0.95);
    expect(matches('Korvalsk Pipe Metallurgical Company')[0].score).toBeGreaterThan(0.95);
  });
  it('takes no initials from a translated reading, which would mix two languages\'', () => {
    expect(found('ZGRK')).toContain('r33:mining');
    expect(found('ZGRC')).not.toContain('r33:mining');
  });
  it('gives a generic phrase, one kind in English and nothing of its own, no reading (review)', () => {
    expect(withKindWordsInEnglish('Natsionalnyy Bank')).toBeUndefined();
    expect(withKindWordsInEnglish('Gazovaya Kompaniya')).toBeUndefined();
    expect(withKindWordsInEnglish('Sherkat-e Bank')).toBeUndefined();
    expect(withKindWordsInEnglish('Sanaye Defa')).toBeUndefined();
    expect(withKindWordsInEnglish('Gazovaya Kompaniya OOO')).toBeUndefined();
    expect(withKindWordsInEnglish('Sazman-e Sanaye Defa')).toBe('defense industries organization');
    expect(withKindWordsInEnglish('Natsionalnyy Bank Zelmara')).toBe('national bank zelmara');
    expect(found('Natsionalnyy Bank')).not.toContain('r33:generic-bank');
    expect(found('Gazovaya Kompaniya')).not.toContain('r33:generic-gas');
    expect(found('National Bank')).toContain('r33:generic-bank');
  });
  it('reads a query so for organisations only', () => {
    expect(found('Velko Party')).toContain('r33:person');
    expect(found('Partidul Velko')).not.toContain('r33:person');
  });
});

describe('a body named after someone, and countries\' formal names (round 33)', () => {
  it('reads a name closing with its eponym by its own words\' initials, also with the eponym first', () => {
    expect(acronymsOf(tokenise('KORVALSK STATE TECHNICAL UNIVERSITY NAMED AFTER N.E. DROVSKY'))).toEqual(expect.arrayContaining(['kstu', 'dkstu']));
    expect(found('KSTU')).toContain('r33:eponym');
    expect(found('DKSTU')).toContain('r33:eponym');
  });
  it('reads a country\'s formal name in its short form, and "Republic of" before a country\'s name left out', () => {
    expect(withShortCountryNames("Grelmor Trade Bank of the Democratic People's Republic of Korea")).toBe('grelmor trade bank of the north korea');
    expect(withShortCountryNames('Grelmor Trade Bank of the DPRK')).toBe('grelmor trade bank of the north korea');
    expect(withShortCountryNames('Central Voting Commission of the Republic of Belarus')).toBe('central voting commission of the belarus');
    expect(withShortCountryNames('Grelmor Trade Bank')).toBeUndefined();
    for (const name of ['Grelmor Trade Bank of the DPRK', 'Grelmor Trade Bank of North Korea']) expect(found(name), name).toContain('r33:dprk');
    expect(found('Central Voting Commission of Belarus')).toContain('r33:election');
  });
  it('scores such a reading so that a replaced word still tells a sibling apart', () => {
    expect(found('Central Voting Commission of the River of Belarus')).not.toContain('r33:election');
  });
});
