// Which lists the service loads, from the environment (KYX_LISTS_DIR, imported lists, KYX_LIST_SOURCES).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { importedListsDir, listRegistryOptions, listsConfigured } from '../../src/aml/list-sources.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-config-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const config = (env: Record<string, string> = {}) => loadConfig({ KYX_DATA_DIR: dataDir, ...env });

describe('list sources from the environment', () => {
  it('configures nothing by default: screening then answers lists_unavailable and readiness is not tied to lists', async () => {
    const options = await listRegistryOptions(config());
    expect(listsConfigured(options)).toBe(false);
  });

  it('reads publisher URLs and refreshes hourly by default when there are some, every 5 minutes for local lists only', async () => {
    const sources = JSON.stringify([
      { name: 'un', url: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml', timeoutMs: 30000 },
      { name: 'ofac_sdn', url: ['https://example.test/SDN.CSV', 'https://example.test/ALT.CSV'], maxBytes: 50000000 },
    ]);
    const remote = await listRegistryOptions(config({ KYX_LIST_SOURCES: sources }));
    expect(remote.sources).toEqual([
      { name: 'un', url: ['https://scsanctions.un.org/resources/xml/en/consolidated.xml'], timeoutMs: 30000 },
      { name: 'ofac_sdn', url: ['https://example.test/SDN.CSV', 'https://example.test/ALT.CSV'], maxBytes: 50000000 },
    ]);
    expect(remote.refreshIntervalMs).toBe(3600_000);
    const local = await listRegistryOptions(config({ KYX_LISTS_DIR: '/srv/lists' }));
    expect(local).toMatchObject({ listsDir: '/srv/lists', refreshIntervalMs: 300_000 });
    expect(listsConfigured(local)).toBe(true);
    expect((await listRegistryOptions(config({ KYX_LIST_SOURCES: sources, KYX_LISTS_REFRESH_SECONDS: '0' }))).refreshIntervalMs).toBe(0);
  });

  it('serves imported lists as local sources', async () => {
    // a data folder of its own: the other tests expect none imported
    const importedInto = await mkdtemp(path.join(tmpdir(), 'kyx-aml-imported-'));
    try {
      await mkdir(path.join(importedListsDir(importedInto), 'us_dpl'), { recursive: true });
      const options = await listRegistryOptions(loadConfig({ KYX_DATA_DIR: importedInto }));
      expect(options.sources).toEqual([{ name: 'us_dpl', path: path.join(importedListsDir(importedInto), 'us_dpl') }]);
    } finally {
      await rm(importedInto, { recursive: true, force: true });
    }
  });

  it.each([
    ['not JSON', '{', /JSON array/],
    ['not an array', '{"name":"un"}', /JSON array/],
    ['a bad name', '[{"name":"UN list","url":"https://x.test/a.xml"}]', /name/],
    ['a duplicate name', '[{"name":"un","url":"https://x.test/a"},{"name":"un","url":"https://x.test/b"}]', /twice/],
    ['no URL', '[{"name":"un"}]', /url/],
    ['a file URL', '[{"name":"un","url":"file:///etc/passwd"}]', /url/],
    ['a negative size limit', '[{"name":"un","url":"https://x.test/a","maxBytes":-1}]', /maxBytes/],
  ])('refuses KYX_LIST_SOURCES with %s', (_label, raw, message) => {
    expect(() => config({ KYX_LIST_SOURCES: raw })).toThrow(ConfigError);
    expect(() => config({ KYX_LIST_SOURCES: raw })).toThrow(message);
  });

  it('refuses a refresh period that is not a whole number of seconds', () => {
    expect(() => config({ KYX_LISTS_REFRESH_SECONDS: 'hourly' })).toThrow(/KYX_LISTS_REFRESH_SECONDS/);
  });
});
