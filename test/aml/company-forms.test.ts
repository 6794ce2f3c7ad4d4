import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListFileSet, scanListsDir } from '../../src/aml/parsers/detect.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import { screen, type ListsSnapshot } from '../../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../../src/aml/model.ts';

const CURRENT = fileURLToPath(new URL('../../../shared/data/lists/current', import.meta.url));
const listed: ListEntity[] = [];

beforeAll(async () => {
  for (const set of (await scanListsDir(CURRENT)).lists) listed.push(...(await parseListFileSet(set)).entities);
});

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
