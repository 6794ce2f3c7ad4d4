import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/make-kyc-specimen.ts';
import { differenceHash } from '../../src/kyc/hash.ts';
import { decodeImage } from '../../src/kyc/intake.ts';
import type { MrzReading } from '../../src/kyc/mrz.ts';
import { SPECIMEN_IMAGE_HASHES, specimenMarks } from '../../src/kyc/specimen.ts';

const READING: MrzReading = {
  format: 'TD3',
  lines: ['P<SWELINDQVIST<<KARIN<<<<<<<<<<<<<<<<<<<<<<<', 'XB90317424SWE8102034F3105066<<<<<<<<<<<<<<<0'],
  valid: true,
  invalidFields: [],
  documentCode: 'P',
  issuingState: 'SWE',
  documentNumber: 'XB9031742',
  nationality: 'SWE',
  lastName: 'LINDQVIST',
  firstName: 'KARIN',
  birthDate: '1981-02-03',
  expiryDate: '2031-05-06',
  sex: 'female',
  personalNumber: '',
  corrections: [],
  checkDigitRepairs: [],
  stateRepairs: [],
  uncertainCharacters: [],
  specimen: false,
};
/** A hash far (62 bits) from the shipped specimen's. */
const OTHER_IMAGE = '65ab7b7b7a1d5f3d';
const clean = { mrz: READING, texts: ['PASSPORT PASS SVERIGE', 'P<SWELINDQVIST<<KARIN'], perceptualHash: OTHER_IMAGE };

describe('specimen marks', () => {
  it('finds none on an ordinary document', () => {
    expect(specimenMarks(clean)).toEqual([]);
    expect(specimenMarks({ mrz: null, texts: [], perceptualHash: OTHER_IMAGE })).toEqual([]);
  });

  it('knows a reading of the ICAO specimen state (the parser marks UTO as issuing state or nationality)', () => {
    expect(specimenMarks({ ...clean, mrz: { ...READING, issuingState: 'UTO', specimen: true } })).toEqual(['specimen_state']);
  });

  it('knows the document numbers of published specimens, with or without filler', () => {
    for (const documentNumber of ['L898902C3', 'XA4186275', 'SPECI2014', 'D23145890<']) {
      expect(specimenMarks({ ...clean, mrz: { ...READING, documentNumber } })).toEqual(['specimen_document_number']);
    }
  });

  it('knows the shipped specimen image, also re-encoded (a few bits off)', () => {
    const nearby = (parseInt(SPECIMEN_IMAGE_HASHES[0].slice(-2), 16) ^ 0b101).toString(16).padStart(2, '0');
    expect(specimenMarks({ ...clean, perceptualHash: SPECIMEN_IMAGE_HASHES[0].slice(0, -2) + nearby })).toEqual(['specimen_image']);
  });

  it('reads SPECIMEN as OCR gives it: run into other words, I read as 1', () => {
    expect(specimenMarks({ ...clean, texts: ['SPECIMENAUTHORITY'] })).toEqual(['specimen_word']);
    expect(specimenMarks({ ...clean, texts: ['PASSPORT SPEC1MEN'] })).toEqual(['specimen_word']);
    expect(specimenMarks({ ...clean, texts: ['Specimens of handwriting'] })).toEqual([]);
  });

  it('holds the perceptual hash of the specimen the repository ships (re-run after regenerating it)', async () => {
    const decoded = await decodeImage('documentImage', await readFile(path.join(ROOT, 'examples/kyc/passport.jpg')));
    expect(SPECIMEN_IMAGE_HASHES).toContain(differenceHash(decoded.pixels));
  });
});
