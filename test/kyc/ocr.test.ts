// The OCR engine on real images (tesseract, local model): what a read gives must not depend on what the engine read
// before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/kyc/intake.ts';
import { createOcrEngine, type OcrEngine } from '../../src/kyc/ocr.ts';
import { findAddress, findDates } from '../../src/kyc/text-document.ts';
import { letterPage, withShadow } from './images.ts';

let ocr: OcrEngine;
beforeAll(async () => {
  ocr = await createOcrEngine();
});
afterAll(async () => {
  await ocr?.close();
});

describe('OCR engine: free text', () => {
  it('reads a shadowed letter the same on a fresh engine and after MRZ passes, and reads it', async () => {
    // Until issue #14 one tesseract thread read both: free text kept whichever thresholding the last MRZ pass had set,
    // so a proof of address read by a fresh worker (global thresholding) lost the shadowed half of this letter.
    const letter = await decodeImage(
      'documentImage',
      await withShadow(
        await letterPage([
          { text: 'BALTIC BROADBAND', bold: true },
          { text: 'Statement date: 14 October 2026' },
          { text: 'Henrik Lindqvist' },
          { text: 'Vasagatan 31' },
          { text: '411 24 Goteborg' },
          { text: 'Amount due: 39.90 EUR' },
        ]),
      ),
    );
    const fresh = await ocr.readText(letter.pixels);
    await ocr.readMrzBand(letter.pixels, { top: 0.6, bottom: 1 });
    const afterMrz = await ocr.readText(letter.pixels);
    expect(afterMrz).toBe(fresh);
    expect(fresh).toContain('Henrik Lindqvist');
    expect(findAddress(fresh)).toMatch(/gatan 31$/); // the V in the darkest shade may read M
    expect(findDates(fresh)).toContain('2026-10-14');
  });
});
