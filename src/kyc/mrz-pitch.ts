// An MRZ read cell by cell at its fixed pitch (round 24, issue #14: MRZs at 6–8 px per character). The MRZ font is
// monospaced and every line has the layout's number of characters, so a line's width divided by 44, 36 or 30 is its
// pitch. At ~7 px per character, upscaled, tesseract reads a run of fillers as fewer fillers or as letters
// (`…3103186<<<<<<<<<H` for 15 fillers and a 6; OCR-B's '<' as C, L, K) and OCR-B's 4 as L. Here each line of the
// pass is cut into its cells at that pitch and every cell is compared with glyph templates of the MRZ alphabet
// (mrz-glyphs.json, scripts/make-mrz-glyphs.ts: OCR-B and DejaVu Sans Mono, the face that fits the lines best):
// a cell whose template is '<' is a filler, so a run is counted by its width; any other cell keeps the character
// the OCR placed in it unless that is a K, L, C or S, or a letter where they see a digit, that the templates find
// clearly worse than their own best. The lines
// are then parsed by readMrz as any pass is (check digits, class corrections); every checked field whose characters
// differ from the line text's reading is a check-digit repair (review), as for mrz-cells.ts. Pure but for bandAsRead.
import sharp from 'sharp';
import type { RawPixels } from './intake.ts';
import { withChangedAsRepairs } from './mrz-cells.ts';
import { GLYPH_ALPHABET, GLYPH_HEIGHT, GLYPH_WIDTH, sampleCell, type Grey } from './mrz-glyph-cell.ts';
import glyphs from './mrz-glyphs.json' with { type: 'json' };
import { cleanLine, FILLER_NOISE, readMrz, type MrzReading } from './mrz.ts';
import { OCR_WIDTH, type BandText, type ImageBand } from './ocr.ts';

/** MRZ line lengths, longest first: every layout is read by pitch (TD1 too since round 25). */
const LINE_LENGTHS = [44, 36, 30];
/** A line is an MRZ line when its text has at least this share of the layout's characters (and at most 1/share). */
const MIN_LINE_SHARE = 0.6;
/**
 * Looks whose characters are at most this many pixels apart in the image are read by pitch: a full page photographed
 * at 800 px (TD3 ~16 px) reads as before; the small-document cells have 6–10 (TD1 at 480 px ~13: not read so).
 */
export const MAX_SOURCE_PITCH = 12;
/**
 * A K, L, C or S of the OCR is replaced by the templates' best character only when that one correlates better by
 * more than this (Pearson, -1–1). Tried on 10 pages of one holder shrunk to 320–400 px (TD3, TD2, TD1, MRV-A; both
 * faces), cells right of 852: templates alone 773; any OCR character replaced at margin 0.05 / 0.10 / 0.15: 808 / 814
 * / 826; only K, L, C, S at 0.15: 828; those and a letter for a digit: 833. Replacing any character let the
 * templates' misreads of OCR-B (6 as D, 2 as Z) in: a TD2 number `626TDE44Y` read `D26T0E44Y`, valid, the D and a
 * repaired 0 cancelling in its check digit.
 */
const REPLACE_MARGIN = 0.15;
/** Cell offsets tried, in pitches (x) and line heights (y): the pitch is measured from a whole line's box. */
const SHIFTS_X = [-0.1, 0, 0.1];
const SHIFTS_Y = [-0.08, 0, 0.08];

/** Zero mean, unit length (a dot product of two is then their correlation); a flat cell stays zero. */
function normalised(values: Float64Array): Float64Array {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const centred = values.map((v) => v - mean);
  const norm = Math.sqrt(centred.reduce((a, b) => a + b * b, 0)) || 1;
  return centred.map((v) => v / norm);
}

if (glyphs.alphabet !== GLYPH_ALPHABET || glyphs.width !== GLYPH_WIDTH || glyphs.height !== GLYPH_HEIGHT) {
  throw new Error('mrz-glyphs.json was built for another alphabet or template size: node --import tsx scripts/make-mrz-glyphs.ts');
}

/** Per face, each character's template, normalised. */
const TEMPLATES: Record<string, { character: string; values: Float64Array }[]> = Object.fromEntries(
  Object.entries(glyphs.faces).map(([face, base64]) => {
    const bytes = Buffer.from(base64, 'base64');
    const size = glyphs.width * glyphs.height;
    return [face, [...glyphs.alphabet].map((character, k) => ({ character, values: normalised(Float64Array.from(bytes.subarray(k * size, (k + 1) * size))) }))];
  }),
);

type Box = BandText['lines'][number]['box'];

/**
 * Per face of `faces`, each character's best correlation with cell `index` of a line of `length` cells in `box`, over
 * the shifts. Each shifted cell is sampled once for every face (review of round 24: it was sampled once per face).
 */
function cellScores(image: Grey, box: Box, length: number, index: number, faces: string[]): Record<string, Map<string, number>> {
  const pitch = (box.x1 - box.x0) / length;
  const height = box.y1 - box.y0;
  const scores: Record<string, Map<string, number>> = Object.fromEntries(faces.map((face) => [face, new Map()]));
  for (const dx of SHIFTS_X) {
    for (const dy of SHIFTS_Y) {
      const x0 = box.x0 + (index + dx) * pitch;
      const y0 = box.y0 + dy * height;
      const cell = normalised(sampleCell(image, x0, y0, x0 + pitch, y0 + height));
      for (const face of faces) {
        const faceScores = scores[face]!;
        for (const { character, values } of TEMPLATES[face]!) {
          let score = 0;
          for (let i = 0; i < values.length; i++) score += values[i]! * cell[i]!;
          if (score > (faceScores.get(character) ?? -Infinity)) faceScores.set(character, score);
        }
      }
    }
  }
  return scores;
}

