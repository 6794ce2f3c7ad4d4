import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBundleArchive, validateIncludeTypes, type BundleInput, type Manifest } from '../../src/reports/index.ts';
import { pdfText } from '../helpers/pdf.ts';
import { unzipEntries } from '../helpers/zip.ts';
import { TENANT, catalogue, kindOf, kycRecord, metaFor } from './fixtures.ts';

const CHECK_ID = String(kycRecord.checkId);
const CREATED_AT = '2025-03-15T08:30:14.000Z';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function bundleInput(overrides: Partial<BundleInput> = {}): BundleInput {
  return {
    bundleId: 'bnd_3kL9mN2pQ8rS5tV7',
    regulatorRef: 'FCA/2025/0042 — Анна',
    check: { id: CHECK_ID, kind: kindOf('kyc'), tenant: TENANT, environment: 'sandbox', record: kycRecord },
    requestedTypes: ['RPT-001'],
    produce: (code: string) =>
      catalogue.render(code, kycRecord, metaFor(CHECK_ID, String(kycRecord.completedAt), 'sandbox')),
    createdAt: CREATED_AT,
    ...overrides,
  };
}

const originalTimeZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTimeZone;
});

describe('buildBundleArchive', () => {
  it('holds exactly the cover, the reports, evidence.json and manifest.json, every file matching the manifest', async () => {
    const entries = await unzipEntries(await buildBundleArchive(catalogue, bundleInput()));
    expect([...entries.keys()]).toEqual(['report.pdf', `reports/RPT-001-${CHECK_ID}.pdf`, 'evidence.json', 'manifest.json']);

    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
    expect(manifest.signature).toBeNull();
    expect(manifest.signatureAlgorithm).toBeNull();
    expect(manifest.integrity).toBe('sha256_hashes_only');
    expect(Object.keys(manifest).sort()).toEqual(['files', 'integrity', 'signature', 'signatureAlgorithm']);
    expect(manifest.files.map((file) => file.name)).toEqual([...entries.keys()].filter((name) => name !== 'manifest.json'));
    for (const file of manifest.files) {
      const bytes = entries.get(file.name)!;
      expect(file.bytes).toBe(bytes.length);
      expect(file.sha256).toBe(sha256(bytes));
    }
  });

  it('stores the record and what the archive really contains in evidence.json', async () => {
    const entries = await unzipEntries(await buildBundleArchive(catalogue, bundleInput()));
    const evidence = JSON.parse(entries.get('evidence.json')!.toString('utf8'));
    expect(evidence).toMatchObject({
      bundleId: 'bnd_3kL9mN2pQ8rS5tV7',
      regulatorRef: 'FCA/2025/0042 — Анна',
      checkId: CHECK_ID,
      checkKind: 'kyc',
      accountId: TENANT,
      environment: 'sandbox',
      createdAt: CREATED_AT,
      includeTypes: ['RPT-001'],
      unavailableReports: [],
    });
    expect(evidence.record).toEqual(kycRecord);
  });

  it('includes the same report the report path serves', async () => {
    const entries = await unzipEntries(await buildBundleArchive(catalogue, bundleInput()));
    const served = await catalogue.render('RPT-001', kycRecord, metaFor(CHECK_ID, String(kycRecord.completedAt), 'sandbox'));
    expect(entries.get(`reports/RPT-001-${CHECK_ID}.pdf`)!.equals(served)).toBe(true);
  });

  it('puts the regulator reference, the check and every file hash on the cover sheet', async () => {
    const entries = await unzipEntries(await buildBundleArchive(catalogue, bundleInput()));
    const cover = await pdfText(entries.get('report.pdf')!);
    expect(cover).toContain('RPT-016');
    expect(cover).toContain('FCA/2025/0042 — Анна');
    expect(cover).toContain('bnd_3kL9mN2pQ8rS5tV7');
    expect(cover).toContain(CHECK_ID);
    expect(cover).toContain('SANDBOX');
    for (const name of [`reports/RPT-001-${CHECK_ID}.pdf`, 'evidence.json']) {
      expect(cover).toContain(name);
      expect(cover).toContain(sha256(entries.get(name)!));
    }
    expect(cover).toMatch(/does\s+not\s+show\s+who\s+wrote\s+it/);
  });

  it('builds byte-identical archives from the same inputs, in any time zone', async () => {
    process.env.TZ = 'UTC';
    const first = await buildBundleArchive(catalogue, bundleInput());
    process.env.TZ = 'America/New_York';
    const second = await buildBundleArchive(catalogue, bundleInput());
    process.env.TZ = 'Asia/Kolkata';
    const third = await buildBundleArchive(catalogue, bundleInput());
    expect(second.equals(first)).toBe(true);
    expect(third.equals(first)).toBe(true);
    const later = await buildBundleArchive(catalogue, bundleInput({ createdAt: '2025-03-15T08:30:16.000Z' }));
    expect(later.equals(first)).toBe(false);
  });

  it('lists a produced type that this kind of check cannot have under unavailableReports, with no placeholder', async () => {
    const produced: string[] = [];
    const input = bundleInput({ requestedTypes: ['RPT-002', 'RPT-001', 'RPT-KYA'] });
    const entries = await unzipEntries(
      await buildBundleArchive(catalogue, { ...input, produce: (code, check) => (produced.push(code), input.produce(code, check)) }),
    );
    expect(produced).toEqual(['RPT-001']);
    expect([...entries.keys()]).toEqual(['report.pdf', `reports/RPT-001-${CHECK_ID}.pdf`, 'evidence.json', 'manifest.json']);
    const evidence = JSON.parse(entries.get('evidence.json')!.toString('utf8'));
    expect(evidence.includeTypes).toEqual(['RPT-001']);
    expect(evidence.unavailableReports).toEqual([
      { type: 'RPT-002', reason: expect.stringContaining(`${CHECK_ID} is a KYC check`) },
      { type: 'RPT-KYA', reason: expect.stringContaining('KYA verification') },
    ]);
    const cover = await pdfText(entries.get('report.pdf')!);
    expect(cover).toContain('RPT-002');
    expect(cover).toContain(`${CHECK_ID} is a KYC check`);
  });

  it('lists a report the producer could not make, with its reason', async () => {
    const entries = await unzipEntries(
      await buildBundleArchive(catalogue, bundleInput({ produce: () => ({ unavailable: 'the check record has been erased' }) })),
    );
    expect([...entries.keys()]).toEqual(['report.pdf', 'evidence.json', 'manifest.json']);
    const evidence = JSON.parse(entries.get('evidence.json')!.toString('utf8'));
    expect(evidence.includeTypes).toEqual([]);
    expect(evidence.unavailableReports).toEqual([{ type: 'RPT-001', reason: 'the check record has been erased' }]);
  });

  it('fails the build, rather than recording "unavailable", when producing a report throws', async () => {
    const input = bundleInput({
      produce: () => {
        throw new Error('database unavailable');
      },
    });
    await expect(buildBundleArchive(catalogue, input)).rejects.toThrow('database unavailable');
  });

  it('stamps every entry with the bundle time, in UTC', async () => {
    const yauzl = (await import('yauzl')).default;
    const zip = await buildBundleArchive(catalogue, bundleInput());
    const times = await new Promise<Date[]>((resolve, reject) => {
      yauzl.fromBuffer(zip, { lazyEntries: false }, (error, archive) => {
        if (error || !archive) return reject(error);
        const found: Date[] = [];
        archive.on('entry', (entry) => found.push(entry.getLastModDate({ timezone: 'UTC', forceDosFormat: true })));
        archive.on('end', () => resolve(found));
      });
    });
    expect(times).toHaveLength(4);
    for (const time of times) expect(time.toISOString()).toBe(CREATED_AT);
  });
});

