import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { directionRuns } from '../../src/reports/bidi.ts';
import {
  type JsonRecord,
} from '../../src/reports/index.ts';
import { pdfPageCount, pdfText } from '../helpers/pdf.ts';
import { TENANT, amlRecord, catalogue, kyaRecord, kybRecord, kycRecord, metaFor } from './fixtures.ts';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const renderKyc = (record: JsonRecord = kycRecord) =>
  catalogue.render('RPT-001', record, metaFor(String(record.checkId), String(record.completedAt), 'sandbox'));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('report codes', () => {
  it('separates produced, planned and unknown codes', () => {
    for (const code of ['RPT-001', 'RPT-002', 'RPT-003', 'RPT-KYA', 'RPT-016']) {
      expect(catalogue.isProduced(code)).toBe(true);
      expect(catalogue.isPlanned(code)).toBe(false);
    }
    for (const code of ['RPT-004', 'RPT-015', 'RPT-999', 'RPT-000']) {
      expect(catalogue.isProduced(code)).toBe(false);
      expect(catalogue.isPlanned(code)).toBe(true);
    }
    for (const code of ['RPT-01', 'RPT-0001', 'rpt-004', 'RPT-KYB', 'RPT-ABC', 'XYZ', '']) {
      expect(catalogue.isProduced(code)).toBe(false);
      expect(catalogue.isPlanned(code)).toBe(false);
    }
  });

  it('holds the report of every registered check kind', () => {
    expect(catalogue.includable).toEqual(['RPT-001', 'RPT-002', 'RPT-003', 'RPT-KYA']);
    expect(['RPT-001', 'RPT-002', 'RPT-003', 'RPT-KYA'].map((code) => catalogue.kindOfReport(code)?.idPrefix)).toEqual(['chk', 'kyb', 'aml', 'kya']);
    expect(catalogue.kindOfReport('RPT-016')).toBeNull();
    expect(catalogue.title('RPT-016')).toBe('Regulatory evidence bundle');
  });
});

describe('right-to-left runs', () => {
  it('keeps a right-to-left name, spaces included, in one run and leaves the rest left-to-right', () => {
    expect(directionRuns('Name: محمد بن سلمان (Mohammed)')).toEqual([
      { text: 'Name: ', rtl: false },
      { text: 'محمد بن سلمان', rtl: true },
      { text: ' (Mohammed)', rtl: false },
    ]);
    expect(directionRuns('Анна Кузнецова')).toEqual([{ text: 'Анна Кузнецова', rtl: false }]);
    expect(directionRuns('')).toEqual([]);
  });
});

