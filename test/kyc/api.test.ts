// KYC through HTTP: the shipped specimen request, AML screening against a real list (BIS Denied Persons List,
// copied into a temporary KYX_LISTS_DIR), storage, pagination, meters, reuse, RPT-001 and every 400. One app and
// one warmed engine serve the whole file (the worker pool takes seconds to start).
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeTd3, renderPassport, SPECIMEN_HOLDER, type PassportHolder } from '../../scripts/make-kyc-specimen.ts';
import { THRESHOLDS } from '../../src/kyc/decision.ts';
import { SANDBOX_SCENARIOS } from '../../src/kyc/scenarios.ts';
import { openImage } from '../../src/kyc/images-at-rest.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { pdfText } from '../helpers/pdf.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHARED_LISTS = path.resolve(import.meta.dirname, '../../../shared/data/lists/current');
/** A person on the BIS Denied Persons List (us_dpl.txt), order in force until 2029. */
const LISTED = { firstName: 'Ali', lastName: 'Kourani' };

interface VerifyBody {
  documentType: string;
  documentImage: string;
  selfieImage: string;
  metadata: Record<string, string>;
  amlScreening?: boolean;
}

let t: TestApp;
let listsDir: string;
let specimen: VerifyBody;
let passportBytes: Buffer;
let selfieBytes: Buffer;
let sandbox: Tenant;
let live: Tenant;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function verify(tenant: Tenant, body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/v1/kyc/verify', headers: tenant.headers, payload: body as object });
}

