import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { tokenise } from '../../src/aml/normalize.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';

const CURRENT = fileURLToPath(new URL('../../../shared/data/lists/current', import.meta.url));
const listed: ListEntity[] = [];
/** The lists as loaded, indexed once for every describe that adds no entity of its own. */
let asLoaded: ListsSnapshot;

beforeAll(async () => {
  for (const set of (await scanListsDir(CURRENT)).lists) listed.push(...(await parseListFileSet(set)).entities);
  asLoaded = { index: buildIndex(listed), lists: [], listsVersion: 'current' };
});

/** Organisations screening the lists as loaded finds for `name`. */
const foundAsLoaded = (name: string): string[] => screen(asLoaded, { name, type: 'organization', limit: 50 }).matches.map((m) => m.entityId);

describe('companies named by a word hundreds of listed names share (round 15)', () => {
  it('scores the shortest names first among equal evidence, so "Gazprom" finds a name that is just that', () => {
    const gazpromNames = listed.flatMap((e) => e.names).filter((n) => /gazprom/i.test(n.full));
    expect(gazpromNames.length).toBeGreaterThan(120);
    const added = { ...emptyEntity('r15', '0', 'organization'), names: [{ full: 'Gazprom PJSC', kind: 'primary' as const }] };
    const snapshot: ListsSnapshot = { index: buildIndex([...listed, added]), lists: [], listsVersion: 'r15' };
    for (const name of ['Gazprom', 'PAO Gazprom', 'Public Joint Stock Company Gazprom']) {
      expect(screen(snapshot, { name, limit: 200 }).matches.some((m) => m.entityId === 'r15:0')).toBe(true);
    }
  });
});

describe('generic words of company names translated or romanised (round 18)', () => {
  const organisation = (id: string, name: string): ListEntity => ({ ...emptyEntity('r18', id, 'organization'), names: [{ full: name, kind: 'primary' as const }] });
  let snapshot: ListsSnapshot;
  beforeAll(() => {
    const added = [organisation('0', 'Uzbekistan Airways'), organisation('1', 'Azerbaijan Airlines CJSC'), organisation('2', 'Uzbekistan Railways')];
    snapshot = { index: buildIndex([...listed, ...added]), lists: [], listsVersion: 'r18' };
  });
  const found = (name: string): string[] => screen(snapshot, { name, type: 'organization', limit: 50 }).matches.map((m) => m.entityId);

  it('pairs the Persian "Banke" (bank with its ezafe) with "Bank" as exactly as "Banque"', () => {
    expect(screen(snapshot, { name: 'Banke Melli Iran' }).matches[0]).toMatchObject({ matchedName: 'BANK MELLI IRAN', score: 1 });
  });

  it('pairs the Uzbek and Turkish "air ways" with the airline word, and only with it', () => {
    expect(found('Uzbekistan Havo Yollari')).toContain('r18:0');
    expect(found('Azerbaijan Hava Yollari')).toContain('r18:1');
    expect(found('Uzbekistan Havo Yollari')).not.toContain('r18:2');
  });

  it('finds nothing for generic words alone, folded or not: the distinctive word must carry a match', () => {
    for (const name of ['Hava Yollari', 'Havo Yollari', 'Banke', 'Yinhang', 'Jituan', 'Oil Company', 'Trading Bank', 'Banke Jituan']) {
      expect(found(name), name).toEqual([]);
    }
  });
});

describe('a company named by an everyday word and what it trades in (round 21 review)', () => {

  it('is not the organisation or vessel listed under that word alone', () => {
    expect(foundAsLoaded('Phoenix Oil')).not.toContain('ofac_sdn:47650');
    expect(foundAsLoaded('Atlas Gold Corp')).not.toContain('ofac_sdn:28527');
    expect(foundAsLoaded('Fortune Oil Ltd')).not.toContain('ofac_sdn:15068');
  });

  it('written without the trade word, is not the listed company whose name adds one', () => {
    expect(foundAsLoaded('Pacific Holding')).not.toContain('ofac_sdn:29108');
  });
});

describe('Turkish "San. ve Tic." read as "Sanayi ve Ticaret" (round 28)', () => {
  const top = (name: string) => screen(asLoaded, { name, type: 'organization' }).matches[0];

  it('finds a company listed with the phrase abbreviated from the phrase written out, and back', () => {
    expect(top('Macpar Makina Sanayi ve Ticaret Anonim Sirketi')).toMatchObject({ matchedName: 'MACPAR MAKINA SAN VE TIC A.S.', score: 1 });
    expect(tokenise('Baslam Petrol San. ve Tic. A.S.')).toEqual(tokenise('BASLAM PETROL SANAYI VE TICARET ANONIM SIRKETI'));
  });

  it('leaves "San" alone elsewhere and finds nothing for the phrase alone', () => {
    expect(tokenise('Chon Ma San')).toEqual(['chon', 'ma', 'san']);
    expect(tokenise('San Jose Trading')).toEqual(['san', 'jose', 'trading']);
    expect(screen(asLoaded, { name: 'San. ve Tic. A.S.', type: 'organization' }).matches).toEqual([]);
  });
});

