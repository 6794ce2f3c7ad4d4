import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipPassThrough, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundleArchive, runBundleVerify, verifyBundle } from '../../src/reports/index.ts';
import { unzipEntries } from '../helpers/zip.ts';
import { TENANT, catalogue, kindOf, kycRecord, metaFor } from './fixtures.ts';

const CHECK_ID = String(kycRecord.checkId);
const REPORT_NAME = `reports/RPT-001-${CHECK_ID}.pdf`;

let archive: Buffer;
let entries: Map<string, Buffer>;
let workDir: string;

beforeAll(async () => {
  archive = await buildBundleArchive(catalogue, {
    bundleId: 'bnd_verify000000001',
    regulatorRef: 'REF-1',
    check: { id: CHECK_ID, kind: kindOf('kyc'), tenant: TENANT, environment: 'live', record: kycRecord },
    requestedTypes: ['RPT-001'],
    produce: (code) => catalogue.render(code, kycRecord, metaFor(CHECK_ID, String(kycRecord.completedAt))),
    createdAt: '2025-03-15T08:30:14.000Z',
  });
  entries = await unzipEntries(archive);
  workDir = await mkdtemp(join(tmpdir(), 'kyx-verify-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Re-packs the archive's files (manifest untouched) after a change, as someone tampering with it would. */
function repack(change: (files: Map<string, Buffer>) => void): Buffer {
  const files = new Map(entries);
  change(files);
  return Buffer.from(zipSync(Object.fromEntries(files)));
}

describe('verifyBundle', () => {
  it('passes the archive as built', () => {
    const result = verifyBundle(archive);
    expect(result).toMatchObject({ ok: true, missing: [], changed: [], unlisted: [], duplicated: [] });
    expect(result.matched.map((entry) => entry.name)).toEqual(['report.pdf', REPORT_NAME, 'evidence.json']);
  });

  it('fails when one byte of a file changes', () => {
    const tampered = repack((files) => {
      const evidence = Buffer.from(files.get('evidence.json')!);
      evidence[evidence.indexOf('review')] = 'R'.charCodeAt(0);
      files.set('evidence.json', evidence);
    });
    const result = verifyBundle(tampered);
    expect(result.ok).toBe(false);
    expect(result.changed).toHaveLength(1);
    const [changed] = result.changed;
    expect(changed.name).toBe('evidence.json');
    expect(changed.actual.bytes).toBe(changed.expected.bytes);
    expect(changed.actual.sha256).not.toBe(changed.expected.sha256);
    expect(result.message).toBe('verification failed: 1 changed');
  });

  it('fails when one byte of the archive itself is flipped', () => {
    // The report PDF is stored uncompressed, so its bytes sit in the archive as they are.
    const tampered = Buffer.from(archive);
    const offset = tampered.indexOf('KYC check report');
    expect(offset).toBeGreaterThan(0);
    tampered[offset] ^= 0x01;
    const result = verifyBundle(tampered);
    expect(result.ok).toBe(false);
    expect(result.changed.map((entry) => entry.name)).toEqual([REPORT_NAME]);
  });

  it('fails when a file is removed', () => {
    const result = verifyBundle(repack((files) => files.delete(REPORT_NAME)));
    expect(result).toMatchObject({ ok: false, missing: [REPORT_NAME], changed: [], unlisted: [] });
  });

  it('fails when a file is added', () => {
    const result = verifyBundle(repack((files) => files.set('reports/extra.pdf', Buffer.from('%PDF-1.3 not ours'))));
    expect(result).toMatchObject({ ok: false, missing: [], changed: [], unlisted: ['reports/extra.pdf'] });
  });

  it('fails when a name is stored twice, since readers disagree on which copy they show', () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    const add = (name: string, bytes: Uint8Array) => {
      const file = new ZipPassThrough(name);
      zip.add(file);
      file.push(bytes, true);
    };
    for (const [name, bytes] of entries) add(name, bytes);
    add('evidence.json', Buffer.from('{"forged": true}'));
    zip.end();
    const result = verifyBundle(Buffer.concat(chunks));
    expect(result.ok).toBe(false);
    expect(result.duplicated).toEqual(['evidence.json']);
  });

  it('fails without a readable manifest', () => {
    expect(verifyBundle(repack((files) => files.delete('manifest.json')))).toMatchObject({
      ok: false,
      message: 'the archive has no manifest.json',
    });
    expect(verifyBundle(repack((files) => files.set('manifest.json', Buffer.from('{"files": [{"name": 1}]}')))).ok).toBe(false);
    expect(verifyBundle(Buffer.from('not a zip at all')).message).toMatch(/not a readable ZIP archive/);
  });
});

describe('runBundleVerify (kyx bundle verify FILE.zip)', () => {
  async function run(bytes: Buffer | null, json = false) {
    const path = join(workDir, `bundle-${Math.random().toString(36).slice(2)}.zip`);
    if (bytes) await writeFile(path, bytes);
    let output = '';
    const exitCode = await runBundleVerify(path, { json, write: (text) => (output += text) });
    return { exitCode, output };
  }

  it('exits 0 for an intact archive and says a matching manifest does not show who wrote it', async () => {
    const { exitCode, output } = await run(archive);
    expect(exitCode).toBe(0);
    expect(output).toContain(`OK         ${REPORT_NAME}`);
    expect(output).toContain('Result: OK, all 3 files listed in manifest.json match their size and SHA-256.');
    expect(output).toContain('it does not show who wrote the manifest or the files');
  });

  it('exits 1 and names each problem for a tampered archive', async () => {
    const tampered = repack((files) => {
      files.delete('evidence.json');
      files.set('notes.txt', Buffer.from('added later'));
    });
    const { exitCode, output } = await run(tampered);
    expect(exitCode).toBe(1);
    expect(output).toContain('MISSING    evidence.json');
    expect(output).toContain('UNLISTED   notes.txt');
    expect(output).toContain('Result: FAILED, verification failed: 1 missing, 1 unlisted.');
    expect(output).toContain('does not show who wrote');
  });

  it('answers JSON with --json, and exits 2 when the file cannot be read', async () => {
    const good = await run(archive, true);
    expect(JSON.parse(good.output)).toMatchObject({ ok: true, missing: [], changed: [], unlisted: [], note: expect.any(String) });
    const absent = await run(null);
    expect(absent.exitCode).toBe(2);
    expect(absent.output).toMatch(/cannot read .*ENOENT/);
  });
});
