import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFileKind, parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { parseOfacRemarks } from '../../src/aml/parsers/ofac.ts';
import { aliasNames, parseUnXml } from '../../src/aml/parsers/un.ts';
import { parseEuCsv, parseEuXml } from '../../src/aml/parsers/eu.ts';
import { parseUkCsv } from '../../src/aml/parsers/uk.ts';
import { parseFtm } from '../../src/aml/parsers/ftm.ts';
import { parseLooseDate } from '../../src/aml/parsers/dates.ts';
import { lowerCaseRecord } from '../../src/aml/parsers/columns.ts';

const LISTS = fileURLToPath(new URL('../../../shared/data/lists/', import.meta.url));
const fixture = (name: string) => readFile(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8');

describe('real list files', () => {
  it('recognises every file of lists/current by content and groups the OFAC companions', async () => {
    const scan = await scanListsDir(`${LISTS}current`);
    expect(scan.lists.map((l) => [l.name, l.format])).toEqual([
      ['ofac_non_sdn', 'ofac_csv'],
      ['ofac_sdn', 'ofac_csv'],
      ['un_consolidated', 'un_xml'],
      ['us_dpl', 'bis_dpl_tsv'],
    ]);
    expect(Object.keys(scan.lists[0].files).sort()).toEqual(['add', 'alt', 'comments', 'main']);
    expect(scan.skipped).toEqual([]);
  });

  it('parses the complete SDN.CSV: 14,965 entries with aliases, DOB and identifiers from remarks', async () => {
    const sdn = await parseListFileSet({ name: 'ofac_sdn', format: 'ofac_csv', files: { main: `${LISTS}current/ofac_sdn.csv` } });
    expect(sdn.entities).toHaveLength(14965);
    const zawahiri = sdn.entities.find((e) => e.sourceId === '2676')!;
    expect(zawahiri).toMatchObject({ type: 'person', programs: ['SDGT'], birthDates: ['1951-06-19'], birthPlaces: ['Giza, Egypt'] });
    expect(zawahiri.identifiers).toContainEqual({ type: 'passport', value: '1084010', country: 'EG' });
    const bnc = sdn.entities.find((e) => e.sourceId === '306')!;
    expect(bnc.names).toEqual([{ full: 'BANCO NACIONAL DE CUBA', kind: 'primary' }, { full: 'BNC', kind: 'weak_alias' }]);
    const vessel = sdn.entities.find((e) => e.sourceId === '4243')!;
    expect(vessel.type).toBe('vessel');
    expect(vessel.names.filter((n) => n.kind === 'former').map((n) => n.full)).toEqual(['ANA I', 'SAND SWAN']);
    expect(vessel.identifiers).toContainEqual({ type: 'imo', value: '7406784' });
    expect(new Set(sdn.entities.map((e) => e.type))).toEqual(new Set(['person', 'organization', 'vessel', 'aircraft']));
    expect(sdn.entities.find((e) => e.programs.length > 1)).toBeDefined();
  });

  it('joins ALT, ADD and COMMENTS (remarks continued across files) to the consolidated non-SDN list', async () => {
    const scan = await scanListsDir(`${LISTS}current`);
    const cons = await parseListFileSet(scan.lists.find((l) => l.name === 'ofac_non_sdn')!);
    expect(cons.entities).toHaveLength(442);
    const haniya = cons.entities.find((e) => e.sourceId === '9639')!;
    expect(haniya.names.map((n) => n.full)).toEqual(expect.arrayContaining(['HANIYA, Ismail', 'HANIYYA, Ismaeel']));
    expect(haniya.birthDates).toEqual(['1962']);
    // 17018's remarks end mid-sentence in CONS_PRIM and continue in CONS_COMMENTS.
    const sber = cons.entities.find((e) => e.sourceId === '17018')!;
    expect(sber.names.map((n) => n.full)).toEqual(expect.arrayContaining(['SBERBANK INDIA', 'SBERBANK MUMBAI']));
    expect(sber.identifiers).toContainEqual({ type: 'registration', value: '1027700132195', country: 'RU' });
  });

  it('reads alias quality, original script, DOB kinds and documents from the UN XML', async () => {
    const un = await parseListFileSet({ name: 'un', format: 'un_xml', files: { main: `${LISTS}current/un_consolidated.xml` } });
    expect(un.entities).toHaveLength(1003);
    expect(un.publishedAt).toBe('2026-02-27T00:00:09.554Z');
    const saddam = un.entities.find((e) => e.sourceId === 'IQi.001')!;
    expect(saddam.names).toContainEqual({ full: 'صدام حسين التكريتي', kind: 'alias' });
    expect(saddam.names.some((n) => n.kind === 'weak_alias')).toBe(true);
    expect(saddam.nationalities).toEqual(['IQ']);
    const adf = un.entities.find((e) => e.sourceId === 'CDe.001')!;
    expect(adf.type).toBe('organization');
    expect(adf.names).toContainEqual({ full: 'NALU', kind: 'former' });
    expect(un.entities.some((e) => e.birthDates.some((d) => d.includes('/')))).toBe(true);
    // An ALIAS_NAME packing several names with semicolons gives each as a name of its own.
    expect(un.entities.some((e) => e.names.some((n) => n.full.includes(';')))).toBe(false);
    // So does the one packed primary name: the first is primary, the others aliases; an acronym in brackets stays.
    const cagl = un.entities.find((e) => e.sourceId === 'CDe.003')!;
    expect(cagl.names.filter((n) => n.kind === 'primary').map((n) => n.full)).toEqual(['COMPAGNIE AERIENNE DES GRANDS LACS (CAGL)']);
    expect(cagl.names).toContainEqual({ full: 'GREAT LAKES BUSINESS COMPANY (GLBC)', kind: 'alias' });
    const soleimani = un.entities.find((e) => e.sourceId === 'IRi.039')!;
    expect(soleimani.names).toContainEqual({ full: 'Qasim Sulaymani', kind: 'alias' });
    const hts = un.entities.find((e) => e.sourceId === 'QDe.137')!;
    expect(hts.names.map((n) => n.full)).toEqual(expect.arrayContaining(['Hayat Tahrir al-Sham', 'هيئة تحرير الشام', 'Assembly for the Liberation of Syria']));
    expect(hts.names.map((n) => n.full)).not.toContain('original script');
  });

  it('splits a packed UN alias, romanisations in brackets and "b)" items alike, and keeps a single one whole', () => {
    expect(aliasNames('حسن غول (Hassan Ghul; Hassan Gul; Hasan Gul)')).toEqual(['حسن غول', 'Hassan Ghul', 'Hassan Gul', 'Hasan Gul']);
    expect(aliasNames('Mohammed Sabet; Mohammad Sabet b) M. Javad Kareemi Sabet')).toEqual(['Mohammed Sabet', 'Mohammad Sabet', 'M. Javad Kareemi Sabet']);
    expect(aliasNames('Bashir Sabawi Ibrahim Al-Hasan (Al-Tikriti)')).toEqual(['Bashir Sabawi Ibrahim Al-Hasan (Al-Tikriti)']);
  });

  it('splits only a bracket that holds a semicolon, keeping acronyms, places and notes with their name', () => {
    expect(aliasNames('Hay’at Tahrir al-Sham (HTS) (هيئة تحرير الشام (original script); Hay’at Tahrir al-Sham; Hayat Tahrir al-Sham)'))
      .toEqual(['Hay’at Tahrir al-Sham (HTS)', 'هيئة تحرير الشام', 'Hay’at Tahrir al-Sham', 'Hayat Tahrir al-Sham']);
    expect(aliasNames('Leader (Hong Kong) International Trading Limited; Leader HK Trading')).toEqual(['Leader (Hong Kong) International Trading Limited', 'Leader HK Trading']);
    expect(aliasNames('Foo Bar (birth name); Foo Baz')).toEqual(['Foo Bar (birth name)', 'Foo Baz']);
    expect(aliasNames('Ali Hassan (third); Ali Hasan')).toEqual(['Ali Hassan (third)', 'Ali Hasan']);
    expect(aliasNames('Amir Hazmat (original script: Амир Хазмат); Amir Khazmat')).toEqual(['Amir Hazmat (Амир Хазмат)', 'Amir Khazmat']);
    // Only "b)" and later letters are items: a lone "a)" inside a name does not cut it.
    expect(aliasNames('Abu Ali; Abu a) Ali')).toEqual(['Abu Ali', 'Abu a) Ali']);
  });

  it('keeps a primary name whose semicolon packs no names as written, without failing the list', () => {
    expect(aliasNames('12; 34')).toEqual([]);
    const xml = '<CONSOLIDATED_LIST><ENTITIES><ENTITY><REFERENCE_NUMBER>XXe.001</REFERENCE_NUMBER><FIRST_NAME>12; 34</FIRST_NAME></ENTITY></ENTITIES></CONSOLIDATED_LIST>';
    const [entity] = parseUnXml(xml, 'un_test').entities;
    expect(entity!.names).toEqual([{ full: '12; 34', kind: 'primary' }]);
  });

  it('merges the DPL rows of one party and splits A/K/A names', async () => {
    const dpl = await parseListFileSet({ name: 'dpl', format: 'bis_dpl_tsv', files: { main: `${LISTS}current/us_dpl.txt` } });
    expect(dpl.entities.length).toBeGreaterThan(400);
    expect(dpl.entities.length).toBeLessThan(581);
    const sun = dpl.entities.find((e) => e.names[0].full === 'FUYI SUN')!;
    expect(sun.names).toContainEqual({ full: 'FRANK SUN', kind: 'alias' });
    expect(dpl.entities.find((e) => e.names[0].full === 'SIBERIAN AIRLINES')?.type).toBe('organization');
  });

  it('joins the 2021 SDN family (sdn + alt + add + comments) into aliases and addresses', async () => {
    const scan = await scanListsDir(`${LISTS}archive/ofac_sdn_2021-07`);
    const sdn = await parseListFileSet(scan.lists[0]);
    expect(sdn.entities).toHaveLength(8976);
    const aero = sdn.entities.find((e) => e.sourceId === '36')!;
    expect(aero.names).toContainEqual({ full: 'AERO-CARIBBEAN', kind: 'alias' });
    expect(aero.addresses).toContainEqual({ full: 'Havana, Cuba', country: 'CU' });
  });

  it('skips companion files without their main file, saying why', async () => {
    const scan = await scanListsDir(`${LISTS}archive/ofac_alt_add_2025-02`);
    expect(scan.lists).toEqual([]);
    expect(scan.skipped.map((s) => s.file)).toEqual(['add.csv', 'alt.csv', 'sdn_comments.csv']);
    expect(scan.skipped[0].reason).toMatch(/without its SDN file/);
  });
});

describe('a lists folder with symbolic links', () => {
  const temporary: string[] = [];
  afterAll(() => Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('follows links that stay inside the folder (a Kubernetes ConfigMap mount), and skips the others with why', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'kyx-outside-'));
    const root = await mkdtemp(join(tmpdir(), 'kyx-lists-'));
    temporary.push(outside, root);
    await writeFile(join(outside, 'un.xml'), await readFile(`${LISTS}current/un_consolidated.xml`));
    // The layout kubelet writes: each file a link into ..data, itself a link to a timestamped folder.
    await mkdir(join(root, '..2026_11_23_10_00_00.1'));
    await copyFile(`${LISTS}current/us_dpl.txt`, join(root, '..2026_11_23_10_00_00.1', 'us_dpl.txt'));
    await writeFile(join(root, '..2026_11_23_10_00_00.1', 'notes.txt'), 'not a list');
    await symlink('..2026_11_23_10_00_00.1', join(root, '..data'));
    await symlink('..data/us_dpl.txt', join(root, 'us_dpl.txt'));
    await symlink('..data/notes.txt', join(root, 'notes.txt'));
    await symlink(join(outside, 'un.xml'), join(root, 'un.xml'));
    await symlink('missing.csv', join(root, 'dangling.csv'));
    await symlink('.', join(root, 'loop'));
    await symlink('us_dpl.txt', join(root, 'z_again.txt'));
    execFileSync('mkfifo', [join(root, 'pipe')]);

    const scan = await scanListsDir(root);

    expect(scan.lists).toEqual([{ name: 'us_dpl', format: 'bis_dpl_tsv', files: { main: join(root, 'us_dpl.txt') } }]);
    expect(scan.skipped).toEqual([
      { file: 'dangling.csv', reason: 'symbolic link to a missing file' },
      { file: 'loop', reason: 'symbolic link loop' },
      { file: 'notes.txt', reason: 'not a list format kyx reads' },
      { file: 'pipe', reason: 'not a regular file' },
      { file: 'un.xml', reason: 'symbolic link to a file outside the lists folder' },
      { file: 'z_again.txt', reason: 'same file or folder as us_dpl.txt' },
    ]);
    expect((await parseListFileSet(scan.lists[0])).entities.length).toBeGreaterThan(0);
  });

  it('reads a lists folder that is itself reached through a link', async () => {
    const real = await mkdtemp(join(tmpdir(), 'kyx-lists-real-'));
    const parent = await mkdtemp(join(tmpdir(), 'kyx-lists-link-'));
    temporary.push(real, parent);
    await copyFile(`${LISTS}current/us_dpl.txt`, join(real, 'dpl.txt'));
    await symlink(real, join(parent, 'lists'));
    const scan = await scanListsDir(join(parent, 'lists'));
    expect(scan.lists.map((l) => l.name)).toEqual(['dpl']);
    expect(scan.skipped).toEqual([]);
  });
});