describe('Russian register forms and kind words in other languages (round 30)', () => {

  it('reads AKB, JSCB and "joint stock commercial bank" as one legal form, and KB and FGUP as forms', () => {
    expect(tokenise('AKB Novikombank')).toEqual(tokenise('Joint Stock Commercial Bank Novikombank'));
    expect(tokenise('JSCB Primorye')).toEqual(tokenise('AKB Primorye'));
    expect(foundAsLoaded('AKB Primorye')).toContain('ofac_sdn:40877');
    expect(tokenise('FGUP Atomflot')).toEqual(tokenise('Federal State Unitary Enterprise Atomflot'));
    expect(tokenise('FGUP Atomflot')).toEqual(tokenise('FSUE Atomflot'));
    expect(foundAsLoaded('AKB Absolut Bank')).toContain('ofac_sdn:32682');
    expect(foundAsLoaded('FSUE Hydrographic Company')).toContain('ofac_sdn:43257');
    expect(foundAsLoaded('FGUP Hydrographic Company')).toContain('ofac_sdn:43257');
  });

  it('reads "commercial bank" between a legal form and the name as the form, and nowhere else', () => {
    expect(tokenise('JOINT STOCK COMPANY COMMERCIAL BANK SOLIDARNOST')).toEqual(['jsc', 'kb', 'solidarnost']);
    for (const name of ['COMMERCIAL BANK OF SYRIA', 'TANCHON COMMERCIAL BANK', 'Commercial Bank International', 'The Commercial Bank Qatar']) {
      expect(tokenise(name), name).toContain('commercial');
    }
    expect(foundAsLoaded('KB Solidarnost')).toContain('ofac_sdn:44262');
    expect(foundAsLoaded('Commercial Bank of Ethiopia')).toEqual([]);
  });

  it('pairs Birzha with Exchange, Aviakompaniya with the airline word, Liwa with Brigade and Foolad with Steel', () => {
    expect(tokenise('PAO SPB Birzha')).toEqual(tokenise('PAO SPB Exchange'));
    expect(tokenise('Aviakompaniya Rossiya')).toEqual(tokenise('Rossiya Airlines').reverse());
    expect(tokenise('Liwa Fatemiyoun')).toEqual(['brigade', 'fatemiyoun']);
    expect(foundAsLoaded('Foolad Khuzestan')).toContain('ofac_sdn:28291');
  });

  it('keeps the bank\'s kind of AKB, and an aircraft\'s mark closing with AKB as written', () => {
    expect(tokenise('AKB Vega')).toEqual(tokenise('JSC Bank Vega'));
    expect(foundAsLoaded('AKB Vega')).not.toContain('ofac_sdn:44223');
    expect(foundAsLoaded('AKB Avangard')).not.toContain('ofac_sdn:35356');
    expect(foundAsLoaded('AKB Avangard')).toContain('ofac_sdn:47425');
    expect(tokenise('YK-AKB')).toEqual(['yk', 'akb']);
  });

  it('keeps KB (a Korean bank\'s brand, a design bureau) and SUE (a given name) as naming words while folding to them', () => {
    expect(tokenise('State Unitary Enterprise RC')).toEqual(tokenise('SUE RC'));
    expect(foundAsLoaded('KB Lines Limited')).toContain('ofac_sdn:23208');
    const wrong: [string, string][] = [['KB Savings Bank', 'ofac_sdn:17244'], ['Lines Limited', 'ofac_sdn:23208'], ['78 LLC', 'ofac_sdn:47522'], ['RC Ltd', 'ofac_sdn:21040']];
    for (const [name, id] of wrong) expect(foundAsLoaded(name), name).not.toContain(id);
    const person = (name: string): string[] => screen(asLoaded, { name, type: 'person', limit: 50 }).matches.map((m) => m.entityId);
    expect(person('Sue Hassan')).not.toContain('un_consolidated:QDi.319');
    expect(person('Sue Ahmed')).not.toContain('ofac_sdn:10132');
  });

  it('finds nothing for a kind word or a form alone', () => {
    for (const name of ['Birzha', 'Liwa', 'Foolad', 'Aviakompaniya', 'Joint Stock Commercial Bank', 'FGUP', 'Commercial Bank']) {
      expect(foundAsLoaded(name), name).toEqual([]);
    }
  });
});
