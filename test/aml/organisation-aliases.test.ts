import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import { tokenise } from '../../src/aml/normalize.ts';
import { LEGAL_FORM_WORDS } from '../../src/aml/legal-forms.ts';
import { KNOWN_ORGANISATION_GROUPS, knownOrganisationAliases, withLeadingNameReplaced } from '../../src/aml/organisation-aliases.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';

const CURRENT = fileURLToPath(new URL('../../../shared/data/lists/current', import.meta.url));

function small(names: string[], type: ListEntity['type'] = 'organization'): ListsSnapshot {
  const entities = names.map((full, i) => ({ ...emptyEntity('test', String(i), type), names: [{ full, kind: 'primary' as const }] }));
  return { index: buildIndex(entities), lists: [], listsVersion: 'aliases' };
}

describe('well-known other names of listed organisations (round 15)', () => {
  const agencies = small(['FEDERAL SECURITY SERVICE', 'LIBERATION TIGERS OF TAMIL EELAM', 'ISLAMIC REVOLUTIONARY GUARD CORPS', 'Tamil Tigers']);

  it('finds an organisation by its acronym, translation or native name, at the known-alias score with the alias as reason', () => {
    const fsb = screen(agencies, { name: 'FSB' }).matches[0];
    expect(fsb).toMatchObject({ entityId: 'test:0', score: 0.95 });
    expect(fsb.reasons.join(' ')).toContain('FSB≈Federal Security Service 0.95');
    expect(screen(agencies, { name: 'Federalnaya Sluzhba Bezopasnosti' }).matches[0]).toMatchObject({ entityId: 'test:0', score: 0.95 });
    expect(screen(agencies, { name: 'Sepah' }).matches[0]).toMatchObject({ entityId: 'test:2', score: 0.95 });
    expect(screen(agencies, { name: 'Pasdaran' }).matches[0]?.entityId).toBe('test:2');
  });

  it('pairs names both ways: the short name finds the full one and the full name the short one', () => {
    expect(screen(agencies, { name: 'Tamil Tigers' }).matches.map((m) => m.entityId)).toEqual(expect.arrayContaining(['test:1', 'test:3']));
    expect(screen(agencies, { name: 'Liberation Tigers of Tamil Eelam' }).matches.map((m) => m.entityId)).toEqual(expect.arrayContaining(['test:1', 'test:3']));
  });

  it('expands only the whole query, so a name holding an alias is not the organisation', () => {
    for (const name of ['FSB Bank', 'Sepah Pars Trading', 'Tamil Nadu Tigers FC', 'Pasdaran Avenue Clinic']) {
      expect(knownOrganisationAliases(name)).toEqual([]);
      expect(screen(agencies, { name }).matches.filter((m) => m.entityId !== 'test:3')).toEqual([]);
    }
  });

  it('reads a name with a legal form the table leaves out, but not an acronym with one (another body\'s name)', () => {
    expect(knownOrganisationAliases('Russian Agricultural Bank JSC')).toContain('Rosselkhozbank');
    expect(knownOrganisationAliases('Open Joint Stock Company Russian Agricultural Bank')).toContain('Rosselkhozbank');
    expect(knownOrganisationAliases('FSB LLC')).toEqual([]);
    expect(knownOrganisationAliases('IRGC Ltd')).toEqual([]);
  });

  it('reads an acronym only from capitals or the table\'s own spelling, not from a word or a name', () => {
    expect(knownOrganisationAliases('fsb')).toEqual([]);
    expect(knownOrganisationAliases('Eta')).toEqual([]);
    expect(knownOrganisationAliases('Let')).toEqual([]);
    expect(knownOrganisationAliases('LeT')).toContain('Lashkar-e-Tayyiba');
    expect(knownOrganisationAliases('L.T.T.E.')).toContain('Liberation Tigers of Tamil Eelam');
    expect(screen(agencies, { name: 'fsb' }).status).toBe('clear');
    // In other scripts too: capitals are the acronym, a lowercase word is a word (Russian "эта" is "this").
    expect(knownOrganisationAliases('ФСБ')).toContain('Federal Security Service');
    expect(knownOrganisationAliases('фсб')).toEqual([]);
    expect(knownOrganisationAliases('эта')).toEqual([]);
  });

  it('reads a query\'s legal form and airline word as screening does, unless that drops a word', () => {
    expect(knownOrganisationAliases('Korea Mining Development Trading Corp.')).toContain('KOMID');
    expect(knownOrganisationAliases('Evil Corporation')).toContain('Indrik Spider');
    expect(knownOrganisationAliases('Mahan Airlines')).not.toEqual([]);
    expect(knownOrganisationAliases('MS-13')).toContain('Mara Salvatrucha');
    expect(knownOrganisationAliases('13')).toEqual([]);
  });

  it('never finds a person or a vessel by an organisation\'s other name', () => {
    expect(screen(small(['Tamil Tigers'], 'person'), { name: 'Liberation Tigers of Tamil Eelam' }).status).toBe('clear');
    // Nor a vessel or an aircraft that bears the organisation's name.
    expect(screen(small(['Tamil Tigers'], 'vessel'), { name: 'Liberation Tigers of Tamil Eelam' }).status).toBe('clear');
    expect(screen(small(['Tamil Tigers'], 'organization'), { name: 'Liberation Tigers of Tamil Eelam' }).status).not.toBe('clear');
  });

  it('lends the alias\'s certainty only to a listed name the alias nearly equals, whatever the threshold', () => {
    const academy = small(['FEDERAL SECURITY SERVICE ACADEMY']);
    expect(screen(academy, { name: 'Federal Security Service', threshold: 0.5 }).matches[0]?.score).toBeCloseTo(0.833, 3);
    expect(screen(academy, { name: 'FSB', threshold: 0.5 }).matches).toEqual([]);
  });

  it('lends it to the listed name the alias spells, not to a respelt neighbour of it', () => {
    // HAMMS is a listed alias of HASM, an Egyptian group; BANK ROSSIYA a private bank.
    const neighbours = small(['HAMAS', 'HAMMS', 'CENTRAL BANK OF THE RUSSIAN FEDERATION', 'BANK ROSSIYA', 'KAMAZ PUBLICLY TRADED COMPANY']);
    const found = (name: string) => screen(neighbours, { name, threshold: 0.5 }).matches.map((m) => m.name);
    expect(found('Islamic Resistance Movement')).toEqual(['HAMAS']);
    expect(found('Tsentralny Bank Rossiyskoy Federatsii')).toEqual(['CENTRAL BANK OF THE RUSSIAN FEDERATION']);
  });

  it('leaves out names chiefly known as something else: generic phrases and other organisations\' acronyms', () => {
    // Channel One (Israel, Ukraine, US), State Security Department (Lithuania), General Security Directorate
    // (Lebanon), Revolutionary Left (Chile's MIR), JAT Airways, content delivery networks, Paris-CDG, hardware
    // security modules, the WMO in French and Spanish.
    for (const name of ['Channel One', 'The Base', 'Green Pine', 'Revolutionary Left', 'General Security Directorate',
      'State Security Department', 'Military Industry Corporation', 'JAT', 'CDN', 'CDG', 'HSM', 'OMM']) {
      expect(knownOrganisationAliases(name)).toEqual([]);
    }
  });

  describe('against the loaded lists', () => {
    const listedKeys = new Set<string>();
    const listed: ListEntity[] = [];
    const forms = new Set(LEGAL_FORM_WORDS);
    const key = (name: string) => tokenise(name).filter((t) => !forms.has(t) && t !== 'the').join(' ');
    beforeAll(async () => {
      for (const set of (await scanListsDir(CURRENT)).lists) {
        for (const entity of (await parseListFileSet(set)).entities) {
          listed.push(entity);
          if (entity.type !== 'person') for (const name of entity.names) listedKeys.add(key(name.full));
        }
      }
    });

    it('never joins organisations the lists keep apart: a subsidiary, a sister group or another holder of the name', () => {
      const snapshot: ListsSnapshot = { index: buildIndex(listed), lists: [], listsVersion: 'r15-review' };
      const found = (name: string) => screen(snapshot, { name, limit: 50 }).matches.map((m) => m.name);
      const keptApart: Array<[string, string]> = [
        ['Future Bank', 'AYANDEH BANK'], // a bank of its own, listed apart
        ['IRIB', 'PRESS TV'], // listed apart, linked to IRIB
        ['Lazarus Group', 'BLUENOROFF'], // the lists give APT38 to Bluenoroff
        ['Yakuza', 'YAMAGUCHI-GUMI'], // one syndicate among many, listed apart
        ['Harakat ul-Mujahidin', 'HARAKAT-UL JIHAD ISLAMI'], // Harakat ul-Ansar was the merger of both
        ['Al-Qaida in Iraq', 'KHATIBA AL-TAWHID WAL-JIHAD (KTJ)'], // the lists give Jamaat al-Tawhid wal-Jihad to KTJ
        ["Gama'a al-Islamiyya", 'JEMAAH ISLAMIYAH'], // "Jamaa Islamiya" spells the Indonesian group
        ['Belarus Potash', 'BELARUSKALI OAO'], // the producer, not its trader
        ['UMEHL', 'MYANMAR ECONOMIC CORPORATION LIMITED'], // "Myanmar Economic Holdings Limited" scores so against MEC
      ];
      expect(keptApart.filter(([query, other]) => found(query).includes(other))).toEqual([]);
      // Names the lists give to a subsidiary (MELLI BANK PLC, MELLAT BANK CJSC, BANK SADERAT PLC) or to another group
      // (AAB: AL-ASHTAR BRIGADES) are no other name of the parent.
      expect(knownOrganisationAliases('Bank Melli Iran')).not.toContain('Melli Bank');
      expect(knownOrganisationAliases('Bank Mellat')).not.toContain('Mellat Bank');
      expect(knownOrganisationAliases('Bank Saderat Iran')).not.toContain('Bank Saderat');
      expect(knownOrganisationAliases('Abdallah Azzam Brigades')).not.toContain('AAB');
    });

    it('holds, in every group, a name the lists carry (legal forms aside), so each entry is of a listed organisation', () => {
      const unlisted = KNOWN_ORGANISATION_GROUPS.filter((names) => !names.some((name) => listedKeys.has(key(name))));
      expect(unlisted).toEqual([]);
      expect(KNOWN_ORGANISATION_GROUPS.filter((names) => names.length < 2)).toEqual([]); // a lone name expands to nothing
      expect(KNOWN_ORGANISATION_GROUPS.length).toBeGreaterThanOrEqual(540);
    });

    it('finds the companies and organisations of round 22 by a name the lists lack, at the known-alias score', () => {
      const snapshot: ListsSnapshot = { index: buildIndex(listed), lists: [], listsVersion: 'r22' };
      const best = (name: string) => screen(snapshot, { name }).matches[0];
      const expected: Array<[string, string]> = [
        ['Kashtirani-ye Jomhuri-ye Eslami-ye Iran', 'ISLAMIC REPUBLIC OF IRAN SHIPPING LINES'],
        ['IRGCN', 'IRGC NAVY'],
        ['Naqshbandi Army', 'JAYSH RIJAL AL-TARIQ AL-NAQSHABANDI'],
        ['Babbar Khalsa', 'BABBAR KHALSA INTERNATIONAL'],
        ['Autodefensas Unidas de Colombia', 'UNITED SELF-DEFENSE FORCES OF COLOMBIA'],
        ['BANDES', 'BANCO DE DESARROLLO ECONOMICO Y SOCIAL DE VENEZUELA'],
        ['CGNPC', 'CHINA GENERAL NUCLEAR POWER CORPORATION'],
        ['Minsk OMON', 'MINSK SPECIAL PURPOSE POLICE UNIT'],
        ['Novopolotsk Refinery', 'NAFTAN OAO'],
        ['Bank Dey', 'DAY BANK'],
        ['Myanmar Gems Enterprise', 'MYANMA GEMS ENTERPRISE'],
      ];
      expect(expected.filter(([query, name]) => best(query)?.name !== name || best(query)?.score !== 0.95)).toEqual([]);
    });

    it('keeps round 22\'s groups to one entity: no sibling, namesake or look-alike inherits them', () => {
      const snapshot: ListsSnapshot = { index: buildIndex(listed), lists: [], listsVersion: 'r22-review' };
      const found = (name: string) => screen(snapshot, { name, limit: 50 }).matches.map((m) => m.name);
      const keptApart: Array<[string, string]> = [
        ['Libyan Investment Authority', 'LIA COMPANY'], // LIA is also the name of another listed company
        ['General Petroleum Corporation', 'SYRIAN PETROLEUM COMPANY'], // two Syrian state companies
        ['Sber', 'OPEN JOINT STOCK COMPANY BPS-SBERBANK'], // the Belarusian subsidiary, which the lists also call Sberbank
        ['China Mobile Communications Group', 'CHINA MOBILE LIMITED'], // the parent, not its listed subsidiary
      ];
      expect(keptApart.filter(([query, other]) => found(query).includes(other))).toEqual([]);
      // Acronyms and names left out because the lists or the world give them to someone else: Tochmash for
      // "Techmash", the trade arm for "Mehr Eqtesad Group", Sarak for SAIRC, CNOOC for CNECC, Intercontinental
      // de Aviacion for INTUR; PAD, NAJA, FARAJA and LEF are words or given names.
      for (const name of ['Techmash', 'Mehr Eqtesad Group', 'SAIRC', 'CNECC', 'INTUR', 'PAD', 'NAJA', 'FARAJA', 'LEF', 'LIA', 'Face++']) {
        expect(knownOrganisationAliases(name)).toEqual([]);
      }
      // Acronyms other well-known bodies hold (TSA the US agency, RSM the audit network, AUC the Cairo university,
      // BKI the Indonesian classification society, KIB Kuwait International Bank, CGN also CGN Power and Cologne
      // airport, FATA the Pakistani tribal areas, CARUNA the Finnish grid), given names and surnames (SADRA, Tasnim,
      // Klimov, Yakovlev: also the renamed Irkut), words (Kupol) and generic phrases are no name of one listed body.
      for (const name of ['TSA', 'RSM', 'AUC', 'BKI', 'KIB', 'MGE', 'CGN', 'FATA', 'CARUNA', 'SADRA', 'Tasnim', 'Klimov', 'Yakovlev', 'Kupol', 'Charity Coalition', 'Northern Shipyard', 'Concord Management']) {
        expect(knownOrganisationAliases(name)).toEqual([]);
      }
      expect(knownOrganisationAliases('irgcn')).toEqual([]);
      expect(knownOrganisationAliases('IRGCN Holdings')).toEqual([]);
    });
  });
});

