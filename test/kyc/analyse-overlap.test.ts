import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composeTd3, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import { analyseImages } from '../../src/kyc/analyse.ts';
import type { FaceEngine } from '../../src/kyc/face.ts';
import { decodeImage } from '../../src/kyc/intake.ts';
import type { OcrEngine } from '../../src/kyc/ocr.ts';
import type { DocumentType } from '../../src/kyc/types.ts';

const noFaces: FaceEngine = { detect: async () => [], describe: async () => [], close: async () => undefined };

const blankPage = async () =>
  decodeImage('documentImage', await sharp({ create: { width: 640, height: 450, channels: 3, background: '#f4f1ea' } }).jpeg().toBuffer());

/**
 * An OCR engine whose MRZ passes read `lines` (by default the specimen's TD3 lines), logging each call; the MRZ pass
 * returns only once `mrzMayReturn` resolves.
 */
function loggingEngine(log: string[], mrzMayReturn: () => Promise<void>, lines: string[] = composeTd3(SPECIMEN_HOLDER)): OcrEngine {
  return {
    readMrzBand: async () => {
      log.push('mrz started');
      await mrzMayReturn();
      log.push('mrz read');
      return { text: lines.join('\n'), lines: lines.map((text, i) => ({ text, box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 25 * text.length, y1: 40 + 40 * i } })) };
    },
    readDigit: async () => null,
    readCharacter: async () => null,
    readText: async () => {
      log.push('text read');
      return '';
    },
    readPrintedBand: async () => {
      log.push('page read');
      return [];
    },
    close: async () => undefined,
  };
}

async function analyse(documentType: DocumentType, ocr: OcrEngine) {
  const [document, selfie] = await Promise.all([blankPage(), blankPage()]);
  return analyseImages({ documentType, document, selfie, metadata: {}, now: '2026-06-01T12:00:00Z' }, { ocr, face: noFaces });
}

describe('document reading: the printed page beside the MRZ', () => {
  it('reads a passport page while its MRZ is being read, once', async () => {
    const log: string[] = [];
    let pageRead!: () => void;
    const pageWasRead = new Promise<void>((resolve) => (pageRead = resolve));
    const ocr = loggingEngine(log, () => pageWasRead);
    const readPrintedBand = ocr.readPrintedBand;
    ocr.readPrintedBand = async (...args) => {
      const lines = await readPrintedBand(...args);
      pageRead();
      return lines;
    };
    // Were the page read only after the MRZ, the MRZ pass would wait for it forever and the test time out.
    const signals = await analyse('passport', ocr);
    expect(log).toEqual(['mrz started', 'page read', 'mrz read']);
    expect(signals.documentReading.mrz?.valid).toBe(true);
    expect(signals.documentReading.visualZone).toMatchObject({ documentNumber: 'unread', surname: 'unread' });
  });

  it('reads a licence page above an MRZ only once the MRZ is read, and not at all without one', async () => {
    const log: string[] = [];
    const signals = await analyse('driving_licence', loggingEngine(log, async () => undefined));
    expect(log).toEqual(['mrz started', 'mrz read', 'page read']);
    expect(signals.documentReading.mrz?.valid).toBe(true);

    const withoutMrz: string[] = [];
    const plain = await analyse('driving_licence', loggingEngine(withoutMrz, async () => undefined, ['DRIVING LICENCE']));
    expect(withoutMrz).not.toContain('page read');
    expect(withoutMrz.at(-1)).toBe('text read');
    expect(plain.documentReading.mrz).toBeNull();
  });
});
