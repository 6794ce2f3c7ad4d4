// The engine end to end on real images: one warmed engine (two workers) shared by every case, cases run
// concurrently. Each failure image changes one thing about the passing specimen.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeTd3, ROOT, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import { createKycEngine, type KycEngine } from '../../src/kyc/engine.ts';
import { decideKyc, THRESHOLDS, type AmlOutcome, type KycDecision } from '../../src/kyc/decision.ts';
import { decodeImage } from '../../src/kyc/intake.ts';
import type { DocumentType, KycMetadata, KycSignals } from '../../src/kyc/types.ts';
import {
  identityCard,
  jpeg,
  letterboxed,
  letterPage,
  licenceCard,
  noFacePicture,
  otherPersonSelfie,
  portrait,
  renderPassport,
  twoFacesPicture,
  withGlare,
} from './images.ts';

const CLEAR: AmlOutcome = { screened: true, status: 'clear', matches: [] };
const HOLDER_NAME = { firstName: 'Anna Maria', lastName: 'Eriksson' };

let engine: KycEngine;
let specimenPassport: Buffer;
let specimenSelfie: Buffer;

beforeAll(async () => {
  [engine, specimenPassport, specimenSelfie] = await Promise.all([
    createKycEngine({ workers: 2 }),
    readFile(path.join(ROOT, 'examples/kyc/passport.jpg')),
    readFile(path.join(ROOT, 'examples/kyc/selfie.jpg')),
  ]);
});
afterAll(async () => {
  await engine?.close();
});

interface Case {
  /** Bytes or the base64 the API receives. */
  document?: Buffer | string;
  selfie?: Buffer | string;
  documentType?: DocumentType;
  metadata?: KycMetadata;
}

async function verify(c: Case): Promise<{ signals: KycSignals; decision: KycDecision }> {
  const [document, selfie] = await Promise.all([
    decodeImage('documentImage', c.document ?? specimenPassport),
    decodeImage('selfieImage', c.selfie ?? specimenSelfie),
  ]);
  const signals = await engine.analyse({
    documentType: c.documentType ?? 'passport',
    document,
    selfie,
    metadata: c.metadata ?? HOLDER_NAME,
    now: new Date().toISOString(),
  });
  return { signals, decision: decideKyc({ signals, aml: CLEAR, environment: 'sandbox' }) };
}

function check(decision: KycDecision, name: string) {
  const found = decision.checks.find((c) => c.name === name);
  expect(found, `check ${name}`).toBeDefined();
  return found!;
}