describe('OFAC remarks', () => {
  it('extracts aliases (strong, weak, former), dates, places, nationality, gender and identifiers', () => {
    const facts = parseOfacRemarks(
      "DOB 10 Dec 1948; alt. DOB 1950 to 1952; POB Kabul, Afghanistan; nationality Afghanistan; alt. citizen Pakistan; Gender Male; Passport OR123456 (Pakistan); National ID No. 12-345-678 (Afghanistan); a.k.a. 'ABU SAMIR'; a.k.a. 'SAMIR AHMED KHAN'; f.k.a. 'KHAN, Samir'; Linked To: SOME GROUP.",
      'person',
    );
    expect(facts.aliases).toEqual([
      { name: 'ABU SAMIR', kind: 'weak_alias' },
      { name: 'SAMIR AHMED KHAN', kind: 'alias' },
      { name: 'KHAN, Samir', kind: 'former' },
    ]);
    expect(facts.birthDates).toEqual(['1948-12-10', '1950/1952']);
    expect(facts.birthPlaces).toEqual(['Kabul, Afghanistan']);
    expect(facts.nationalities).toEqual(['AF', 'PK']);
    expect(facts.gender).toBe('male');
    expect(facts.identifiers).toEqual([
      { type: 'passport', value: 'OR123456', country: 'PK' },
      { type: 'national_id', value: '12-345-678', country: 'AF' },
    ]);
  });

  it('records a nationality ICU names otherwise by its current code', () => {
    expect(parseOfacRemarks('nationality Zimbabwe; alt. nationality Turkey; citizen Vietnam.', 'person').nationalities).toEqual(['ZW', 'TR', 'VN']);
  });

  it('reads dates as publishers write them', () => {
    expect(parseLooseDate('circa 1960')).toBe('1960');
    expect(parseLooseDate('Dec 1960')).toBe('1960-12');
    expect(parseLooseDate('00/00/1961')).toBe('1961');
    expect(parseLooseDate('31/01/1953')).toBe('1953-01-31');
    expect(parseLooseDate('unknown')).toBeUndefined();
  });
});