describe('renderReport', () => {
  it('renders the same record to the same bytes, whatever was rendered before it', async () => {
    const first = await renderKyc();
    // Other reports in between exercise the shared font state; they must not leak into the next document.
    await catalogue.render('RPT-003', amlRecord, metaFor('aml_2xV7kP9mR4tQ8nLs', '2025-03-14T11:15:00.000Z'));
    await catalogue.render('RPT-002', kybRecord, metaFor('kyb_4hT8nW2qZr6yB1cX', '2025-03-14T10:00:00.000Z'));
    const second = await renderKyc();
    expect(second.equals(first)).toBe(true);
  });

  it('renders the same bytes in a fresh process', async () => {
    const here = await renderKyc();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/reports/render-once.ts'], {
      cwd: new URL('../..', import.meta.url).pathname,
    });
    expect(stdout.trim()).toBe(sha256(here));
  });

  it('fixes the document dates to the record timestamp and gives another record other bytes', async () => {
    const pdf = await renderKyc();
    const raw = pdf.toString('latin1');
    expect(raw.match(/\(D:\d{14}Z\)/g)).toEqual(['(D:20250314092653Z)', '(D:20250314092653Z)']);
    const other = await renderKyc({ ...kycRecord, checkId: 'chk_OTHER0000000000' });
    expect(other.equals(pdf)).toBe(false);
    const documentId = (bytes: Buffer) => bytes.toString('latin1').match(/\/ID \[<([0-9a-f]+)>/)?.[1];
    expect(documentId(other)).not.toBe(documentId(pdf));
  });

  it('prints the frame: code, title, tenant, record id, UTC time, version, sandbox banner, page numbers', async () => {
    const text = await pdfText(await renderKyc());
    expect(text).toContain('RPT-001 · KYC check report');
    expect(text).toContain(`Tenant: ${TENANT}`);
    expect(text).toContain('Record: chk_9fK2mQ7xLp3vT8wZ');
    expect(text).toContain('Environment: sandbox');
    expect(text).toContain('SANDBOX — test data, not a real verification');
    expect(text).toContain('Record time: 2025-03-14 09:26:53 UTC');
    expect(text).toContain(`kyx ${packageVersion}`);
    expect(text).toContain('Page 1 of 1');
  });

  it('marks only sandbox reports with the banner', async () => {
    const live = await pdfText(await catalogue.render('RPT-001', kycRecord, metaFor('chk_9fK2mQ7xLp3vT8wZ', '2025-03-14T09:26:53Z')));
    expect(live).toContain('Environment: live');
    expect(live).not.toContain('SANDBOX');
  });

  it('gives back Cyrillic, Greek, Arabic and Hebrew text when parsed by an independent reader', async () => {
    const kyc = await pdfText(await renderKyc());
    expect(kyc).toContain('chk_9fK2mQ7xLp3vT8wZ');
    expect(kyc).toContain('Анна');
    expect(kyc).toContain('Кузнецова');
    expect(kyc).toContain('similarity 0.61 below 0.70');

    const kyb = await pdfText(
      await catalogue.render('RPT-002', kybRecord, metaFor('kyb_4hT8nW2qZr6yB1cX', '2025-03-14T10:00:00.000Z')),
    );
    expect(kyb).toContain('kyb_4hT8nW2qZr6yB1cX');
    expect(kyb).toContain('Παπαδόπουλος Ναυτιλιακή Α.Ε.');
    expect(kyb).toContain('Γιώργος Παπαδόπουλος');

    const aml = await pdfText(
      await catalogue.render(
        'RPT-003',
        { ...amlRecord, note: 'Listed as: محمد بن سلمان (Mohammed); alias עמית כהן' },
        metaFor('aml_2xV7kP9mR4tQ8nLs', '2025-03-14T11:15:00.000Z'),
      ),
    );
    expect(aml).toContain('aml_2xV7kP9mR4tQ8nLs');
    // Logical order, words and spaces intact: the glyphs are shaped and laid out right to left.
    expect(aml).toContain('محمد بن سلمان');
    expect(aml).toContain('Listed as: محمد بن سلمان (Mohammed)');
    expect(aml).toContain('עמית כהן');
    expect(aml).toMatch(/Mohammed bin\s+Salman/);
    expect(aml).toContain('ofac_sdn');
  });

  it('lays out KYA verifications without the prompt or the certificate token', async () => {
    const text = await pdfText(
      await catalogue.render('RPT-KYA', kyaRecord, metaFor('kya_8mN3bV6cX1zL5kJh', '2025-03-14T12:00:00.000Z')),
    );
    expect(text).toContain('kya_8mN3bV6cX1zL5kJh');
    expect(text).toContain('passed_screening');
    expect(text).toContain('cert_5gH7jK9lM2nB4vC6');
    expect(text).toContain('Помощник');
    expect(text).toContain('c'.repeat(64));
    expect(text).not.toContain('SECRET PROMPT');
    expect(text).not.toContain('TOKEN-MUST-NOT-BE-PRINTED');
  });

  it('shows fields a producer does not know under "Other recorded fields"', async () => {
    const text = await pdfText(await renderKyc({ ...kycRecord, livenessProvider: 'in-house v2' }));
    expect(text).toContain('Other recorded fields');
    expect(text).toContain('Liveness provider');
    expect(text).toContain('in-house v2');
  });

  it('numbers every page "Page n of m" and repeats the frame on each', async () => {
    const checks = Array.from({ length: 150 }, (_, index) => ({
      name: `check_${index}`,
      result: 'passed',
      reasons: [`reason number ${index}`],
    }));
    const pdf = await renderKyc({ ...kycRecord, checks });
    const pages = await pdfPageCount(pdf);
    expect(pages).toBeGreaterThan(2);
    const text = await pdfText(pdf);
    for (let page = 1; page <= pages; page += 1) expect(text).toContain(`Page ${page} of ${pages}`);
    expect(text).not.toContain(`Page ${pages + 1} of`);
    expect(text.match(/SANDBOX — test data/g)).toHaveLength(pages);
    expect(text).toContain('check_0');
    expect(text).toContain('reason number 149');
    // The table header is repeated on every page the table spans.
    expect(text.match(/Check\s*Result\s*Reasons/g)!.length).toBeGreaterThan(1);
  });

  it('lets a cell taller than a page flow instead of being cut', async () => {
    const longReason = Array.from({ length: 900 }, (_, index) => `word${index}`).join(' ');
    const text = await pdfText(await renderKyc({ ...kycRecord, checks: [{ name: 'long', result: 'review', reasons: [longReason] }] }));
    expect(text).toContain('word0');
    expect(text).toContain('word899');
  });

  it('refuses a frame without a usable timestamp rather than stamping the current time', async () => {
    await expect(catalogue.render('RPT-001', kycRecord, metaFor('chk_x', 'not a date'))).rejects.toThrow(/recordedAt/);
  });
});