const best = (scores: Map<string, number>): [string, number] => [...scores].reduce((a, b) => (b[1] > a[1] ? b : a));

/** The layout's line length nearest to the longest line read (ties: the longer layout); null under 20 characters. */
export function lineLengthOf(texts: string[]): number | null {
  const longest = Math.max(0, ...texts.map((t) => cleanLine(t).length));
  if (longest < 20) return null;
  return [...LINE_LENGTHS].sort((a, b) => Math.abs(a - longest) - Math.abs(b - longest) || b - a)[0]!;
}

/** The lowest lines of the pass that look like MRZ lines of `length` characters (3 for TD1, else 2); null if fewer. */
export function mrzLines(read: BandText, length: number): BandText['lines'] | null {
  const count = length === 30 ? 3 : 2;
  const lines = read.lines.filter((line) => {
    const n = cleanLine(line.text).length;
    return n >= MIN_LINE_SHARE * length && n <= length / MIN_LINE_SHARE && line.box.x1 > line.box.x0;
  });
  return lines.length < count ? null : lines.slice(-count);
}

/**
 * The MRZ lines of a pass read cell by cell on `image` (the band as the OCR saw it): per cell, '<' where the
 * templates' best is '<', otherwise the OCR's most confident character whose centre lies in the cell, unless the OCR
 * placed none there, or placed a K, L, C or S (the letters it makes of OCR-B's thin '<' and 4), or a letter where
 * the templates' best is a digit (OCR-B's 9 read O), that the templates' best beats by REPLACE_MARGIN: then the
 * templates' best. A digit the OCR read is never replaced by a letter.
 */
export function readLinesByPitch(image: Grey, read: BandText, length: number): string[] | null {
  const lines = mrzLines(read, length);
  if (!lines) return null;
  const scoreLine = (line: BandText['lines'][number], faces: string[]) => Array.from({ length }, (_, i) => cellScores(image, line.box, length, i, faces));
  // The face is chosen on the line the OCR read most digits in alone (digits tell the faces apart best); the other
  // lines are scored with that face only (round 25: a third to a quarter fewer template comparisons).
  const faces = Object.keys(TEMPLATES);
  const digits = (line: BandText['lines'][number]) => line.text.replace(/[^0-9]/g, '').length;
  const chosen = lines.reduce((a, b) => (digits(b) > digits(a) ? b : a));
  const dataLine = scoreLine(chosen, faces);
  const fit = (face: string) => dataLine.reduce((sum, scores) => sum + best(scores[face]!)[1], 0);
  const face = faces.reduce((a, b) => (fit(b) > fit(a) ? b : a));
  const cells = lines.map((line) => (line === chosen ? dataLine : scoreLine(line, [face])).map((scores) => scores[face]!));
  return lines.map((line, k) => {
    const pitch = (line.box.x1 - line.box.x0) / length;
    return cells[k]!.map((scores, i) => {
      const [character, score] = best(scores);
      if (character === '<') return '<';
      const [from, to] = [line.box.x0 + i * pitch, line.box.x0 + (i + 1) * pitch];
      const read = (line.symbols ?? [])
        .filter((s) => s.text !== '<' && GLYPH_ALPHABET.includes(s.text) && (s.box.x0 + s.box.x1) / 2 >= from && (s.box.x0 + s.box.x1) / 2 < to)
        .sort((a, b) => b.confidence - a.confidence)[0];
      const replaceable = read && (FILLER_NOISE.test(read.text) || (/[A-Z]/.test(read.text) && /[0-9]/.test(character)));
      const replace = !read || (replaceable && score - (scores.get(read.text) ?? -1) > REPLACE_MARGIN);
      return replace ? character : read.text;
    }).join('');
  });
}

/** The band as the OCR saw it (ocr.ts toOcrPng's geometry: turned, cut, greyscale, scaled to `width`, normalised). */
async function bandAsRead(pixels: RawPixels, band: ImageBand, width: number): Promise<Grey> {
  const rotate = band.rotate ?? 0;
  const [w, fullHeight] = rotate % 180 === 0 ? [pixels.width, pixels.height] : [pixels.height, pixels.width];
  const top = Math.floor(fullHeight * band.top);
  const height = Math.max(1, Math.floor(fullHeight * band.bottom) - top);
  const { data, info } = await sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
    .rotate(rotate)
    .extract({ left: 0, top, width: w, height })
    .greyscale()
    .resize({ width })
    .normalise()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * The MRZ of a pass (`read`, of `pixels`' `band` at OCR scale `width`) read by pitch; null when its lines are no MRZ
 * lines or its characters are over MAX_SOURCE_PITCH pixels apart in the image. `plain`: the line text's reading, whose
 * format gives the line length; checked fields that differ from it are check-digit repairs.
 */
export async function readMrzByPitch(
  pixels: RawPixels, band: ImageBand, width: number | undefined, read: BandText, now: Date, plain: MrzReading | null,
): Promise<MrzReading | null> {
  const length = plain?.lines[0]?.length ?? lineLengthOf(read.lines.map((line) => line.text));
  const lines = length ? mrzLines(read, length) : null;
  if (!length || !lines) return null;
  const scale = (width ?? OCR_WIDTH) / ((band.rotate ?? 0) % 180 === 0 ? pixels.width : pixels.height);
  const pitch = Math.max(...lines.map((line) => (line.box.x1 - line.box.x0) / length));
  if (pitch / scale > MAX_SOURCE_PITCH) return null;
  const text = readLinesByPitch(await bandAsRead(pixels, band, width ?? OCR_WIDTH), read, length);
  const reading = text && readMrz(text.join('\n'), now);
  return reading ? withChangedAsRepairs(reading, plain) : null;
}
