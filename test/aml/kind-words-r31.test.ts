// Round 31 (issue #13): organisations and companies written with their kind in another language, their kind left
// out, or by an acronym beside their legal form. Invented names, so nothing here is a row of an eval file.
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/aml/matching.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { tokenise } from '../../src/aml/normalize.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';
import { acronymsOf, shortAcronymsOf } from '../../src/aml/matching.ts';

const organisation = (id: string, name: string): ListEntity => ({ ...emptyEntity('r31', id, 'organization'), names: [{ full: name, kind: 'primary' as const }] });
const LISTED = [
  organisation('tv', 'ZORVEX TELEVISION'),
  organisation('brand', 'KELDRAN'),
  organisation('group', 'VORTALIS GROUP'),
  organisation('bank', 'JSB TOLMAKBANK'),
  organisation('steel', 'MARVOSH STEEL COMPANY'),
  organisation('news', 'PELRAZ NEWS AGENCY'),
  organisation('acronym', 'AO QVMT'),
  organisation('spelt', 'DRAVIN OKHTA LUMEN SYSTEMS'),
  organisation('other', 'QVMT PORT'),
  organisation('works', 'AO ZELVINSKIY ORDOVSKIY METALLURGICHESKIY KOMBINAT'),
  { ...organisation('named', 'JSC FRGD'), names: [{ full: 'JSC FRGD', kind: 'primary' as const }, { full: 'NORTHERN BAY FREIGHT', kind: 'alias' as const }] },
  // Fillers, so that the invented words are rare, as names are on the lists.
  ...Array.from({ length: 40 }, (_, i) => organisation(`filler-${i}`, `FILLER ${String.fromCharCode(65 + (i % 26))}${i} TRADING COMPANY`)),
];
const snapshot: ListsSnapshot = { index: buildIndex(LISTED), lists: [], listsVersion: 'r31' };
const found = (name: string): string[] => screen(snapshot, { name, type: 'organization' }).matches.map((m) => m.entityId);

describe('a broadcaster\'s kind, folded and left out of a listed name only (round 31)', () => {
  it('finds a listed broadcaster by its brand alone and by its kind in Russian or Arabic', () => {
    for (const name of ['Zorvex', 'Zorvex TV', 'Telekompaniya Zorvex', 'Qanat Zorvex', 'Zorvex Broadcasting Company', 'Telekanal Zorvex']) {
      expect(found(name), name).toContain('r31:tv');
    }
  });
  it('does not read a query\'s broadcaster as a listed body of its brand\'s name without the kind', () => {
    expect(found('Keldran')).toContain('r31:brand');
    for (const name of ['Keldran TV', 'Keldran Television', 'Telekanal Keldran']) expect(found(name), name).not.toContain('r31:brand');
  });
  it('folds the kind words to tv, and "channel" alone not', () => {
    expect(tokenise('Telekompaniya Zorvex')).toEqual(['tv', 'zorvex']);
    expect(tokenise('Zorvex Broadcasting Company')).toEqual(['zorvex', 'tv']);
    expect(tokenise('Channel One')).toEqual(['channel', '1']);
  });
});

describe('group, news agency, foundation and works in Russian, Persian and Arabic (round 31)', () => {
  it('reads gruppa and group of companies as group', () => {
    for (const name of ['Gruppa Vortalis', 'Vortalis Group of Companies', 'Gruppa Kompaniy Vortalis']) expect(found(name), name).toContain('r31:group');
  });
  it('reads khabargozari as news agency, muassasat as foundation, and leaves kombinat its own word', () => {
    expect(tokenise('Khabargozari Pelraz')).toEqual(['news', 'agency', 'pelraz']);
    expect(tokenise("Mu'assasat al-Khair")).toEqual(['foundation', 'al', 'khair']);
    expect(tokenise('Marvosh Kombinat')).toEqual(['marvosh', 'kombinat']);
  });
  it('lets a kombinat stand for a complex or a company, and keeps its K in the name\'s acronyms (reviewer: MMK)', () => {
    for (const name of ['Marvosh Steel Kombinat', 'Marvosh Steel Complex']) expect(found(name), name).toContain('r31:steel');
    expect(found('Zelvinskiy Ordovskiy Metallurgicheskiy Complex')).toContain('r31:works');
    expect(found('ZOMK')).toContain('r31:works');
    const parts = tokenise('PAO Zelvinskiy Metallurgicheskiy Kombinat');
    expect(shortAcronymsOf(parts)).toContain('zmk');
    expect(acronymsOf(tokenise('Zelvinskiy Ordovskiy Metallurgicheskiy Kombinat'))).toContain('zomk');
  });
  it('lets a works\' complex stand for its company, but not a name of generic words alone', () => {
    expect(found('Marvosh Steel Complex')).toContain('r31:steel');
    expect(found('Marvosh Steel')).toContain('r31:steel');
    expect(found('Steel Complex')).not.toContain('r31:steel');
  });
});

describe('a joint stock bank written JSB or in full (round 31)', () => {
  it('reads JSB and joint stock bank as AKB is read', () => {
    expect(tokenise('JSB Tolmakbank')).toEqual(tokenise('AKB Tolmakbank'));
    expect(tokenise('Joint Stock Bank Orlov')).toEqual(['jsc', 'bank', 'orlov']);
    for (const name of ['Tolmakbank', 'AKB Tolmakbank', 'Tolmak Bank']) expect(found(name), name).toContain('r31:bank');
  });
  it('leaves JSB closing a mark or standing alone', () => {
    expect(tokenise('YK-JSB')).toEqual(['yk', 'jsb']);
    expect(tokenise('JSB')).toEqual(['jsb']);
  });
});

describe('an acronym beside its legal form (round 31)', () => {
  it('finds a company listed as its acronym and form from its name spelt out, and the reverse', () => {
    expect(found('Quorra Valley Mining Technologies')).toContain('r31:acronym');
    expect(found('JSC Quorra Valley Mining Technologies')).toContain('r31:acronym');
    expect(found('AO DOLS')).toContain('r31:spelt');
    expect(found('DOLS LLC')).toContain('r31:spelt');
  });
  it('does not take an acronym beside another word for the acronym', () => {
    // QVMT PORT is another body than the one the spelt-out name gives.
    expect(found('Quorra Valley Mining Technologies')).not.toContain('r31:other');
    expect(found('DOLS Port')).not.toContain('r31:spelt');
  });
  it('does not find an organisation listed with its own full name beside its acronym and form from another name\'s initials', () => {
    expect(found('AO FRGD')).toContain('r31:named');
    expect(found('Foster River Grain Depot')).not.toContain('r31:named');
  });
});
