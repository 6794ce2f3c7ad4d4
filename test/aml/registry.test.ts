import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm, writeFile, mkdir, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createListRegistry } from '../../src/aml/registry.ts';
import { fetchListFile } from '../../src/aml/fetch.ts';
import { ListsUnavailableError, screen } from '../../src/aml/screen.ts';

const SDN_V1 = '10,"EXAMPLE SHIPPING LINE LTD",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"a.k.a. \'ESL GLOBAL TRADING\'."\r\n'
  + '11,"PETROVSKY, Anatoly Ivanovich","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 12 Mar 1961; nationality Russia; Gender Male."\r\n\u001a';
const SDN_V2 = SDN_V1.replace('\u001a', '') + '12,"NEWLY LISTED HOLDINGS",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n';

let server: Server;
let base: string;
let body = SDN_V1;
let etag = '"v1"';
const requests: Array<{ path: string; ifNoneMatch?: string }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ path: req.url ?? '', ifNoneMatch: req.headers['if-none-match'] });
    if (req.url === '/sdn.csv') {
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { etag, 'last-modified': 'Fri, 03 May 2024 10:00:00 GMT', 'content-type': 'text/csv' }).end(body);
    } else if (req.url === '/huge.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('x'.repeat(64 * 1024));
      res.end('x'.repeat(64 * 1024)); // streamed without Content-Length
    } else if (req.url === '/slow.csv') {
      setTimeout(() => res.writeHead(200).end(body), 3_000).unref();
    } else if (req.url === '/broken.csv') {
      res.writeHead(200, { etag: '"broken"' }).end('this is not a sanctions list\n');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const temporary: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kyx-aml-'));
  temporary.push(dir);
  return dir;
}
afterEach(async () => {
  body = SDN_V1;
  etag = '"v1"';
  requests.length = 0;
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('fetching from a publisher', () => {
  it('revalidates with the ETag, keeps the list on 304 and swaps in a changed version', async () => {
    const dataDir = await tempDir();
    const registry = createListRegistry({ dataDir, sources: [{ name: 'ofac_sdn', url: `${base}/sdn.csv` }] });
    await registry.load();
    expect(registry.status()[0]).toMatchObject({ name: 'ofac_sdn', format: 'ofac_csv', entityCount: 2, lastError: null, versionDate: '2024-05-03T10:00:00.000Z' });
    const first = registry.versions().listsVersion;
    expect(screen(registry, { name: 'ESL Global Trading' }).matches[0]?.entityId).toBe('ofac_sdn:10');

    await registry.refresh();
    expect(requests.at(-1)).toEqual({ path: '/sdn.csv', ifNoneMatch: '"v1"' });
    expect(registry.versions().listsVersion).toBe(first);

    body = SDN_V2;
    etag = '"v2"';
    await registry.refresh();
    expect(registry.status()[0].entityCount).toBe(3);
    expect(registry.versions().listsVersion).not.toBe(first);
    expect(screen(registry, { name: 'Newly Listed Holdings' }).status).toBe('potential_match');
    await registry.close();
  });

  it('restores the last good version from disk when the publisher is unreachable after a restart', async () => {
    const dataDir = await tempDir();
    const first = createListRegistry({ dataDir, sources: [{ name: 'ofac_sdn', url: `${base}/sdn.csv` }], parseInWorker: false });
    await first.load();
    await first.close();
    const restarted = createListRegistry({ dataDir, sources: [{ name: 'ofac_sdn', url: `${base}/missing.csv` }], parseInWorker: false });
    await restarted.load();
    expect(restarted.isReady()).toBe(true);
    expect(restarted.status()[0]).toMatchObject({ entityCount: 2, lastError: 'publisher answered HTTP 404' });
  });

  it('refuses a file over the size limit, even without Content-Length', async () => {
    const dir = await tempDir();
    await expect(fetchListFile(`${base}/huge.csv`, join(dir, 'huge.csv'), { maxBytes: 100_000 })).rejects.toThrow(/exceeds the 100000-byte limit/);
    await expect(readFile(join(dir, 'huge.csv'))).rejects.toThrow();
  });

  it('gives up after the timeout', async () => {
    const dir = await tempDir();
    await expect(fetchListFile(`${base}/slow.csv`, join(dir, 'slow.csv'), { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms/);
  });

  it('reports a list that does not parse and serves nothing rather than guessing', async () => {
    const registry = createListRegistry({ dataDir: await tempDir(), sources: [{ name: 'eu', url: `${base}/broken.csv` }], parseInWorker: false });
    await registry.load();
    expect(registry.isReady()).toBe(false);
    expect(registry.status()[0].lastError).toMatch(/0 recognised lists/);
    expect(() => screen(registry, { name: 'Anyone Listed' })).toThrow(ListsUnavailableError);
  });
});

describe('a local lists folder (KYX_LISTS_DIR)', () => {
  it('keeps serving the last good version when a list file breaks, and reports the error', async () => {
    const listsDir = await tempDir();
    const dataDir = await tempDir();
    await mkdir(join(listsDir, 'ofac'));
    const file = join(listsDir, 'ofac', 'sdn.csv');
    await writeFile(file, SDN_V1);
    await writeFile(join(listsDir, 'README.txt'), 'notes, not a list');
    const registry = createListRegistry({ listsDir, dataDir });
    await registry.load();
    expect(registry.status()).toMatchObject([{ name: 'ofac', source: `dir:${listsDir}`, entityCount: 2, lastError: null }]);

    // A truncated download: the header row of another format is not a list kyx recognises.
    await writeFile(file, '10,"EXAMPLE SHIPPING LINE LTD",-0- ,"IRAN"\r\n');
    await registry.refresh();
    expect(registry.status()[0]).toMatchObject({ entityCount: 2, lastError: 'sdn.csv is no longer a recognised list file' });
    expect(screen(registry, { name: 'Anatoly Petrovsky', dateOfBirth: '1961-03-12' }).matches[0]?.entityId).toBe('ofac:11');

    // The next process starts with the broken file: the copy kept under the data dir serves.
    const restarted = createListRegistry({ listsDir, dataDir, parseInWorker: false });
    await restarted.load();
    expect(restarted.isReady()).toBe(true);
    await registry.close();
    await restarted.close();
  });

  it('reports a list whose file fails to parse as an error of that list', async () => {
    const listsDir = await tempDir();
    await writeFile(join(listsDir, 'un.xml'), '<?xml version="1.0"?>\n<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>');
    const registry = createListRegistry({ listsDir, dataDir: await tempDir(), parseInWorker: false });
    await registry.load();
    expect(registry.status()).toMatchObject([{ name: 'un', entityCount: 0, lastError: expect.stringMatching(/unclosed element/) }]);
    expect(registry.isReady()).toBe(false);
  });

  it('logs each file of the lists dir it does not load, with why, once until that changes', async () => {
    const listsDir = await tempDir();
    await writeFile(join(listsDir, 'sdn.csv'), SDN_V1);
    await writeFile(join(listsDir, 'README.txt'), 'notes, not a list');
    await symlink('gone.csv', join(listsDir, 'dangling.csv'));
    const warnings: Array<{ details: object; message: string }> = [];
    const logger = { info: () => undefined, warn: (details: object, message: string) => warnings.push({ details, message }) };
    const registry = createListRegistry({ listsDir, dataDir: await tempDir(), parseInWorker: false, logger });
    await registry.load();
    const expected = [
      { file: 'dangling.csv', reason: 'symbolic link to a missing file' },
      { file: 'README.txt', reason: 'not a list format kyx reads' },
    ];
    expect(registry.skippedFiles()).toEqual(expected);
    expect(warnings).toEqual(expected.map((skipped) => ({ details: { listsDir, ...skipped }, message: 'AML lists dir: file not loaded' })));
    await registry.refresh();
    expect(warnings).toHaveLength(2);
    await rm(join(listsDir, 'README.txt'));
    await registry.refresh();
    expect(registry.skippedFiles()).toEqual([expected[0]]);
    expect(warnings).toHaveLength(3);
    await registry.close();
  });

  it('gets every entity of a list larger than one message back from the parse worker, in order', async () => {
    const listsDir = await tempDir();
    const count = 12_345;
    const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `p${i}`, schema: 'Person', properties: { name: [`Person Number ${i}`] } }));
    await writeFile(join(listsDir, 'people.json'), lines.join('\n'));
    const registry = createListRegistry({ listsDir, dataDir: await tempDir() });
    await registry.load();
    const entities = registry.snapshot()!.index.entities;
    expect(entities.map((e) => e.sourceId)).toEqual(Array.from({ length: count }, (_, i) => `p${i}`));
    expect(screen(registry, { name: 'Person Number 12344' }).matches[0].entityId).toBe('people:p12344');
    await registry.close();
  });

  it('reports an unreadable lists dir as the reason nothing loads', async () => {
    const listsDir = join(await tempDir(), 'missing');
    const registry = createListRegistry({ listsDir, dataDir: await tempDir(), parseInWorker: false });
    await registry.load();
    expect(registry.skippedFiles()).toEqual([{ file: '.', reason: expect.stringMatching(/^the lists folder cannot be read: ENOENT/) }]);
  });
});