describe('an organisation\'s name of the table opening a longer name (round 30)', () => {
  const listed: ListEntity[] = [];
  let snapshot: ListsSnapshot;
  beforeAll(async () => {
    for (const set of (await scanListsDir(CURRENT)).lists) listed.push(...(await parseListFileSet(set)).entities);
    snapshot = { index: buildIndex(listed), lists: [], listsVersion: 'r30' };
  });
  const found = (name: string): string[] => screen(snapshot, { name, type: 'organization', limit: 50 }).matches.map((m) => m.entityId);

  it('reads the opening name as each of the organisation\'s others, keeping the words after it', () => {
    expect(withLeadingNameReplaced('IRGC Air Force')).toContain('Islamic Revolutionary Guard Corps Air Force');
    expect(withLeadingNameReplaced('Islamic State Somalia')).toContain('ISIS Somalia');
    expect(found('IRGC Air Force')).toContain('ofac_sdn:12055');
    expect(found('Islamic State Somalia')).toContain('ofac_sdn:23848');
  });

  it('leaves a lone word, an acronym in lowercase and a name closed by legal forms alone as written', () => {
    expect(withLeadingNameReplaced('Sepah Pars')).toEqual([]);
    expect(withLeadingNameReplaced('irgc air force')).toEqual([]);
    expect(withLeadingNameReplaced('FSB LLC')).toEqual([]);
    expect(withLeadingNameReplaced('HTS Group')).toEqual([]);
    expect(withLeadingNameReplaced('IRGC')).toEqual([]);
  });

  it('reads a query closed by a legal form too, and leaves one whose opening name is only followed by forms', () => {
    expect(withLeadingNameReplaced('ISIS Somalia Ltd')).toContain('Islamic State Somalia Ltd');
    expect(withLeadingNameReplaced('IRGC Air Force Co')).toEqual([]);
  });

  it('finds the organisation only when the listed name holds the words the query adds ("FSB Bank" is not the FSB)', () => {
    for (const name of ['FSB Bank', 'IRGC Football Club', 'ISIS Papyrus Software']) expect(found(name), name).toEqual([]);
  });
});
