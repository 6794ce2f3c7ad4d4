// Skew of the text on a document photo, by projection profile: rotated by the right angle, text lines fall into
// few rows, so the histogram of dark pixels over rows is at its most uneven (highest variance).
import sharp from 'sharp';
import type { RawPixels } from './intake.ts';

/** Analysis width: enough for MRZ lines of ~10 px characters, small enough to stay a few milliseconds. */
const ANALYSIS_WIDTH = 480;
const MAX_SKEW_DEGREES = 8;
const STEP_DEGREES = 0.5;
/** A sampled pixel counts when its brightness differs this much from its right neighbour's: the sides of strokes. */
const MIN_EDGE = 50;

/** Degrees the text is turned clockwise (positive: lines go down to the right), within ±MAX_SKEW_DEGREES. */
export function estimateSkew(pixels: RawPixels): number {
  // Vertical stroke edges rather than dark pixels: dark areas (a table under the page, a header band) would
  // outweigh the text.
  const step = Math.max(1, Math.floor(pixels.width / ANALYSIS_WIDTH));
  const xs: number[] = [];
  const ys: number[] = [];
  const luma = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 3;
    return (pixels.data[i]! * 299 + pixels.data[i + 1]! * 587 + pixels.data[i + 2]! * 114) / 1000;
  };
  for (let y = 0; y < pixels.height; y += step) {
    for (let x = 0; x + step < pixels.width; x += step) {
      if (Math.abs(luma(x, y) - luma(x + step, y)) >= MIN_EDGE) xs.push(x / step), ys.push(y / step);
    }
  }
  if (xs.length < 100) return 0;
  const rows = Math.ceil((pixels.width + pixels.height) / step) + 2;
  let best = { angle: 0, variance: -1 };
  for (let angle = -MAX_SKEW_DEGREES; angle <= MAX_SKEW_DEGREES; angle += STEP_DEGREES) {
    const radians = (angle * Math.PI) / 180;
    const [sin, cos] = [Math.sin(radians), Math.cos(radians)];
    const histogram = new Float64Array(rows);
    const offset = Math.ceil(pixels.width / step);
    for (let k = 0; k < xs.length; k++) histogram[Math.round(ys[k]! * cos - xs[k]! * sin) + offset]!++;
    let squares = 0;
    for (const value of histogram) squares += value * value;
    if (squares > best.variance) best = { angle, variance: squares };
  }
  return best.angle;
}

/** The image turned back by `skew` degrees, corners filled white like paper. */
export async function deskew(pixels: RawPixels, skew: number): Promise<RawPixels> {
  const { data, info } = await sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
    .rotate(-skew, { background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Columns of the coverage grid: a text line covers most of them, a label or a portrait few. */
const BANDS_COLUMNS = 32;
/** An MRZ line spans most of the document: at least this share of columns in one unbroken run. */
const MRZ_MIN_SPAN = 0.6;

/**
 * The MRZ band as fractions of the height: the lowest cluster of rows where stroke edges run unbroken across most
 * of the width (monospaced lines that fill the page from margin to margin), with a margin of half a line; null
 * when no row looks like that.
 */
export function findMrzBand(pixels: RawPixels): { top: number; bottom: number } | null {
  const step = Math.max(1, Math.floor(pixels.width / ANALYSIS_WIDTH));
  const rows = Math.floor(pixels.height / step);
  const columnWidth = pixels.width / BANDS_COLUMNS;
  const luma = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 3;
    return (pixels.data[i]! * 299 + pixels.data[i + 1]! * 587 + pixels.data[i + 2]! * 114) / 1000;
  };
  const covered: Uint8Array[] = [];
  for (let r = 0; r < rows; r++) {
    const y = r * step;
    const cells = new Uint8Array(BANDS_COLUMNS);
    for (let x = 0; x + step < pixels.width; x += step) {
      if (Math.abs(luma(x, y) - luma(x + step, y)) >= MIN_EDGE) cells[Math.floor(x / columnWidth)] = 1;
    }
    covered.push(cells);
  }
  // A character is a few sampled rows high: rows are merged over a window of ~1 % of the height.
  const window = Math.max(1, Math.round(rows * 0.01));
  const isLine = (r: number) => {
    const cells = new Uint8Array(BANDS_COLUMNS);
    for (let k = Math.max(0, r - window); k <= Math.min(rows - 1, r + window); k++) {
      for (let c = 0; c < BANDS_COLUMNS; c++) cells[c] ||= covered[k]![c]!;
    }
    let run = 0;
    let longest = 0;
    for (const cell of cells) (run = cell ? run + 1 : 0), (longest = Math.max(longest, run));
    return longest >= MRZ_MIN_SPAN * BANDS_COLUMNS;
  };
  let bottom = -1;
  let top = -1;
  for (let r = rows - 1; r >= 0; r--) {
    if (isLine(r)) {
      if (bottom < 0) bottom = r;
      top = r;
    } else if (bottom >= 0 && top - r > 6 * window) break; // a gap of more than a line or two ends the cluster
  }
  if (bottom < 0) return null;
  const margin = Math.max(window * 2, (bottom - top) * 0.15);
  return { top: Math.max(0, (top - margin) / rows), bottom: Math.min(1, (bottom + margin + 1) / rows) };
}

type Turn = 0 | 90 | 180 | 270;
type Band = { top: number; bottom: number };

/** Where mrzTurn found the band: the image it looked at (as it is, or turned a quarter) and the band there. */
async function locateMrz(pixels: RawPixels): Promise<{ turn: Turn | null; seen: RawPixels; band: Band | null }> {
  const lowHalf = (band: Band) => band.top + band.bottom > 1;
  const upright = findMrzBand(pixels);
  if (upright) return { turn: lowHalf(upright) ? 0 : 180, seen: pixels, band: upright };
  const quarter = await deskew(pixels, -90);
  const turned = findMrzBand(quarter);
  if (turned) return { turn: lowHalf(turned) ? 90 : 270, seen: quarter, band: turned };
  return { turn: null, seen: pixels, band: null };
}

/**
 * The clockwise turn that brings the MRZ band to the bottom, upright: its lines run across the page as it is (0 or
 * 180 by where the band sits) or across the page turned a quarter (90 or 270); null when neither shows a band.
 */
export async function mrzTurn(pixels: RawPixels): Promise<Turn | null> {
  return (await locateMrz(pixels)).turn;
}

/**
 * The page turned upright by mrzTurn (as it is when no band is seen) and the MRZ band on it (null when none). The
 * image and band mrzTurn looked at are reused where they are already upright (turns 0 and 90).
 */
export async function uprightMrzPage(pixels: RawPixels): Promise<{ upright: RawPixels; band: Band | null }> {
  const { turn, seen, band } = await locateMrz(pixels);
  if (!turn || turn === 90) return { upright: seen, band };
  const upright = await deskew(pixels, -turn);
  return { upright, band: findMrzBand(upright) };
}
