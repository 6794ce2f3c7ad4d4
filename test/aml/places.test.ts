import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import { withoutClosingCountry, withoutPlaceName } from '../../src/aml/places.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';

const CURRENT = fileURLToPath(new URL('../../../shared/data/lists/current', import.meta.url));

const organisation = (list: string, id: string, name: string, countries: string[] = []): ListEntity => ({
  ...emptyEntity(list, id, 'organization'), names: [{ full: name, kind: 'primary' as const }], countries,
});

/**
 * The loaded lists with `added` beside them, built before the describe block's tests: `found` screens a name as an
 * organisation, `foundBelowExact` expects its best match to be `entityId`, scored below an exact match.
 */
function listsBeside(added: ListEntity[]): { found: (name: string) => string[]; foundBelowExact: (name: string, entityId: string) => void } {
  let snapshot: ListsSnapshot;
  beforeAll(async () => {
    const listed: ListEntity[] = [];
    for (const set of (await scanListsDir(CURRENT)).lists) listed.push(...(await parseListFileSet(set)).entities);
    snapshot = { index: buildIndex([...listed, ...added]), lists: [], listsVersion: added[0].list };
  });
  return {
    found: (name) => screen(snapshot, { name, type: 'organization', limit: 50 }).matches.map((m) => m.entityId),
    foundBelowExact: (name, entityId) => {
      const [match] = screen(snapshot, { name, type: 'organization' }).matches;
      expect(match.entityId).toBe(entityId);
      expect(match.score).toBeLessThan(1);
    },
  };
}

describe('an organisation named without the place its listed name opens with', () => {
  const { found, foundBelowExact } = listsBeside([
    organisation('places', '0', 'Shandong Lumeng Ceramics Co., Ltd.'),
    organisation('places', '1', 'Tianjin Vakifkent Bank'),
    organisation('places', '2', 'Hunan Foreign Trade Bank'),
    organisation('places', '4', 'Sichuan Petroleum Company'),
    organisation('places', '3', 'Lumeng Textiles Kenya'),
    organisation('places', '5', 'Dalian Ocean Fishing Company'),
    organisation('places', '6', 'Beirut Gem SAL'),
  ]);

  it('reads the listed name without an opening province or city, below an exact match', () => {
    expect(found('Lumeng Ceramics')).toContain('places:0');
    expect(found('Vakifkent Bank')).toContain('places:1');
    foundBelowExact('Lumeng Ceramics Co Ltd', 'places:0');
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

  it('keeps a closing place (a closing country is withoutClosingCountry\'s, below)', () => {
    expect(withoutPlaceName('Lumeng Textiles Kenya')).toBeUndefined();
    expect(withoutPlaceName('The Sichuan Lumeng Group')).toBe('lumeng group');
    expect(withoutPlaceName('Beijing Co Ltd')).toBeUndefined();
  });

  it('keeps an opening country: it names national bodies', () => {
    expect(withoutPlaceName('Kenya Lumeng Airways')).toBeUndefined();
  });
});

describe('an organisation named with or without the country its name closes with (round 32)', () => {
  const { found, foundBelowExact } = listsBeside([
    organisation('countries', '0', 'Zorvakom Bank Tunisia'),
    organisation('countries', '1', 'Velmorant Trading'),
    organisation('countries', '2', 'Kastellio-Bank', ['RU']),
    organisation('countries', '3', 'Development Bank'),
    organisation('countries', '4', 'Prenzova Relief Committee in Yemen'),
    { ...organisation('countries', '5', 'Dravenko Bank'), identifiers: [{ type: 'tax_id', value: '7700000001', country: 'RU' }] },
  ]);

  it('finds the body written without the country its listed name closes with, and the other way round, below an exact match', () => {
    expect(found('Zorvakom Bank')).toContain('countries:0');
    expect(found('Prenzova Relief Committee')).toContain('countries:4');
    expect(found('Velmorant Trading UK')).toContain('countries:1');
    foundBelowExact('Velmorant Trading Turkiye', 'countries:1');
  });

  it('does not take a sibling abroad for a body the list places in another country', () => {
    expect(found('Kastellio-Bank Russia')).toContain('countries:2');
    expect(found('Kastellio-Bank Ukraine')).not.toContain('countries:2');
    // The list may place a body by its registration's or tax number's country alone.
    expect(found('Dravenko Bank Russia')).toContain('countries:5');
    expect(found('Dravenko Bank Nigeria')).not.toContain('countries:5');
  });

  it('leaves a country after "of" in the name, and needs a word fewer listed names hold than an industry\'s', () => {
    expect(withoutClosingCountry('National Bank of Egypt')).toBeUndefined();
    expect(withoutClosingCountry('Velmorant Trading of the United Kingdom')).toBeUndefined();
    expect(withoutClosingCountry('Banco Nacional de Angola')).toBeUndefined();
    expect(withoutClosingCountry('Banco do Brasil')).toBeUndefined();
    expect(withoutClosingCountry("Foreign Trade Bank of the Democratic People's Republic of Korea")).toBeUndefined();
    expect(withoutClosingCountry('Velmorant Trading Turkey')).toEqual({ reading: 'velmorant trading', country: 'TR' });
    expect(withoutClosingCountry('Ansar Committee in the United Kingdom')).toEqual({ reading: 'ansar committee', country: 'GB' });
    expect(found('Development Bank Tunisia')).not.toContain('countries:3');
    expect(withoutClosingCountry('Iran Air Iran')).toBeUndefined();
    expect(withoutClosingCountry('LLC Georgia')).toBeUndefined();
    expect(withoutClosingCountry('Velmorant Trading (UK)')).toBeUndefined();
  });
});