describe('validateIncludeTypes', () => {
  it('defaults to the report type of the check kind', () => {
    expect(validateIncludeTypes(catalogue, undefined, [kindOf('kyc').report.code])).toEqual({ ok: true, types: ['RPT-001'] });
    expect(validateIncludeTypes(catalogue, undefined, [kindOf('kyb').report.code])).toEqual({ ok: true, types: ['RPT-002'] });
    expect(validateIncludeTypes(catalogue, undefined, [kindOf('aml').report.code])).toEqual({ ok: true, types: ['RPT-003'] });
    expect(validateIncludeTypes(catalogue, undefined, [kindOf('kya').report.code])).toEqual({ ok: true, types: ['RPT-KYA'] });
  });

  it('accepts every produced type, keeping order and dropping repeats', () => {
    expect(validateIncludeTypes(catalogue, ['RPT-003', 'RPT-001', 'RPT-003', 'RPT-KYA', 'RPT-002'], [kindOf('kyc').report.code])).toEqual({
      ok: true,
      types: ['RPT-003', 'RPT-001', 'RPT-KYA', 'RPT-002'],
    });
  });

  it('rejects planned codes, unknown codes, RPT-016 and non-strings with one reason per entry', () => {
    const result = validateIncludeTypes(catalogue, ['RPT-001', 'RPT-004', 'RPT-016', 'RPT-XYZ', 'rpt-001', 42, 'RPT-999'], [kindOf('kyc').report.code]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reasons.map((entry) => entry.type)).toEqual(['RPT-004', 'RPT-016', 'RPT-XYZ', 'rpt-001', '42', 'RPT-999']);
    const reasonFor = (type: string) => result.reasons.find((entry) => entry.type === type)!.reason;
    expect(reasonFor('RPT-004')).toMatch(/planned report type that the platform does not produce/);
    expect(reasonFor('RPT-999')).toMatch(/planned/);
    expect(reasonFor('RPT-016')).toMatch(/bundle itself/);
    expect(reasonFor('RPT-XYZ')).toMatch(/unknown report type; a bundle can include RPT-001, RPT-002, RPT-003, RPT-KYA/);
    expect(reasonFor('rpt-001')).toMatch(/case-sensitive \(did you mean RPT-001\?\)/);
    expect(reasonFor('42')).toMatch(/string/);
  });
});