describe('EU, UK and FollowTheMoney fixtures', () => {
  it('parses the EU XML: weak aliases, citizenship, birth date, passport, registration', async () => {
    const eu = parseEuXml(await fixture('eu_fsf.xml'), 'eu');
    expect(eu.entities).toHaveLength(2);
    const [saddam, shipyard] = eu.entities;
    expect(saddam.names).toEqual([
      { full: 'Saddam Hussein Al-Tikriti', kind: 'primary' },
      { full: 'Abu Ali', kind: 'weak_alias' },
      { full: 'Саддам Хусейн', kind: 'alias' },
    ]);
    expect(saddam).toMatchObject({ type: 'person', programs: ['IRQ'], nationalities: ['IQ'], birthDates: ['1937-04-28'], gender: 'male' });
    expect(saddam.identifiers).toEqual([{ type: 'passport', value: 'N-0012345', country: 'IQ' }]);
    expect(shipyard.names[0].full).toBe('Joint Stock Company Example Shipyard & Works');
    expect(shipyard).toMatchObject({ type: 'organization', countries: ['UA'] });
    expect(eu.publishedAt).toBe('2025-03-14T08:12:00.000Z');
  });

  it('parses the EU CSV into the same entities, grouping sub-record rows by logical id', async () => {
    const text = await fixture('eu_fsf.csv');
    expect(detectFileKind(text)).toEqual({ format: 'eu_csv' });
    const eu = parseEuCsv(text, 'eu');
    const saddam = eu.entities.find((e) => e.sourceId === '13')!;
    expect(saddam.names.map((n) => n.full)).toEqual(['Saddam Hussein Al-Tikriti', 'Abu Ali']);
    expect(saddam).toMatchObject({ birthDates: ['1937-04-28'], nationalities: ['IQ'] });
    expect(saddam.identifiers).toEqual([{ type: 'passport', value: 'N-0012345', country: 'IQ' }]);
    expect(eu.entities.find((e) => e.sourceId === '7001')?.names[0].full).toBe('Joint Stock Company Example Shipyard; Works');
  });

  it('parses the UK Sanctions List CSV: surname in Name 6, alias strength, non-Latin names, ships', async () => {
    const text = await fixture('uk_sanctions_list.csv');
    expect(detectFileKind(text)).toEqual({ format: 'uk_csv' });
    const uk = parseUkCsv(text, 'uk');
    expect(uk.publishedAt).toBe('2025-03-14T00:00:00.000Z');
    const ivanov = uk.entities.find((e) => e.sourceId === 'RUS0001')!;
    expect(ivanov.names).toEqual([
      { full: 'Sergei Borisovich IVANOV', kind: 'primary' },
      { full: 'Сергей Борисович Иванов', kind: 'alias' },
      { full: 'Sergey IVANOV', kind: 'alias' },
      { full: 'SERYOGA', kind: 'weak_alias' },
    ]);
    expect(ivanov).toMatchObject({ type: 'person', birthDates: ['1953-01-31'], nationalities: ['RU'], gender: 'male' });
    expect(ivanov.identifiers).toEqual([{ type: 'passport', value: '1234567890' }]);
    expect(uk.entities.find((e) => e.sourceId === 'RUS1500')?.identifiers).toEqual([{ type: 'registration', value: '1027700132195' }]);
    expect(uk.entities.find((e) => e.sourceId === 'RUS2000')).toMatchObject({ type: 'vessel', identifiers: [{ type: 'imo', value: '9123456' }] });
  });

  it('parses FollowTheMoney lines, keeping only matchable target schemata', async () => {
    const text = await fixture('custom_pep.ftm.json');
    expect(detectFileKind(text)).toEqual({ format: 'ftm_json' });
    const ftm = parseFtm(text, 'peps');
    expect(ftm.entities.map((e) => [e.sourceId, e.type])).toEqual([['pep-ex-1', 'person'], ['co-ex-2', 'organization']]);
    expect(ftm.entities[0]).toMatchObject({ birthDates: ['1970-05-02'], nationalities: ['ES'], programs: ['role.pep'] });
    expect(ftm.entities[0].identifiers).toContainEqual({ type: 'passport', value: 'PAB123456', country: undefined });
  });

  it('reads keys that every object inherits as data, not as the object\'s own (review of round 33)', () => {
    const lines = ['constructor', 'toString', 'hasOwnProperty', '__proto__'].map((schema, i) => JSON.stringify({ id: `x${i}`, schema, properties: { name: ['Acme'] } }));
    expect(parseFtm(lines.join('\n'), 'peps').entities).toEqual([]);
    expect(lowerCaseRecord(['Constructor', 'Name'], ['built', 'Acme'])).toEqual({ constructor: 'built', name: 'Acme' });
  });

  it('rejects what it cannot read with a message', () => {
    expect(() => parseEuXml('<export><sanctionEntity logicalId="1">', 'eu')).toThrow(/unclosed/);
    expect(detectFileKind('hello, world\nnot a list')).toBeUndefined();
  });
});
