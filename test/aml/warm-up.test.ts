// The registry screens a new snapshot before serving it, so the first screening after a (re)load does not pay for
// what is built on first use. Observed through the module boundary: no wall-clock timing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as screening from '../../src/aml/screen.ts';
import { createListRegistry } from '../../src/aml/registry.ts';
import { buildIndex } from '../../src/aml/matching.ts';
import type { ListEntity } from '../../src/aml/model.ts';

vi.mock('../../src/aml/screen.ts', { spy: true });

const SDN = '10,"EXAMPLE SHIPPING LINE LTD",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'
  + '11,"PETROVSKY, Anatoly Ivanovich","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 12 Mar 1961; nationality Russia."\r\n';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('warming a new snapshot', () => {
  it('screens through whatever the entities carry (year ranges, country names, short names and identifiers)', () => {
    const entity = (id: string, type: ListEntity['type'], name: string): ListEntity => ({
      id: `t:${id}`, sourceId: id, list: 't', programs: [], type, names: [{ full: name, kind: 'primary' }],
      birthDates: ['1961/1963'], birthPlaces: [], nationalities: [], countries: ['Iran (Islamic Republic of)'],
      identifiers: [{ type: 'other', value: 'X1' }], addresses: [],
    });
    const entities = [entity('1', 'person', 'A'), entity('2', 'vessel', 'SEA STAR'), entity('3', 'organization', 'AB')];
    expect(() => screening.warmUp({ index: buildIndex(entities), lists: [], listsVersion: 'lv_test' })).not.toThrow();
  });

  it('screens names of the new lists before the snapshot is served, on the first load and on a change', async () => {
    const listsDir = await mkdtemp(join(tmpdir(), 'kyx-warm-'));
    const dataDir = await mkdtemp(join(tmpdir(), 'kyx-warm-data-'));
    dirs.push(listsDir, dataDir);
    await writeFile(join(listsDir, 'sdn.csv'), SDN);
    const registry = createListRegistry({ listsDir, dataDir, parseInWorker: false });
    const servedWhileWarming: unknown[] = [];
    vi.mocked(screening.warmUp).mockClear().mockImplementation((snapshot) => {
      servedWhileWarming.push(registry.snapshot());
      expect(snapshot.index.entities.length).toBeGreaterThan(0);
    });

    await registry.load();
    expect(screening.warmUp).toHaveBeenCalledTimes(1);
    expect(vi.mocked(screening.warmUp).mock.calls[0][0]).toBe(registry.snapshot());
    expect(servedWhileWarming).toEqual([null]);

    const first = registry.snapshot();
    await writeFile(join(listsDir, 'sdn.csv'), SDN + '12,"NEWLY LISTED HOLDINGS",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n');
    await registry.refresh();
    expect(screening.warmUp).toHaveBeenCalledTimes(2);
    expect(servedWhileWarming[1]).toBe(first);
    await registry.close();
  });
});
