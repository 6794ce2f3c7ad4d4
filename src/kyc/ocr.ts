// Tesseract (tesseract.js 7, LSTM) with the English model shipped in @tesseract.js-data/eng: nothing is downloaded
// and nothing is cached to disk. One OCR engine per pool worker, warmed once.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import type { RawPixels } from './intake.ts';
import type { PrintedLine } from './visual-zone.ts';

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

/**
 * A digits-only read of one character is believed from this confidence up: the whitelist makes the OCR name a digit
 * even for a filler or a smudge, with low confidence.
 */
const MIN_DIGIT_CONFIDENCE = 60;

/** Called once the image has been handed to tesseract's thread, i.e. when this thread is free for other work. */
export type OnQueued = () => void;

/** A horizontal band (fractions of the height) of the image turned clockwise by `rotate` degrees. */
export interface ImageBand {
  top: number;
  bottom: number;
  rotate?: 0 | 90 | 180 | 270;
}

/** A rectangle in pixels of a band as the OCR saw it (turned, cut and scaled to its width). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One character as the OCR read it, with its box and confidence (0–100). */
export interface OcrSymbol {
  text: string;
  confidence: number;
  box: Box;
}

export interface BandText {
  text: string;
  /** Each text line with its box, in reading order, and (when the engine gives them) its characters. */
  lines: { text: string; box: Box; symbols?: OcrSymbol[] }[];
}

export interface OcrEngine {
  /**
   * Text of a band of the image, read with the MRZ alphabet only. `width` (default OCR_WIDTH) scales the band
   * first: large print such as a SPECIMEN stamp reads at a fraction of the cost.
   */
  readMrzBand(pixels: RawPixels, band: ImageBand, onQueued?: OnQueued, width?: number): Promise<BandText>;
  /**
   * The one character in `box` of the band (as readMrzBand saw it at `width`), read with digits only; null unless
   * the OCR is confident it is a single digit. `denoise`: a 3×3 median over the cell first (scanner speckle).
   */
  readDigit(pixels: RawPixels, band: ImageBand, width: number | undefined, box: Box, denoise?: boolean): Promise<string | null>;
  /**
   * The one character in `box`, read alone with only the characters of `alphabet` allowed; null unless the OCR is
   * as confident of it as readDigit asks. Read alone, a glyph is not pulled towards its neighbours' class: in a
   * line, a 6 between letters was read as G at confidence 96–98 on every scale and degradation tried, alone as 6.
   */
  readCharacter(pixels: RawPixels, band: ImageBand, width: number | undefined, box: Box, alphabet: string): Promise<string | null>;
  /** Free text of the whole image. */
  readText(pixels: RawPixels, onQueued?: OnQueued): Promise<string>;
  /** Text lines of a band, general alphabet, each word with its confidence and box, scaled to `width` first. */
  readPrintedBand(pixels: RawPixels, band: ImageBand, width: number): Promise<PrintedLine[]>;
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

const startTesseract = () =>
  Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, { langPath: ENG_MODEL_DIR, cacheMethod: 'none', gzip: true });

/**
 * Two tesseract threads: one for the MRZ and its characters, one for free text, so that the printed page of a
 * document can be read while its MRZ is (analyse.ts). Free text is read with Sauvola thresholding too: before the
 * two were split, one thread read both and the text mode kept the MRZ passes' thresholding, which preceded every
 * printed-page read.
 */
