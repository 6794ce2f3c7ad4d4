// Tesseract (tesseract.js 7, LSTM) with the English model shipped in @tesseract.js-data/eng: nothing is downloaded
// and nothing is cached to disk. One OCR engine per pool worker, warmed once.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import type { RawPixels } from './intake.ts';

const require = createRequire(import.meta.url);
/** The integer-quantised LSTM model ("best_int"): the one for OEM LSTM_ONLY. */
export const ENG_MODEL_DIR = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** OCR scale: MRZ characters of a full-width ID-3 page end up ~25 px wide, where the LSTM model reads them best. */
export const OCR_WIDTH = 1250;
/** Characters per MRZ line at which OCR_WIDTH gives that pitch (TD3, MRV-A). */
export const OCR_WIDTH_LINE_LENGTH = 44;
/** 1250 px across a 125 mm page is ~250 dpi; stating it stops tesseract guessing from absent metadata. */
const OCR_DPI = '250';

/** Called once the image has been handed to tesseract's thread, i.e. when this thread is free for other work. */
export type OnQueued = () => void;

/** A horizontal band (fractions of the height) of the image turned clockwise by `rotate` degrees. */
export interface ImageBand {
  top: number;
  bottom: number;
  rotate?: 0 | 90 | 180 | 270;
}

export interface OcrEngine {
  /**
   * Text of a band of the image, read with the MRZ alphabet only. `width` (default OCR_WIDTH) scales the band
   * first: large print such as a SPECIMEN stamp reads at a fraction of the cost.
   */
  readMrzBand(pixels: RawPixels, band: ImageBand, onQueued?: OnQueued, width?: number): Promise<string>;
  /** Free text of the whole image. */
  readText(pixels: RawPixels, onQueued?: OnQueued): Promise<string>;
  close(): Promise<void>;
}

async function toOcrPng(pixels: RawPixels, band: ImageBand, outputWidth = OCR_WIDTH): Promise<Buffer> {
  const rotate = band.rotate ?? 0;
  const [width, fullHeight] = rotate % 180 === 0 ? [pixels.width, pixels.height] : [pixels.height, pixels.width];
  const top = Math.floor(fullHeight * band.top);
  const height = Math.max(1, Math.floor(fullHeight * band.bottom) - top);
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
    .rotate(rotate)
    .extract({ left: 0, top, width, height })
    .greyscale()
    .resize({ width: outputWidth })
    .normalise()
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function createOcrEngine(): Promise<OcrEngine> {
  const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: ENG_MODEL_DIR,
    cacheMethod: 'none',
    gzip: true,
  });
  let mode: 'mrz' | 'text' | null = null;
  const use = async (wanted: 'mrz' | 'text') => {
    if (mode === wanted) return;
    await worker.setParameters(
      wanted === 'mrz'
        ? { tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK, user_defined_dpi: OCR_DPI, thresholding_method: '2' }
        : { tessedit_char_whitelist: '', tessedit_pageseg_mode: Tesseract.PSM.AUTO, user_defined_dpi: OCR_DPI },
    );
    mode = wanted;
  };
  const recognize = async (png: Buffer, onQueued?: OnQueued) => {
    const job = worker.recognize(png);
    onQueued?.();
    return (await job).data.text;
  };
  return {
    async readMrzBand(pixels, band, onQueued, width) {
      await use('mrz');
      return recognize(await toOcrPng(pixels, band, width), onQueued);
    },
    async readText(pixels, onQueued) {
      await use('text');
      return recognize(await toOcrPng(pixels, { top: 0, bottom: 1 }), onQueued);
    },
    async close() {
      await worker.terminate();
    },
  };
}