async function verified(tenant: Tenant, body: unknown) {
  const response = await verify(tenant, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const get = (tenant: Tenant, url: string) => t.app.inject({ method: 'GET', url, headers: tenant.headers });
interface CheckEntry {
  name: string;
  result: string;
  reasons: string[];
}
const checkNamed = (body: { checks: CheckEntry[] }, name: string) => body.checks.find((check) => check.name === name);
const meters = async (tenant: Tenant) => (await get(tenant, '/api/v1/validate-key')).json().usage;

beforeAll(async () => {
  // The lists dir starts empty: the first cases run with no list loaded, then one is copied in and refreshed.
  listsDir = await mkdtemp(path.join(tmpdir(), 'kyx-kyc-lists-'));
  [t, specimen, passportBytes, selfieBytes] = await Promise.all([
    createTestApp({ env: { KYX_LISTS_DIR: listsDir } }),
    readFile(path.join(ROOT, 'examples/kyc/request.json'), 'utf8').then(JSON.parse),
    readFile(path.join(ROOT, 'examples/kyc/passport.jpg')),
    readFile(path.join(ROOT, 'examples/kyc/selfie.jpg')),
  ]);
  await Promise.all([t.context.services.aml.ready(), t.context.services.kyc.warmUp()]);
  sandbox = await t.tenant({ env: 'test' });
  live = await t.tenant({ env: 'live' });
});

afterAll(async () => {
  await t?.close();
  if (listsDir) await rm(listsDir, { recursive: true, force: true });
});

// Ordered even under --sequence.shuffle: the second stage loads a list into the app the first saw without one.
describe('the AML part of KYC, before and after a list is loaded', { shuffle: false }, () => {
  describe('with no sanctions list loaded', () => {
    it('sends the AML check to review, never passed, for the specimen', async () => {
      const body = await verified(sandbox, specimen);
      expect(body.status).toBe('review');
      expect(body.aml).toEqual({ screened: true, status: 'unavailable', matches: [] });
      expect(checkNamed(body, 'aml')).toEqual({ name: 'aml', result: 'review', reasons: ['aml_lists_unavailable'] });
      expect(checkNamed(body, 'document')?.result).toBe('passed');
    });
  });

  describe('with a list loaded', () => {
    beforeAll(async () => {
      await copyFile(path.join(SHARED_LISTS, 'us_dpl.txt'), path.join(listsDir, 'us_dpl.txt'));
      await t.context.services.aml.refresh();
      expect(t.context.services.aml.snapshot()).not.toBeNull();
    });

    it('passes the shipped specimen request with a test key and stores exactly what it answered', async () => {
      const body = await verified(sandbox, specimen);
      expect(body).toMatchObject({
        status: 'passed',
        riskLevel: 'low',
        environment: 'sandbox',
        documentType: 'passport',
        metadata: specimen.metadata,
        aml: { screened: true, status: 'clear', matches: [] },
        imageHashes: { document: sha256(passportBytes), selfie: sha256(selfieBytes) },
        document: {
          mrz: { valid: true, issuingState: 'SWE', documentNumber: 'XA4186275', lastName: 'ERIKSSON' },
          visualZone: { documentNumber: 'match', surname: 'match', givenNames: 'match', birthDate: 'match', expiryDate: 'match' },
        },
        sandboxScenario: null,
        reusedDocumentCheckIds: [],
      });
      expect(body.checkId).toMatch(/^chk_[0-9A-Za-z]{20,}$/);
      expect(body.reportUrl).toBe(`http://kyx.test/reports/RPT-001/${body.checkId}.pdf`);
      expect(body.score).toBeGreaterThanOrEqual(0.85);
      expect(body.score).toBeLessThanOrEqual(1);
      expect(body.face.similarity).toBeGreaterThanOrEqual(THRESHOLDS.faceMatchPass);
      expect(body.checks.map((c: { name: string; result: string }) => [c.name, c.result])).toEqual([
        ['document', 'passed'],
        ['selfie', 'passed'],
        ['face_match', 'passed'],
        ['aml', 'passed'],
      ]);
      expect(body.aml.listsVersion).toMatch(/^lv_/);
      expect(body.aml.lists).toEqual([expect.objectContaining({ name: 'us_dpl', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })]);
      expect(Date.parse(body.completedAt)).toBeGreaterThanOrEqual(Date.parse(body.createdAt));
      expect(body.completedAt).toMatch(/Z$/);

      const stored = await get(sandbox, `/api/v1/kyc/checks/${body.checkId}`);
      expect(stored.statusCode).toBe(200);
      expect(stored.json()).toEqual(body);
      expect(await t.context.checks.find(sandbox.accountId, body.checkId)).toMatchObject({ kind: 'kyc', environment: 'sandbox', record: body });
    });

    it('reads plain base64 and a Cyrillic holder name, and RPT-001 prints the check with the name', async () => {
      const body = await verified(sandbox, {
        ...specimen,
        documentImage: passportBytes.toString('base64'),
        selfieImage: selfieBytes.toString('base64'),
        metadata: { firstName: 'Анна Мария', lastName: 'Эрикссон', reference: 'cust-ru-1' },
      });
      // Sandbox checks are not compared for reuse: the specimen passes however often a tenant sends it.
      expect(body).toMatchObject({ status: 'passed', reusedDocumentCheckIds: [] });

      const report = await get(sandbox, `/reports/RPT-001/${body.checkId}.pdf`);
      expect(report.statusCode).toBe(200);
      expect(report.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(report.rawPayload);
      for (const value of [body.checkId, 'Эрикссон', 'Анна Мария', 'XA4186275', 'Face-match score', 'us_dpl']) expect(text).toContain(value);
      // Hashes may wrap inside a table cell.
      const unwrapped = text.replace(/\s+/g, '');
      for (const hash of [body.imageHashes.document, body.imageHashes.selfie, body.aml.lists[0].sha256]) expect(unwrapped).toContain(hash);
      expect(text).toMatch(/SANDBOX/);
      const again = await get(sandbox, `/reports/RPT-001/${body.checkId}.pdf`);
      expect(again.rawPayload.equals(report.rawPayload)).toBe(true);
    });

    it('does not screen the name when amlScreening is false', async () => {
      const body = await verified(sandbox, { ...specimen, amlScreening: false, metadata: LISTED });
      expect(body.aml).toEqual({ screened: false, matches: [] });
      expect(checkNamed(body, 'aml')).toBeUndefined();
    });

    it('never passes a listed name with a test key: AML review, riskLevel high', async () => {
      const body = await verified(sandbox, { ...specimen, metadata: LISTED });
      expect(body.status).not.toBe('passed');
      expect(body.riskLevel).toBe('high');
      expect(body.aml.status).toBe('potential_match');
      expect(body.aml.matches[0]).toMatchObject({ matchedName: 'ALI KOURANI', lists: ['us_dpl'] });
      expect(checkNamed(body, 'aml')).toEqual({ name: 'aml', result: 'review', reasons: ['aml_potential_match'] });
    });

    it('fails the shipped specimen with a live key: a specimen document never passes live', async () => {
      const body = await verified(live, specimen);
      expect(body).toMatchObject({ environment: 'live', status: 'failed', riskLevel: 'high', aml: { status: 'clear' } });
      expect(checkNamed(body, 'document')).toEqual({ name: 'document', result: 'failed', reasons: ['specimen_document'] });
    });

    it('never passes a listed name with a live key, bills it, and flags the same document sent again by the tenant', async () => {
      const first = await verified(live, { ...specimen, metadata: LISTED });
      expect(first).toMatchObject({ environment: 'live', riskLevel: 'high', aml: { status: 'potential_match' } });
      expect(first.status).not.toBe('passed');
      expect(checkNamed(first, 'aml')?.reasons).toEqual(['aml_potential_match']);

      // Re-encoded and scaled: the perceptual hash still recognises the document (and it is still the specimen).
      const recompressed = await sharp(passportBytes).resize(1100).jpeg({ quality: 70 }).toBuffer();
      const second = await verified(live, { ...specimen, documentImage: recompressed.toString('base64') });
      expect(second.reusedDocumentCheckIds).toEqual(expect.arrayContaining([first.checkId]));
      expect(checkNamed(second, 'document')?.reasons).toEqual(['document_image_reused', 'specimen_document']);
      expect(second.status).toBe('failed');
      expect(second.riskLevel).toBe('high');

      expect(await meters(live)).toMatchObject({ kycChecks: 3 });
      expect(await meters(sandbox)).toMatchObject({ kycChecks: 0 });
    });

    it('applies a sandbox scenario named in metadata.reference and lists the KYC catalogue', async () => {
      const scenario = await verified(sandbox, { ...specimen, metadata: { ...specimen.metadata, reference: 'kyx_sandbox_face_mismatch:order-7' } });
      expect(scenario).toMatchObject({ status: 'failed', sandboxScenario: 'kyx_sandbox_face_mismatch' });
      expect(checkNamed(scenario, 'face_match')).toEqual({ name: 'face_match', result: 'failed', reasons: ['face_mismatch'] });

      const catalogue = (await get(sandbox, '/api/v1/sandbox/scenarios')).json();
      expect(catalogue.kyc.map((s: { reference: string }) => s.reference)).toEqual(SANDBOX_SCENARIOS.map((s) => s.reference));
    });
  });
});

describe('the visual zone against the MRZ', () => {
  const pageJpeg = async (holder: PassportHolder) =>
    (await sharp(await renderPassport({ holder, mrz: composeTd3(SPECIMEN_HOLDER) })).jpeg({ quality: 90 }).toBuffer()).toString('base64');

  it('sends a page whose printed document number is not the MRZ’s to review, high risk, and RPT-001 says why', async () => {
    const body = await verified(sandbox, { ...specimen, documentImage: await pageJpeg({ ...SPECIMEN_HOLDER, documentNumber: 'XA4816395' }) });
    expect(body.document).toMatchObject({ mrz: { valid: true, documentNumber: 'XA4186275' }, visualZone: { documentNumber: 'mismatch', surname: 'match' } });
    expect(body.status).not.toBe('passed');
    expect(body.riskLevel).toBe('high');
    expect(checkNamed(body, 'document')).toEqual({ name: 'document', result: 'review', reasons: ['visual_zone_mismatch:documentNumber'] });
    const text = await pdfText((await get(sandbox, `/reports/RPT-001/${body.checkId}.pdf`)).rawPayload);
    expect(text.replace(/\s+/g, '')).toContain('visual_zone_mismatch:documentNumber');
  });

  it('passes a page whose printed fields cannot be read: unread is never a failure', async () => {
    // The field column smeared beyond reading; the portrait and the MRZ stay sharp.
    const page = await renderPassport();
    const smeared = await sharp(page).extract({ left: 420, top: 110, width: 800, height: 500 }).blur(12).toBuffer();
    const documentImage = (await sharp(page).composite([{ input: smeared, left: 420, top: 110 }]).jpeg({ quality: 90 }).toBuffer()).toString('base64');
    const body = await verified(sandbox, { ...specimen, documentImage });
    expect(body.document.mrz.valid).toBe(true);
    expect(Object.values(body.document.visualZone)).not.toContain('mismatch');
    expect(Object.values(body.document.visualZone)).toContain('unread');
    expect(checkNamed(body, 'document')).toEqual({ name: 'document', result: 'passed', reasons: [] });
  });
});

describe('listing checks', () => {
  it('pages through the tenant’s checks newest first with an opaque cursor', async () => {
    // a tenant of its own with six sandbox checks, whatever the file's other tests made
    const lister = await t.tenant({ env: 'test' });
    for (let made = 0; made < 6; made++) await verified(lister, specimen);
    const seen: { checkId: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(lister, `/api/v1/kyc/checks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(cursor).toBeNull();
    // three pages of two
    expect(seen).toHaveLength(6);
    expect(pages).toBe(3);
    expect(new Set(seen.map((c) => c.checkId)).size).toBe(6);
    const times = seen.map((c) => c.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    const all = (await get(lister, '/api/v1/kyc/checks')).json();
    expect(all.data.map((c: { checkId: string }) => c.checkId)).toEqual(seen.map((c) => c.checkId));
    expect(all.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not issue and a limit out of range', async () => {
    expect(errorBody(await get(sandbox, '/api/v1/kyc/checks?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request').errors).toEqual([
      { path: 'querystring/cursor', message: expect.any(String) },
    ]);
    errorBody(await get(sandbox, '/api/v1/kyc/checks?limit=0'), 400, 'invalid_request');
    expect(errorBody(await get(sandbox, '/api/v1/kyc/checks?limit=101'), 400, 'invalid_request').errors[0].path).toBe('querystring/limit');
  });
});

describe('requests that are not checked (400 naming the field)', () => {
  const notAnImage = Buffer.from('%PDF-1.4 this is not an image at all, only text bytes').toString('base64');

  async function fieldErrors(body: unknown): Promise<string[]> {
    const error = errorBody(await verify(sandbox, body), 400, 'invalid_request');
    return error.errors.map((e: { path: string }) => e.path);
  }

  it('names the image that is not base64 or not an image, or both', async () => {
    expect(await fieldErrors({ ...specimen, documentImage: 'not base64 at all!' })).toEqual(['body/documentImage']);
    expect(await fieldErrors({ ...specimen, selfieImage: notAnImage })).toEqual(['body/selfieImage']);
    expect(await fieldErrors({ ...specimen, documentImage: `data:image/png;base64,${notAnImage}`, selfieImage: 'QUJD' })).toEqual([
      'body/documentImage',
      'body/selfieImage',
    ]);
  });

  it('refuses a truncated JPEG and a decompression bomb', async () => {
    const truncated = passportBytes.subarray(0, Math.floor(passportBytes.length / 2)).toString('base64');
    expect(await fieldErrors({ ...specimen, documentImage: truncated })).toEqual(['body/documentImage']);
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#808080' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(await fieldErrors({ ...specimen, selfieImage: bomb.toString('base64') })).toEqual(['body/selfieImage']);
  });

  it('refuses an image string longer than the limit before decoding it', async () => {
    expect(await fieldErrors({ ...specimen, documentImage: 'A'.repeat(14_500_000) })).toEqual(['body/documentImage']);
  });

  it('refuses an unknown documentType, missing fields and unknown fields', async () => {
    expect(await fieldErrors({ ...specimen, documentType: 'library_card' })).toContain('body/documentType');
    const { selfieImage: _selfie, ...noSelfie } = specimen;
    expect(await fieldErrors(noSelfie)).toEqual(['body/selfieImage']);
    expect(await fieldErrors({ ...specimen, metadata: { lastName: 'Eriksson' } })).toEqual(['body/metadata/firstName']);
    const { metadata: _metadata, ...noMetadata } = specimen;
    expect(await fieldErrors(noMetadata)).toEqual(['body/metadata']);
    expect(await fieldErrors({ ...specimen, amlScreening: 'no' })).toEqual(['body/amlScreening']);
    expect(await fieldErrors({ ...specimen, callbackUrl: 'https://example.test' })).toEqual(['body/callbackUrl']);
  });

  it('stores nothing for a refused request', async () => {
    const fresh = await t.tenant({ env: 'live' });
    await verify(fresh, { ...specimen, selfieImage: notAnImage });
    expect((await get(fresh, '/api/v1/kyc/checks')).json()).toEqual({ data: [], nextCursor: null });
    expect(await meters(fresh)).toMatchObject({ kycChecks: 0 });
  });
});

describe('tenant isolation and permissions', () => {
  it("answers 404 for another tenant's check, its report, and leaves it out of their list", async () => {
    const mine = await verified(sandbox, specimen);
    const other = await t.tenant({ env: 'test' });
    errorBody(await get(other, `/api/v1/kyc/checks/${mine.checkId}`), 404, 'not_found');
    errorBody(await get(other, `/reports/RPT-001/${mine.checkId}.pdf`), 404, 'not_found');
    expect(await t.context.checks.find(other.accountId, mine.checkId)).toBeUndefined();
    expect((await get(other, '/api/v1/kyc/checks')).json()).toEqual({ data: [], nextCursor: null });
    errorBody(await get(other, '/api/v1/kyc/checks/chk_doesnotexist'), 404, 'not_found');
  });

  it('needs kyc:write to verify and kyc:read to read', async () => {
    const reader = await t.tenant({ env: 'test', scopes: ['kyc:read'] });
    const writer = await t.tenant({ env: 'test', scopes: ['kyc:write'] });
    errorBody(await verify(reader, specimen), 403, 'forbidden');
    errorBody(await get(writer, '/api/v1/kyc/checks'), 403, 'forbidden');
    errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/kyc/verify', payload: specimen as object }), 401, 'unauthorized');
  });
});

describe('KYX_KEEP_IMAGES', () => {
  it('refuses to start without a 32-byte KYX_IMAGE_KEY', async () => {
    await expect(createTestApp({ env: { KYX_KEEP_IMAGES: '1' } })).rejects.toThrow(/KYX_IMAGE_KEY/);
    await expect(createTestApp({ env: { KYX_KEEP_IMAGES: '1', KYX_IMAGE_KEY: 'c2hvcnQ=' } })).rejects.toThrow(/KYX_IMAGE_KEY/);
  });

  it('keeps both images encrypted with AES-256-GCM, bound to their check', async () => {
    const key = randomBytes(32);
    const kept = await createTestApp({ env: { KYX_KEEP_IMAGES: 'true', KYX_IMAGE_KEY: key.toString('hex'), KYX_KYC_WORKERS: '1' } });
    try {
      const tenant = await kept.tenant({ env: 'test' });
      const response = await kept.app.inject({ method: 'POST', url: '/api/v1/kyc/verify', headers: tenant.headers, payload: { ...specimen, amlScreening: false } });
      expect(response.statusCode).toBe(200);
      const { checkId } = response.json();
      const rows = await kept.context.storage.db.selectFrom('kyc_images').selectAll().where('check_id', '=', checkId).orderBy('field').execute();
      expect(rows.map((row) => row.field)).toEqual(['documentImage', 'selfieImage']);
      const [document, selfie] = rows;
      expect(Buffer.from(document.ciphertext).includes(passportBytes.subarray(0, 64))).toBe(false);
      expect(openImage(key, checkId, 'documentImage', document).equals(passportBytes)).toBe(true);
      expect(openImage(key, checkId, 'selfieImage', selfie).equals(selfieBytes)).toBe(true);
      expect(() => openImage(key, checkId, 'selfieImage', document)).toThrow();
      expect(() => openImage(randomBytes(32), checkId, 'documentImage', document)).toThrow();
    } finally {
      await kept.close();
    }
    // Without the flag nothing of the images but their hashes is stored.
    expect(await t.context.storage.db.selectFrom('kyc_images').selectAll().execute()).toEqual([]);
  });
});