export async function createOcrEngine(): Promise<OcrEngine> {
  const [worker, textWorker] = await Promise.all([startTesseract(), startTesseract()]);
  const modes = {
    mrz: { tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK, user_defined_dpi: OCR_DPI, thresholding_method: '2' },
    digit: { tessedit_char_whitelist: '0123456789', tessedit_pageseg_mode: Tesseract.PSM.SINGLE_CHAR, user_defined_dpi: OCR_DPI, thresholding_method: '2' },
  };
  await textWorker.setParameters({ tessedit_char_whitelist: '', tessedit_pageseg_mode: Tesseract.PSM.AUTO, user_defined_dpi: OCR_DPI, thresholding_method: '2' });
  let mode: string | null = null;
  /** `cell:<alphabet>`: one character, of that alphabet. */
  const use = async (wanted: keyof typeof modes | `cell:${string}`) => {
    if (mode === wanted) return;
    const cell = wanted.startsWith('cell:') ? { ...modes.digit, tessedit_char_whitelist: wanted.slice('cell:'.length) } : null;
    await worker.setParameters(cell ?? modes[wanted as keyof typeof modes]);
    mode = wanted;
  };
  const recognize = async (png: Buffer, onQueued?: OnQueued, blocks = false, by = worker) => {
    const job = by.recognize(png, {}, { text: true, blocks });
    onQueued?.();
    return (await job).data;
  };
  // The band readMrzBand read last, as the OCR saw it: readDigit and readCharacter cut their characters from it without
  // preparing the band again (an invalid reading asks for one digit per unread check digit).
  let lastBand: { pixels: RawPixels; band: ImageBand; width: number | undefined; png: Promise<Buffer> } | null = null;
  const bandPng = (pixels: RawPixels, band: ImageBand, width: number | undefined) => {
    const same =
      lastBand?.pixels === pixels &&
      lastBand.width === width &&
      lastBand.band.top === band.top &&
      lastBand.band.bottom === band.bottom &&
      (lastBand.band.rotate ?? 0) === (band.rotate ?? 0);
    if (!same) lastBand = { pixels, band, width, png: toOcrPng(pixels, band, width) };
    return lastBand!.png;
  };
  /** The one character in `box` of the band, read in `cellMode` (digits, or an alphabet); null unless confident. */
  const readCell = async (pixels: RawPixels, band: ImageBand, width: number | undefined, box: Box, cellMode: 'digit' | `cell:${string}`, denoise: boolean) => {
    const png = await bandPng(pixels, band, width);
    const { width: pngWidth = 0, height: pngHeight = 0 } = await sharp(png).metadata();
    const left = Math.max(0, Math.floor(box.x0));
    const top = Math.max(0, Math.floor(box.y0));
    const cropWidth = Math.min(pngWidth, Math.ceil(box.x1)) - left;
    const cropHeight = Math.min(pngHeight, Math.ceil(box.y1)) - top;
    if (cropWidth < 4 || cropHeight < 4) return null;
    // A margin of paper around the lone character: tesseract finds no glyph touching the edge of its image.
    const margin = Math.round(cropHeight / 2);
    const cut = sharp(png).extract({ left, top, width: cropWidth, height: cropHeight });
    // Scanner speckle breaks a lone glyph into blobs the single-character mode reads as nothing: a 3×3 median
    // removes specks smaller than a stroke and keeps the strokes.
    const cell = await (denoise ? sharp(await cut.median(3).png().toBuffer()) : cut)
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
      .png()
      .toBuffer();
    await use(cellMode);
    const data = await recognize(cell);
    const text = data.text.trim();
    const allowed = cellMode === 'digit' ? '0123456789' : cellMode.slice('cell:'.length);
    return text.length === 1 && allowed.includes(text) && data.confidence >= MIN_DIGIT_CONFIDENCE ? text : null;
  };
  return {
    async readMrzBand(pixels, band, onQueued, width) {
      await use('mrz');
      const data = await recognize(await bandPng(pixels, band, width), onQueued, true);
      const lines = (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines));
      return {
        text: data.text,
        lines: lines.map((line) => ({
          text: line.text,
          box: line.bbox,
          symbols: line.words.flatMap((word) => word.symbols.map((symbol) => ({ text: symbol.text, confidence: symbol.confidence, box: symbol.bbox }))),
        })),
      };
    },
    readDigit: (pixels, band, width, box, denoise = false) => readCell(pixels, band, width, box, 'digit', denoise),
    readCharacter: (pixels, band, width, box, alphabet) => readCell(pixels, band, width, box, `cell:${alphabet}`, false),
    async readText(pixels, onQueued) {
      return (await recognize(await toOcrPng(pixels, { top: 0, bottom: 1 }), onQueued, false, textWorker)).text;
    },
    async readPrintedBand(pixels, band, width) {
      const data = await recognize(await toOcrPng(pixels, band, width), undefined, true, textWorker);
      const lines = (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines));
      return lines.map((line) =>
        line.words.map((word) => ({
          text: word.text,
          confidence: word.confidence,
          box: word.bbox,
          characters: word.symbols.map((symbol) => symbol.confidence),
        })),
      );
    },
    async close() {
      await Promise.all([worker.terminate(), textWorker.terminate()]);
    },
  };
}