describe.concurrent('KYC engine on real images', () => {
  it('passes the shipped specimen request (examples/kyc/request.json)', async () => {
    const request = JSON.parse(await readFile(path.join(ROOT, 'examples/kyc/request.json'), 'utf8'));
    const { signals, decision } = await verify({
      document: request.documentImage,
      selfie: request.selfieImage,
      documentType: request.documentType,
      metadata: request.metadata,
    });
    expect(decision.checks.map((c) => [c.name, c.result, c.reasons])).toEqual([
      ['document', 'passed', []],
      ['selfie', 'passed', []],
      ['face_match', 'passed', []],
      ['aml', 'passed', []],
    ]);
    expect(decision).toMatchObject({ status: 'passed', riskLevel: 'low' });
    expect(decision.score).toBeGreaterThanOrEqual(0.85);
    expect(signals.documentReading.mrz).toMatchObject({ valid: true, issuingState: 'SWE', documentNumber: SPECIMEN_HOLDER.documentNumber });
    // Round 27: the page prints the number and dates the MRZ reads, read confidently.
    expect(signals.documentReading.confirmedInPrint).toEqual(['documentNumber', 'birthDate', 'expiryDate']);
    expect(signals.face.similarity).toBeGreaterThanOrEqual(THRESHOLDS.faceMatchPass);
    expect(signals.document.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('knows the shipped specimen for one: by its number, its image and the word SPECIMEN on the page; a live key fails it', async () => {
    const { signals } = await verify({});
    expect(signals.documentReading.specimenMarks).toEqual(['specimen_document_number', 'specimen_image', 'specimen_word']);
    const live = decideKyc({ signals, aml: CLEAR, environment: 'live' });
    expect(live).toMatchObject({ status: 'failed', riskLevel: 'high' });
    expect(check(live, 'document')).toEqual({ name: 'document', result: 'failed', reasons: ['specimen_document'] });
  });

  it('reads an ICAO specimen state and the word SPECIMEN on a page it has never seen', async () => {
    const utopia = { ...SPECIMEN_HOLDER, issuingState: 'UTO', nationality: 'UTO', documentNumber: 'AB1234567' };
    const { signals } = await verify({ document: await jpeg(await renderPassport({ holder: utopia, portrait: await portrait() })) });
    expect(signals.documentReading.mrz?.lines[0]).toMatch(/^P<UTOERIKSSON/);
    expect(signals.documentReading.specimenMarks).toEqual(expect.arrayContaining(['specimen_state', 'specimen_word']));
    expect(signals.documentReading.specimenMarks).not.toContain('specimen_document_number');
  });

  it('passes with the holder name written in Cyrillic', async () => {
    const { decision } = await verify({ metadata: { firstName: 'Анна Мария', lastName: 'Эрикссон' } });
    expect(decision.status).toBe('passed');
  });

  it('fails a blank selfie', async () => {
    const blank = await sharp({ create: { width: 600, height: 750, channels: 3, background: '#9a9a9a' } }).jpeg().toBuffer();
    const { decision } = await verify({ selfie: blank });
    expect(decision.status).toBe('failed');
    expect(check(decision, 'selfie')).toMatchObject({ result: 'failed', reasons: expect.arrayContaining(['image_blank']) });
  });

  it('fails a 4×4 document image', async () => {
    const tiny = await sharp(specimenPassport).resize(4, 4).png().toBuffer();
    const { decision } = await verify({ document: tiny });
    expect(decision.status).toBe('failed');
    expect(check(decision, 'document')).toMatchObject({ result: 'failed', reasons: expect.arrayContaining(['image_too_small']) });
  });

  it('fails a blurred document', async () => {
    const blurred = await sharp(specimenPassport).blur(5).jpeg().toBuffer();
    const { decision } = await verify({ document: blurred });
    expect(decision.status).toBe('failed');
    expect(check(decision, 'document').reasons).toContain('image_blurred');
  });

  it('sends a document with glare to review', async () => {
    const { decision } = await verify({ document: await withGlare(await renderPassport({ portrait: await portrait() })) });
    expect(decision.status).not.toBe('passed');
    expect(check(decision, 'document').reasons).toContain('image_glare');
  });

  it('fails a wrong MRZ check digit', async () => {
    const [line1, line2] = composeTd3(SPECIMEN_HOLDER);
    const wrongDigit = `${line2.slice(0, 9)}${(Number(line2[9]) + 3) % 10}${line2.slice(10)}`;
    const { decision, signals } = await verify({ document: await jpeg(await renderPassport({ mrz: [line1, wrongDigit] })) });
    expect(signals.documentReading.mrz?.valid).toBe(false);
    expect(decision.status).toBe('failed');
    expect(check(decision, 'document').reasons).toContain('mrz_check_digit_invalid:documentNumberCheckDigit');
  });

  it('fails an expired passport', async () => {
    const expired = { ...SPECIMEN_HOLDER, expiryDate: '240315' };
    const { decision, signals } = await verify({ document: await jpeg(await renderPassport({ holder: expired })) });
    expect(signals.documentReading.mrz).toMatchObject({ valid: true, expiryDate: '2024-03-15' });
    expect(decision.status).toBe('failed');
    expect(check(decision, 'document').reasons).toEqual(['document_expired']);
  });

  it('fails when metadata names someone else', async () => {
    const { decision, signals } = await verify({ metadata: { firstName: 'John', lastName: 'Smith' } });
    // The workers have analysed documents before (liveness models off for them): still on for the selfie.
    expect(signals.face.selfieReal).not.toBeNull();
    expect(signals.face.selfieLive).not.toBeNull();
    expect(decision.status).toBe('failed');
    expect(check(decision, 'document').reasons).toEqual(['name_mismatch']);
    expect(decision.riskLevel).toBe('high');
  });

  it('fails a selfie with two faces', async () => {
    const { decision, signals } = await verify({ selfie: await twoFacesPicture() });
    expect(signals.face.selfieFaces).toBe(2);
    expect(decision.status).toBe('failed');
    expect(check(decision, 'selfie').reasons).toContain('multiple_faces');
  });

  it('fails a selfie without a face', async () => {
    const { decision, signals } = await verify({ selfie: await noFacePicture() });
    expect(signals.face.selfieFaces).toBe(0);
    expect(check(decision, 'selfie')).toMatchObject({ result: 'failed', reasons: ['no_face_detected'] });
    expect(check(decision, 'face_match').result).toBe('failed');
  });

  it('fails a selfie of a different person', async () => {
    const { decision, signals } = await verify({ selfie: await otherPersonSelfie() });
    expect(signals.face.selfieFaces).toBe(1);
    expect(signals.face.similarity).toBeLessThan(THRESHOLDS.faceMatchReview);
    expect(decision.status).toBe('failed');
    expect(check(decision, 'face_match').reasons).toEqual(['face_mismatch']);
  });

  it('judges the light of a letterboxed 16:9 selfie on the face, not on the black bars', async () => {
    const { decision, signals } = await verify({ selfie: await letterboxed(specimenSelfie, 1600, 900) });
    expect(signals.selfie.quality).toMatchObject({ region: 'face' });
    expect(signals.selfie.quality.meanLuma).toBeGreaterThan(100);
    expect(check(decision, 'selfie').reasons).not.toContain('image_too_dark');
    expect(decision.status).toBe('passed');
  });

  it('matches tall phone selfies (704×1600, aspect 2.6) against the document', async () => {
    const [tall, taller] = await Promise.all([
      verify({ selfie: await letterboxed(specimenSelfie, 704, 1600) }),
      verify({ selfie: await letterboxed(specimenSelfie, 600, 1560) }),
    ]);
    for (const { decision, signals } of [tall, taller]) {
      expect(signals.face.selfieFaces).toBe(1);
      expect(signals.face.similarity).toBeGreaterThanOrEqual(THRESHOLDS.faceMatchPass);
      expect(check(decision, 'face_match')).toMatchObject({ result: 'passed', reasons: [] });
    }
  });

  it('asks for a closer selfie when the face is a few dozen pixels wide', async () => {
    const far = await sharp(await sharp(specimenSelfie).resize(120).toBuffer())
      .extend({ top: 300, bottom: 300, left: 300, right: 300, background: '#6a7a8a' })
      .jpeg({ quality: 95 })
      .toBuffer();
    const { decision, signals } = await verify({ selfie: far });
    expect(signals.selfie.quality.faceWidth).toBeLessThan(80);
    expect(check(decision, 'selfie')).toMatchObject({ result: 'failed', reasons: ['face_too_small'] });
  });

  it('fails a selfie whose face is too dark, even in a bright frame', async () => {
    const darkFace = await sharp(specimenSelfie).modulate({ brightness: 0.25 }).toBuffer();
    const framed = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#f0f0f0' } })
      .composite([{ input: darkFace, left: 200, top: 125 }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const { decision, signals } = await verify({ selfie: framed });
    expect(signals.selfie.quality.region).toBe('face');
    expect(check(decision, 'selfie').reasons).toContain('image_too_dark');
  });

  it('reads the TD1 MRZ of an identity card', async () => {
    const { decision, signals } = await verify({ documentType: 'national_id', document: await identityCard(SPECIMEN_HOLDER) });
    expect(signals.documentReading.mrz).toMatchObject({ format: 'TD1', valid: true, documentCode: 'I', expiryDate: '2034-03-15' });
    expect(decision.status).toBe('passed');
  });

  it('reads a passport photographed upside down, and one photographed tilted', async () => {
    const upsideDown = await verify({ document: await sharp(specimenPassport).rotate(180).jpeg().toBuffer() });
    expect(upsideDown.signals.documentReading.mrz).toMatchObject({ valid: true, documentNumber: SPECIMEN_HOLDER.documentNumber });
    expect(check(upsideDown.decision, 'document').result).toBe('passed');
    const tilted = await sharp(specimenPassport).rotate(4, { background: '#5b4a3a' }).jpeg().toBuffer();
    expect((await verify({ document: tilted })).signals.documentReading.mrz).toMatchObject({ valid: true, lastName: 'ERIKSSON' });
  });

  it('reads a small passport photo instead of refusing it', async () => {
    const small = await sharp(specimenPassport).resize({ width: 520 }).jpeg({ quality: 85 }).toBuffer();
    const { decision, signals } = await verify({ document: small });
    expect(signals.document.quality.shortSide).toBeLessThan(400);
    expect(signals.documentReading.mrz?.valid).toBe(true);
    expect(check(decision, 'document').reasons).not.toContain('image_too_small');
  });

  it('reads a driving licence without MRZ from its printed text', async () => {
    const card = await licenceCard('ERIKSSON', 'ANNA MARIA');
    const passes = await verify({ documentType: 'driving_licence', document: card });
    expect(passes.signals.documentReading.mrz).toBeNull();
    expect(passes.signals.documentReading.text?.nameScore).toBeGreaterThanOrEqual(0.85);
    expect(passes.decision.status).toBe('passed');
    const other = await verify({ documentType: 'driving_licence', document: card, metadata: { firstName: 'John', lastName: 'Smith' } });
    expect(check(other.decision, 'document').reasons).toContain('name_mismatch');
  });

  it('accepts a recent proof of address and refuses an old one', async () => {
    const letter = (issued: Date) =>
      letterPage([
        { text: 'NORDIC ENERGY AB', bold: true },
        { text: `Invoice date: ${issued.toISOString().slice(0, 10)}` },
        { text: 'Anna Maria Eriksson' },
        { text: 'Storgatan 12' },
        { text: '114 55 Stockholm' },
        { text: 'Electricity supply, monthly statement' },
        { text: 'Amount due: 482.50 SEK' },
      ]);
    const day = 86_400_000;
    const recent = await verify({ documentType: 'proof_of_address', document: await letter(new Date(Date.now() - 20 * day)) });
    expect(recent.decision.checks.map((c) => c.name)).not.toContain('face_match');
    expect(check(recent.decision, 'document')).toMatchObject({ result: 'passed', reasons: [] });
    expect(recent.signals.documentReading.text?.address).toBe('Storgatan 12');
    const old = await verify({ documentType: 'proof_of_address', document: await letter(new Date(Date.now() - 200 * day)) });
    expect(old.decision.status).toBe('failed');
    expect(check(old.decision, 'document').reasons).toEqual(['document_older_than_3_months']);
  });

  it('gives the same perceptual hash to a re-encoded document and a different one to another document', async () => {
    const { differenceHash, hammingDistance, SAME_IMAGE_MAX_DISTANCE } = await import('../../src/kyc/hash.ts');
    const original = await decodeImage('documentImage', specimenPassport);
    const recompressed = await decodeImage('documentImage', await sharp(specimenPassport).resize(1000).jpeg({ quality: 60 }).toBuffer());
    const other = await decodeImage('documentImage', await letterPage([{ text: 'Something else entirely', bold: true }]));
    const hash = differenceHash(original.pixels);
    expect(hammingDistance(hash, differenceHash(recompressed.pixels))).toBeLessThanOrEqual(SAME_IMAGE_MAX_DISTANCE);
    expect(hammingDistance(hash, differenceHash(other.pixels))).toBeGreaterThan(SAME_IMAGE_MAX_DISTANCE);
  });
});

describe('KYC engine lifecycle', () => {
  it('finishes the check in progress on close, then refuses new ones', async () => {
    const own = await createKycEngine({ workers: 1 });
    const [document, selfie] = await Promise.all([decodeImage('documentImage', specimenPassport), decodeImage('selfieImage', specimenSelfie)]);
    const input = { documentType: 'passport' as const, document, selfie, metadata: HOLDER_NAME, now: new Date().toISOString() };
    const inProgress = own.analyse(input);
    await own.close();
    expect((await inProgress).documentReading.mrz?.valid).toBe(true);
    await expect(own.analyse(input)).rejects.toThrow(/closed/);
  });
});
