import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import { withoutPlaceName } from '../../src/aml/places.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';

const CURRENT = fileURLToPath(new URL('../../../shared/data/lists/current', import.meta.url));

describe('an organisation named without the place its listed name opens with', () => {
  const organisation = (id: string, name: string): ListEntity => ({ ...emptyEntity('places', id, 'organization'), names: [{ full: name, kind: 'primary' as const }] });
  let snapshot: ListsSnapshot;
  beforeAll(async () => {
    const listed: ListEntity[] = [];
    for (const set of (await scanListsDir(CURRENT)).lists) listed.push(...(await parseListFileSet(set)).entities);
    const added = [
      organisation('0', 'Shandong Lumeng Ceramics Co., Ltd.'),
      organisation('1', 'Tianjin Vakifkent Bank'),
      organisation('2', 'Hunan Foreign Trade Bank'),
      organisation('4', 'Sichuan Petroleum Company'),
      organisation('3', 'Lumeng Textiles Kenya'),
      organisation('5', 'Dalian Ocean Fishing Company'),
      organisation('6', 'Beirut Gem SAL'),
    ];
    snapshot = { index: buildIndex([...listed, ...added]), lists: [], listsVersion: 'places' };
  });
  const found = (name: string): string[] => screen(snapshot, { name, type: 'organization', limit: 50 }).matches.map((m) => m.entityId);

  it('reads the listed name without an opening province or city, below an exact match', () => {
    expect(found('Lumeng Ceramics')).toContain('places:0');
    expect(found('Vakifkent Bank')).toContain('places:1');
    const [match] = screen(snapshot, { name: 'Lumeng Ceramics Co Ltd', type: 'organization' }).matches;
    expect(match.entityId).toBe('places:0');
    expect(match.score).toBeLessThan(1);
  });

  it('does not let an industry\'s words left after the place find the listed name', () => {
    expect(found('Foreign Trade Bank')).not.toContain('places:2');
    expect(found('Petroleum Company')).not.toContain('places:4');
    // The brand is the first word left: "fishing" is rare on the lists, but "Ocean Fishing" is no one's brand.
    expect(found('Ocean Fishing Company')).not.toContain('places:5');
  });

  it('leaves out Chinese provinces and cities only, not other capitals, which make ordinary phrases names', () => {
    expect(withoutPlaceName('Tehran Prisons Organization')).toBeUndefined();
    expect(withoutPlaceName('The Yangon Restaurant')).toBeUndefined();
    expect(withoutPlaceName('Male Grooming Ltd')).toBeUndefined();
    expect(found('Gem SAL')).not.toContain('places:6');
  });

  it('keeps a closing place: the query without it may be the body at home, not its branch abroad', () => {
    expect(withoutPlaceName('Lumeng Textiles Kenya')).toBeUndefined();
    expect(withoutPlaceName('The Sichuan Lumeng Group')).toBe('lumeng group');
    expect(withoutPlaceName('Beijing Co Ltd')).toBeUndefined();
  });

  it('keeps an opening country: it names national bodies', () => {
    expect(withoutPlaceName('Kenya Lumeng Airways')).toBeUndefined();
  });
});
