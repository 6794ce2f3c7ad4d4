import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderDocument, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import { decodeImage } from '../../src/kyc/intake.ts';
import { deskew, estimateSkew } from '../../src/kyc/skew.ts';

describe('skew', () => {
  it('finds the tilt of a photographed page to half a degree, whichever side it leans', async () => {
    const page = await renderDocument('TD3', SPECIMEN_HOLDER);
    for (const angle of [0, 2.5, -4, 7]) {
      const photo = await sharp(page).rotate(angle, { background: '#5b4a3a' }).jpeg().toBuffer();
      const { pixels } = await decodeImage('documentImage', photo);
      expect(Math.abs(estimateSkew(pixels) - angle), `${angle}°`).toBeLessThanOrEqual(0.5);
    }
  });

  it('straightens a tilted card so that no tilt is left', async () => {
    const card = await sharp(await renderDocument('TD1', SPECIMEN_HOLDER)).rotate(-5, { background: '#ffffff' }).jpeg().toBuffer();
    const { pixels } = await decodeImage('documentImage', card);
    const skew = estimateSkew(pixels);
    expect(Math.abs(estimateSkew(await deskew(pixels, skew)))).toBeLessThanOrEqual(0.5);
  });
});
