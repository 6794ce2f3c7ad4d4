// Turns the two decoded images into measurements (signals). No judgement here: decision.ts applies the rule.
// Runs inside a pool worker, where the OCR and face engines live.
import { performance } from 'node:perf_hooks';
import type { FaceEngine, DetectedFace } from './face.ts';
import { faceSimilarity } from './face.ts';
import { differenceHash } from './hash.ts';
import { pipelineOf, rawPixelsOf, type DecodedImage, type RawPixels } from './intake.ts';
import { cleanLine, FILLER_NOISE, fillerNoise, hasComposite, LOOK_ALIKES, readMrz, unreadCheckDigits, withRereadCheckDigits, type MrzFormat, type MrzReading } from './mrz.ts';
import { cellBox, cellPitch, cellsToReadAlone, fieldCells, holdingMix, placeKey, readMrzByCells, sourceLines, withUncertainCharacters } from './mrz-cells.ts';
import { readMrzByPitch } from './mrz-pitch.ts';
import { compareNames, findNameInText } from './names.ts';
import { THRESHOLDS } from './decision.ts';
import { OCR_WIDTH, OCR_WIDTH_LINE_LENGTH, type BandText, type Box, type ImageBand, type OcrEngine, type OnQueued } from './ocr.ts';
import { measureQuality } from './quality.ts';
import { cutOutFinest, deskew, estimateSkew, findMrzBand, findMrzRegion, findMrzRegions, MIN_SKEW_DEGREES, mrzTurn, type MrzRegion, type Region, type Upload } from './skew.ts';
import { specimenMarks } from './specimen.ts';
import { findAddress, findDates, latestPastDate } from './text-document.ts';
import { compareVisualZone, confirmedInPrint, printedText, readPrintedPage } from './visual-zone.ts';
import type {
  AnalyseInput,
  DocumentSignals,
  FaceSignals,
  ImageSignals,
  KycSignals,
  OtherDocument,
  TextReading,
} from './types.ts';
import { MRZ_DOCUMENT_TYPES } from './types.ts';

export interface AnalysisModels {
  ocr: OcrEngine;
  face: FaceEngine;
}

/** Below this the image holds nothing the models can read; they are not run (the quality rule fails it). */
const MIN_ANALYSABLE_SIDE = 48;
const BOTTOM_BAND: ImageBand = { top: 0.6, bottom: 1 };
const WHOLE: ImageBand = { top: 0, bottom: 1 };
/**
 * Where an MRZ sits: bottom of a passport data page or of an ID card's back; then the whole image; then the
 * bottom of the image turned (photos taken upside down or sideways), and the whole image upside down. Each is read only while no valid MRZ has been found; after the
 * bottom band come closerLooks (the detected MRZ band, a tilted photo straightened).
 */
const MRZ_BANDS: ImageBand[] = [
  BOTTOM_BAND,
  WHOLE,
  { ...BOTTOM_BAND, rotate: 180 },
  { ...BOTTOM_BAND, rotate: 90 },
  { ...BOTTOM_BAND, rotate: 270 },
  { ...WHOLE, rotate: 180 },
];

/** Lower is better: invalid fields first, then repairs only a check digit chose. */
const faults = (mrz: MrzReading) => mrz.invalidFields.length + 0.5 * Math.min(1, mrz.checkDigitRepairs.length);

interface Look {
  image: RawPixels;
  band: ImageBand;
  /** OCR scale (default OCR_WIDTH). */
  width?: number;
  /** The image's strokes thinned (thinStrokes). */
  thin?: boolean;
  /** A region cut out of the photo turned a quarter (closerLooks): upright itself, but not at the photo's turn. */
  quarterTurned?: boolean;
  /** The MRZ region of a document small in the photo, cut out upright (closerLooks). */
  region?: boolean;
}

/**
 * From this many filler-run letters (fillerNoise) on, a read is taken for OCR-B's '<' misread and read again with
 * thinner strokes. DejaVu Sans Mono reads (round 12 dev seed) rarely show more than one or two.
 */
const MIN_FILLER_NOISE = 4;

/**
 * The dark strokes made a pixel thinner (the light paper grown by one pixel). Tesseract's English model reads OCR-B's
 * '<' as `<K`, `KL` and its lines with extra glyphs; thinner, it reads them as fillers (round 12: OCR-B line edits
 * per page 30 → 16 on 12 clean pages) — while the thinner DejaVu face reads worse so (0.4 → 1.0), hence only then.
 */
async function thinStrokes(pixels: RawPixels): Promise<RawPixels> {
  return rawPixelsOf(pipelineOf(pixels).dilate(1));
}

/**
 * The scale at which a format's characters have the pitch the OCR reads best: the 30 and 36 characters of TD1, TD2,
 * MRV-B and French lines are bigger than TD3's 44 across the same page, and misread more at OCR_WIDTH.
 */
const widthFor = (mrz: MrzReading): number => Math.round((OCR_WIDTH * mrz.lines[0]!.length) / OCR_WIDTH_LINE_LENGTH);

/**
 * After the bottom band failed: the detected MRZ band, and a tilted photo straightened. When the document is small
 * in the photo (round 21: a card at ~40 % of the photo's width on a table), no band spans most of the width: the
 * MRZ region (findMrzRegion) is cut out and read alone, so that the OCR scale gives its characters the pitch it
 * reads best (the whole photo scaled to OCR_WIDTH gives them ~40 % of it); only with `lookForRegion` (not on a licence).
 */
async function closerLooks(pixels: RawPixels, lookForRegion: boolean, upload: Upload | null): Promise<Look[]> {
  const skew = estimateSkew(pixels);
  const straightened = Math.abs(skew) >= MIN_SKEW_DEGREES;
  const straight = straightened ? await deskew(pixels, skew) : pixels;
  const turn = straightened ? -skew : 0;
  const looks = [];
  const band = findMrzBand(straight);
  const region = lookForRegion ? findMrzRegion(straight) : null;
  if (region) looks.push({ image: await cutOutFinest(straight, region, upload, pixels, { turn, paperOnly: true }), band: WHOLE, region: true });
  if (band) looks.push({ image: straight, band });
  // A document small in the photo and turned a quarter (round 22): its MRZ lines run down the photo, so the region is
  // looked for on the photo turned each way, and cut out of it upright. Only where no band spans the photo (the
  // band's own turned looks read a page that fills it).
  if (lookForRegion && !band) {
    for (const quarter of [90, 270]) {
      const turned = await deskew(straight, -quarter);
      const turnedRegion = findMrzRegion(turned);
      if (turnedRegion) looks.push({ image: await cutOutFinest(turned, turnedRegion, upload, pixels, { turn: turn + quarter, paperOnly: true }), band: WHOLE, quarterTurned: true });
    }
  }
  if (straight !== pixels) looks.push({ image: straight, band: BOTTOM_BAND }, { image: straight, band: WHOLE });
  return looks;
}

/** Share of a character cell added on each side of a re-read character: the pitch is estimated from a whole line. */
const CELL_MARGIN = 0.15;

/**
 * Where character `index` of line `lineIndex` of an MRZ lies in the band the OCR read: on the OCR line that shares
 * most characters with it at the same places, at the character pitch of the MRZ's lines (the font is monospaced; the
 * median over the lines, because a line whose text lost a character often keeps its glyph inside its box).
 */
export function characterBox(lines: string[], lineIndex: number, index: number, ocrLines: BandText['lines']): Box | null {
  const sources = sourceLines(lines, ocrLines.map((line) => cleanLine(line.text)), 0.5).map((k) => (k === null ? null : ocrLines[k]!));
  const source = sources[lineIndex];
  if (!source) return null;
  const pitches = sources.flatMap((s) => (s ? [(s.box.x1 - s.box.x0) / cleanLine(s.text).length] : [])).sort((a, b) => a - b);
  const pitch = pitches[Math.floor(pitches.length / 2)]!;
  const { box } = source;
  const height = box.y1 - box.y0;
  return {
    x0: box.x0 + (index - CELL_MARGIN) * pitch,
    x1: box.x0 + (index + 1 + CELL_MARGIN) * pitch,
    y0: box.y0 - CELL_MARGIN * height,
    y1: box.y1 + CELL_MARGIN * height,
  };
}

/**
 * An invalid reading with its failing check digits that the OCR read as no digit (unreadCheckDigits) read again from
 * the image, digits only: one OCR pass over a single character each, and only for invalid readings.
 */
async function rereadCheckDigits(mrz: MrzReading, read: BandText, look: Look, ocr: OcrEngine, now: Date): Promise<MrzReading> {
  const reread = [];
  for (const place of unreadCheckDigits(mrz)) {
    const box = characterBox(mrz.lines, place.line, place.index, read.lines);
    const digit = box && (await ocr.readDigit(look.image, look.band, look.width, box));
    if (digit) {
      reread.push({ place, digit });
      continue;
    }
    // Read as no digit (scanner noise, mostly): once more with the cell's speckle removed, then at the cell the
    // characters' own boxes give (mrz-cells.ts cellBox: a line box stretched over noise puts the cell beside the
    // glyph), plainly and without speckle. Only this failing path pays for it, and a digit read so is a check-digit
    // repair (review), never a plain pass.
    const cell = cellBox(read, mrz.lines, place.line, place.index, CELL_MARGIN);
    const tries: [Box | null, boolean][] = [[box, true], [cell, false], [cell, true]];
    for (const [at, denoise] of tries) {
      const again = at && (await ocr.readDigit(look.image, look.band, look.width, at, denoise));
      if (!again) continue;
      reread.push({ place, digit: again, repair: true });
      break;
    }
  }
  if (reread.length === 0) return mrz;
  const again = withRereadCheckDigits(mrz, reread, now);
  return faults(again) < faults(mrz) ? again : mrz;
}

/** A character of the pass read again alone, among `alphabet`: its box widened by CELL_MARGIN of its size on each side. */
function readAlone(ocr: OcrEngine, look: Look, box: Box, alphabet: string): Promise<string | null> {
  const [width, height] = [box.x1 - box.x0, box.y1 - box.y0];
  const cell = { x0: box.x0 - CELL_MARGIN * width, x1: box.x1 + CELL_MARGIN * width, y0: box.y0 - CELL_MARGIN * height, y1: box.y1 + CELL_MARGIN * height };
  return ocr.readCharacter(look.image, look.band, look.width, cell, alphabet);
}

/** Any letter or digit: a number's character read alone is not told what it should be. */
const LETTERS_AND_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Whether the OCR takes one of two characters for the other (LOOK_ALIKES): where the line pass and a single-character
 * pass read two characters that are not, they saw different glyphs, which a character changed on the document also
 * gives (a printed 8 changed to 3 and read alone as 8 again holds the check digits it was changed against).
 */
const lookAlikes = (a: string, b: string) => (LOOK_ALIKES[a] ?? []).includes(b) || (LOOK_ALIKES[b] ?? []).includes(a);

/**
 * Whether the check digit of `field` read alone is the one `reading` has. The composite does not confirm a number's
 * check digit read 5 off (3 for 8): a number misread by 5 at any place (5 times any weight is 5 modulo 10) holds it,
 * and the composite, which weighs the number as its own check digit does and that check digit by 7, moves by 8 × 5.
 */
async function checkDigitReadAloneAsIs(reading: MrzReading, read: BandText, look: Look, ocr: OcrEngine, field: string): Promise<boolean> {
  const [cell] = fieldCells(reading, read, `${field}CheckDigit`);
  if (!cell?.read) return false;
  return (await readAlone(ocr, look, cell.read.box, LETTERS_AND_DIGITS)) === reading.lines[cell.line]![cell.index];
}

/**
 * A reading whose document number the line text did not give plainly, with each character of the number read again
 * alone (single-character pass, any letter or digit; round 9). In a line the model reads this font's 9 as I or O and
 * 0 as O, and a visa's one check digit then chooses among look-alike swaps by chance; alone, a glyph is not pulled
 * towards its neighbours. For the number only:
 * - its O and Q read as 0 (mrz.ts zerosOnly, a correction): kept so only when every character read alone is the
 *   reading's (an O or Q where it reads 0: that is what zerosOnly settles); otherwise a repair (review), as before
 *   round 9: a B for 8 twice cancels in every check digit, so the check digits do not show the rest was read right;
 * - repaired by a check digit, or failing its check digit (read as a digit): the characters read alone replace the
 *   line's (where one reads nothing alone, the line's reading stands, not the check digit's swap), and when the
 *   number then holds its check digit without a swap, that reading is taken. Every character read alone, under a
 *   composite, the line and the single-character reads differing only by look-alikes, no other mix of them holding
 *   (mrz-cells.ts holdingMix), and its check digit read alone as it stands (checkDigitReadAloneAsIs: the composite does not
 *   confirm it), it is a plain read of the number by those passes: a correction (info); otherwise a repair (review),
 *   since the check digit chose between two readings.
 * One single-character pass per character of the number, only on these readings, and one for the check digit where
 * the number may be a plain read.
 */
async function withNumberReadAlone(mrz: MrzReading, read: BandText, look: Look, ocr: OcrEngine, now: Date): Promise<MrzReading> {
  const field = 'documentNumber';
  const readAsZeros = mrz.valid && mrz.corrections.includes(field);
  // A check digit read as a letter stays a repair (mrz.ts: the composite cannot tell O as 0 from O as 9 there), and
  // a failing one says nothing the characters read alone could be held against.
  const checkReadAsLetter = mrz.corrections.includes(`${field}CheckDigit`);
  const failing = mrz.invalidFields.includes(`${field}CheckDigit`) && !checkReadAsLetter;
  if (!readAsZeros && !failing && !mrz.checkDigitRepairs.includes(field)) return mrz;
  const alone = [];
  for (const cell of fieldCells(mrz, read, field)) {
    const character = cell.read && (await readAlone(ocr, look, cell.read.box, LETTERS_AND_DIGITS));
    alone.push({ ...cell, character });
  }
  const inFull = alone.every(({ character }) => character !== null);
  const withoutNumber = (names: string[]) => names.filter((name) => name !== field);
  if (readAsZeros) {
    const same = (expected: string, character: string | null) => character === expected || (expected === '0' && (character === 'O' || character === 'Q'));
    if (inFull && alone.every(({ line, index, character }) => same(mrz.lines[line]![index]!, character))) return mrz;
    return { ...mrz, corrections: withoutNumber(mrz.corrections), checkDigitRepairs: [...mrz.checkDigitRepairs, field] };
  }
  const lines = mrz.lines.map((line) => [...line]);
  for (const { line, index, character, read: asRead } of alone) lines[line]![index] = character ?? asRead?.text ?? lines[line]![index]!;
  const again = readMrz(lines.map((line) => line.join('')).join('\n'), now);
  if (!again?.valid || again.format !== mrz.format || again.checkDigitRepairs.includes(field)) return mrz;
  const disagreements = alone.flatMap(({ line, index, character, read: asRead }) =>
    character !== null && asRead && asRead.text.toUpperCase() !== character ? [{ line, index, character: asRead.text.toUpperCase() }] : [],
  );
  const plainAlone =
    inFull &&
    !checkReadAsLetter &&
    hasComposite(mrz.format) &&
    disagreements.every(({ index, line, character }) => lookAlikes(character, again.lines[line]![index]!)) &&
    // Another mix of the line's and the single-character reads also holding: the check digits did not choose (G and 6
    // weigh the same in every check digit), and the single-character reads are no plain read of the number.
    holdingMix(mrz.format, again.lines, disagreements) === null &&
    (await checkDigitReadAloneAsIs(again, read, look, ocr, field));
  if (!plainAlone && (again.corrections.includes(field) || again.documentNumber === mrz.documentNumber)) return mrz;
  return {
    ...again,
    corrections: [...new Set([...withoutNumber(mrz.corrections), ...withoutNumber(again.corrections), ...(plainAlone ? [field] : [])])],
    checkDigitRepairs: [...new Set([...withoutNumber(mrz.checkDigitRepairs), ...again.checkDigitRepairs, ...(plainAlone ? [] : [field])])],
  };
}

/**
 * A valid reading judged by mrz-cells.ts withUncertainCharacters, with the characters of cellsToReadAlone (every
 * character of its number that has a look-alike, and the letters with a look-alike of its other checked
 * letters-and-digits fields) read again alone first, each with only itself and its look-alikes allowed: in a line the
 * OCR reads a 6 between letters as G with full confidence, alone as 6, and two different confident look-alikes can
 * cancel in every check digit (SR3YBM3ZB for 5R3Y8M3ZB). Read alone as another, a character is doubted: when its
 * look-alikes, with up to one more doubted character's, or the characters read alone otherwise, put in together, give
 * another reading that holds every check digit, the field goes to review.
 * One single-character pass per such character, none when the first pass's characters already sent it to review.
 */
async function withCharactersReadAlone(mrz: MrzReading, read: BandText, look: Look, ocr: OcrEngine): Promise<MrzReading> {
  const byConfidence = withUncertainCharacters(mrz, read);
  if (byConfidence.uncertainCharacters.length > mrz.uncertainCharacters.length) return byConfidence;
  const alone = new Map<string, string | null>();
  for (const { line, index, character, partners, box } of cellsToReadAlone(mrz, read)) {
    alone.set(placeKey(line, index), await readAlone(ocr, look, box, character + partners.join('')));
  }
  return alone.size === 0 ? byConfidence : withUncertainCharacters(mrz, read, alone);
}

/**
 * The fields no check digit covers whose letters are read again alone when they may be OCR-B's '<': the names, and the
 * document code, whose second character is mostly a filler (`IK`, `PS` for `I`, `P`).
 */
const unCheckedFields = (format: MrzFormat): string[] => ['documentCode', ...(format === 'FRA_ID' ? ['lastName', 'firstName'] : ['name'])];
/** Name letters read alone per reading at most (one single-character pass each). */
const MAX_NAME_LETTERS_ALONE = 10;
/** What a reading says outside the fields read alone (unCheckedFields): the letters read alone must leave it as it is. */
const fixedData = (r: MrzReading) =>
  [r.format, r.issuingState, r.nationality, r.documentNumber, r.birthDate, r.expiryDate, r.sex, r.personalNumber].join('|');

/**
 * A valid reading whose name letters that OCR-B's '<' is read as (K, L, C, S) were each read again alone, as itself
 * or '<'. In a line tesseract reads the thin chevron as a letter glued to a word (`JEANKPIERRE`, `JEANSKPIERRE`,
 * `SILVA<K<KJEAN`); no check digit covers names, and a KYC decision compares and screens them. A stretch of fillers
 * and letters read alone as fillers between two words becomes as many fillers as the cells its boxes span (a '<'
 * read as two glyphs, `SK`, is one cell); at a field's end each such letter becomes one filler (the line's length is
 * fitted as before). Only those fields are taken from the lines so changed, and only when every other field reads the same.
 */
async function withNameFillersReadAlone(mrz: MrzReading, read: BandText, look: Look, ocr: OcrEngine, now: Date): Promise<MrzReading> {
  const fields = unCheckedFields(mrz.format).map((field) => fieldCells(mrz, read, field));
  const cells = fields.flat();
  const fillers = new Set<string>();
  // A field's first character is never a filler: a name's first letter (KLAUS, CSABA) read alone as '<' stays a letter.
  const firstOfField = new Set(fields.flatMap((inField) => (inField[0] ? [placeKey(inField[0].line, inField[0].index)] : [])));
  const mayBeFiller = (cell: (typeof cells)[number]) =>
    cell.read && !firstOfField.has(placeKey(cell.line, cell.index)) && FILLER_NOISE.test(mrz.lines[cell.line]![cell.index]!);
  for (const { line, index, read: asRead } of cells.filter(mayBeFiller).slice(0, MAX_NAME_LETTERS_ALONE)) {
    const letter = mrz.lines[line]![index]!;
    if ((await readAlone(ocr, look, asRead!.box, `${letter}<`)) === '<') fillers.add(placeKey(line, index));
  }
  const pitch = cellPitch(read, mrz.lines[0]!.length);
  type FieldCell = (typeof fields)[number][number];
  /** A field's characters with each stretch of fillers and letters read alone as fillers rebuilt. */
  const rebuilt = (text: string, inField: FieldCell[]) => {
    const isFiller = (cell: FieldCell) => text[cell.index] === '<' || fillers.has(placeKey(cell.line, cell.index));
    let out = '';
    for (let k = 0; k < inField.length; ) {
      let end = k;
      if (!isFiller(inField[k]!)) {
        out += text[inField[k]!.index];
        k++;
        continue;
      }
      while (end + 1 < inField.length && isFiller(inField[end + 1]!)) end++;
      const [first, last] = [inField[k]!.read, inField[end]!.read];
      // Only a stretch holding a letter read alone is counted by its boxes: fillers read as such keep their number.
      const holdsLetterAlone = inField.slice(k, end + 1).some((cell) => fillers.has(placeKey(cell.line, cell.index)));
      const between = holdsLetterAlone && k > 0 && end + 1 < inField.length;
      // A K, L, C or S after a stretch between words whose box's centre lies in the same cell as the stretch's last box
      // is the second glyph of that '<' (`SILVA<K<KSOFIA`, `ANNA<KMARIA`: '<' read `<K`), whatever it was read as alone,
      // not the next word's first letter (`<K<KARL`, `ANNA<KARL`: that K stands in a cell of its own); the stretch then
      // ends where that glyph ends.
      const next = inField[end + 1];
      const cellOf = (box: Box) => Math.floor(((box.x0 + box.x1) / 2 - first!.box.x0) / pitch!);
      const glued = k > 0 && pitch && first && last && next?.read && FILLER_NOISE.test(text[next.index]!) && cellOf(next.read.box) === cellOf(last.box);
      const stretchEnd = glued ? next!.read!.box.x1 : last?.box.x1;
      out += '<'.repeat(between && pitch && first && stretchEnd ? Math.max(1, Math.round((stretchEnd - first.box.x0) / pitch)) : end - k + 1);
      k = glued ? end + 2 : end + 1;
    }
    return out;
  };
  const lines = mrz.lines.map((text, m) =>
    fields
      .map((inField) => inField.filter((cell) => cell.line === m))
      .filter((inField) => inField.length > 0)
      .sort((a, b) => b[0]!.index - a[0]!.index)
      .reduce((line, inField) => line.slice(0, inField[0]!.index) + rebuilt(text, inField) + line.slice(inField.at(-1)!.index + 1), text),
  );
  if (lines.every((line, m) => line === mrz.lines[m])) return mrz;
  const again = readMrz(lines.join('\n'), now);
  if (!again?.valid || fixedData(again) !== fixedData(mrz)) return mrz;
  // No check digit confirms what the letters read alone changed: each such field is listed as corrected (a signal).
  const changed = (['documentCode', 'lastName', 'firstName'] as const).filter((field) => again[field] !== mrz[field]);
  return {
    ...mrz,
    lines: again.lines,
    documentCode: again.documentCode,
    lastName: again.lastName,
    firstName: again.firstName,
    corrections: [...new Set([...mrz.corrections, ...changed])],
  };
}

/**
 * The MRZ of a document image: the first valid reading over the bands, otherwise the one with the fewest faults.
 * Once a look finds an MRZ, the page's orientation is known: looks at other turns are dropped, and a format whose
 * lines are shorter than 44 characters is read again at its own scale. A reading valid only through a check-digit
 * repair stops the search after that re-reading, which may read it plainly valid.
 */
export async function readMrzFromImage(
  pixels: RawPixels,
  ocr: OcrEngine,
  now: Date,
  onQueued?: OnQueued,
  bands: ImageBand[] = MRZ_BANDS,
  /**
   * Whether to look for the MRZ region of a document small in the photo (closerLooks). Not on a licence (round 21
   * review): most carry no MRZ, and any photo of one has text blocks for a region, so each licence read paid an OCR
   * pass (2 -> 3 or 4 MRZ passes on a 4032×3024 photo) for an MRZ it does not have.
   */
  lookForRegion = true,
  /** The upload the working copy `pixels` was made from: a small document's MRZ region is cut from it (round 27). */
  upload: Upload | null = null,
): Promise<MrzReading | null> {
  let best: MrzReading | null = null;
  /**
   * The best reading from character cells of a look whose line text read an invalid MRZ. Used only when no look
   * reads a valid MRZ from its text: the search (orientation, the format's scale, when to stop) and every reading
   * it finds are as without it, so a page read valid before reads the same, with the same repairs.
   */
  let fallback: MrzReading | null = null;
  /**
   * Whether `fallback` came from a look whose line text parsed no MRZ (round 24). Such a fallback gives way to one of
   * as few faults from a look whose text did parse (the only kind main had), so that a page whose cells main read
   * reads as before: the review of round 24 found that the first of two equal fallbacks won, and a full page under
   * shear read `…PGG…` for `…P6G…` (G and 6 weigh the same in a check digit) from an earlier, unparsed look.
   */
  let fallbackUnparsed = false;
  /** The best reading by pitch (mrz-pitch.ts) of a look whose line text read no valid MRZ: a fallback after `fallback`. */
  let pitchFallback: MrzReading | null = null;
  /** Each look's reading of the document number, by format: see numberReadOtherwise. */
  const numbersRead: { format: MrzFormat; documentNumber: string | null }[] = [];
  /** The text of each look that read no MRZ: see numberReadOtherwise. */
  const unparsedTexts: string[] = [];
  // Round 27: a document small in an upload larger than the working copy (a phone's photo of a document on a desk:
  // its MRZ characters ~7 px in the working copy) is read first from its MRZ region cut out of the upload at full
  // resolution, not from the whole photo, whose looks read it at a third of that (look-alikes, lost fillers).
  const fromUpload = upload !== null && lookForRegion && upload.width > pixels.width && findMrzRegion(pixels) !== null;
  const closer = fromUpload ? await closerLooks(pixels, lookForRegion, upload) : null;
  let attempts: Look[] = [...(closer?.filter((look) => look.region) ?? []), ...bands.map((band) => ({ image: pixels, band }))];
  /** The first look at the whole photo: the closer looks come after it (the region's before it when read from the upload). */
  const firstBand = attempts.length - bands.length;
  let rescaled = false;
  for (let k = 0; k < attempts.length; k++) {
    const look = attempts[k]!;
    const { image, band, width } = look;
    const read = await ocr.readMrzBand(image, band, onQueued, width);
    const first = readMrz(read.text, now);
    const reread = first && !first.valid ? await rereadCheckDigits(first, read, look, ocr, now) : first;
    const numberAlone = reread && (await withNumberReadAlone(reread, read, look, ocr, now));
    const mrz = numberAlone?.valid
      ? await withNameFillersReadAlone(await withCharactersReadAlone(numberAlone, read, look, ocr), read, look, ocr, now)
      : numberAlone;
    if (!mrz?.valid) {
      // The same pass's character boxes (no OCR), kept aside: see mrz-cells.ts. Also where the line text gave no MRZ at
      // all (round 24: a small document's filler runs read short, so that no layout fits the lines as read).
      const cells = readMrzByCells(read, now, mrz);
      const byCells = cells?.valid ? await withCharactersReadAlone(cells, read, look, ocr) : cells;
      const beatsFallback = (reading: MrzReading) =>
        !fallback || faults(reading) < faults(fallback) || (fallbackUnparsed && mrz !== null && faults(reading) === faults(fallback));
      if (byCells && (!mrz || faults(byCells) < faults(mrz)) && beatsFallback(byCells)) {
        fallback = byCells;
        fallbackUnparsed = !mrz;
      }
      // Round 24: a small MRZ (characters ≤ 12 px apart in the image) read cell by cell at its pitch against glyph
      // templates (mrz-pitch.ts; no OCR pass, a few tens of ms), kept aside as the cells' reading is.
      // Below the cells' reading: where both hold, the cells' (the OCR's own characters) is taken (dev seed 3371: a
      // TD1 at 400 px read validly by the cells was read validly otherwise by pitch first).
      const pitch = look.thin ? null : await readMrzByPitch(image, band, width, read, now, mrz);
      const byPitch = pitch?.valid ? await withCharactersReadAlone(pitch, read, look, ocr) : pitch;
      if (byPitch && (!mrz || faults(byPitch) < faults(mrz)) && (!pitchFallback || faults(byPitch) < faults(pitchFallback))) pitchFallback = byPitch;
    }
    if (mrz) numbersRead.push({ format: mrz.format, documentNumber: mrz.documentNumber });
    else unparsedTexts.push(read.text);
    if (mrz && (!best || faults(mrz) < faults(best))) best = mrz;
    if (best?.valid && (best.checkDigitRepairs.length === 0 || width !== undefined)) break;
    if (k === 0) attempts.splice(firstBand + 1, 0, ...(closer?.filter((look) => !look.region) ?? (await closerLooks(pixels, lookForRegion, upload))));
    const thinNext = !look.thin && !mrz?.valid && fillerNoise(read.text) >= MIN_FILLER_NOISE;
    if (thinNext) attempts.splice(k + 1, 0, { ...look, image: await thinStrokes(image), thin: true });
    if (k === firstBand && !mrz) {
      // Looks at the turn where the MRZ band lies come first: a photo taken sideways is not read upright first.
      const turn = await mrzTurn(pixels);
      if (turn) attempts = [...attempts.slice(0, k + 1), ...attempts.slice(k + 1).sort((a, b) => Number((b.band.rotate ?? 0) === turn) - Number((a.band.rotate ?? 0) === turn))];
    }
    if (!mrz) continue;
    const turn = band.rotate ?? 0;
    // Round 24: an MRZ read by a look at the photo's own turn drops the quarter-turned region cuts too. The turned
    // photo of an upright small document yields regions (its print lines), which were read before the whole-photo
    // looks whenever the upright region read an invalid MRZ (round 22: a failing TD1 12 -> 17 s).
    const otherTurn = (other: Look) => (other.band.rotate ?? 0) !== turn || (other.quarterTurned === true && !look.quarterTurned);
    attempts = [...attempts.slice(0, k + 1), ...attempts.slice(k + 1).filter((other) => !otherTurn(other))];
    // A read to be read again thinned is rescaled thinned (the thin look's own reading will ask for it).
    if (!rescaled && !thinNext && widthFor(mrz) < OCR_WIDTH) {
      rescaled = true;
      attempts.splice(k + 1, 0, { ...look, width: widthFor(mrz) });
    } else if (best?.valid) break;
  }
  const aside = pitchFallback && (!fallback || faults(pitchFallback) < faults(fallback)) ? pitchFallback : fallback;
  const chosen = aside && !best?.valid && (!best || faults(aside) < faults(best)) ? aside : best;
  return chosen && numberReadOtherwise(chosen, numbersRead, unparsedTexts) ? { ...chosen, uncertainCharacters: [...chosen.uncertainCharacters, 'documentNumber'] } : chosen;
}

/**
 * Whether another look at the page read the document number of a valid reading, taken as read (no repair, not
 * uncertain), otherwise in the same format: the looks saw different characters, and the check digits, which a wrong
 * number holds by chance one time in ten (round 10, seed 6067: 0HLD6WPDD read OHLDBOWPD at the format's own scale
 * after OHLDBWPDD at the default one; J7V77XN28 read J7VTTXN28 after J7VT77XN2), did the choosing.
 *
 * A look whose lines gave no MRZ at all (round 19, dev seed 4242, an MRV-B photographed at a tilt: its name line read
 * short, so no layout fitted) counts too, where its text holds the reading's nationality, birth date and its check
 * digit on the data line: the nine characters before them, less the number's check digit, are that look's number
 * (`J9GLA5F8P` read `J9GLAS F8P…` by one look and plainly valid as `JIGLASF8P` by the next, 9 as I and 5 as S
 * shifting the check digit by 50). Only when it differs in at most three of the nine places: a look that lost or
 * added a character before the nationality gives nine characters shifted by one, most of them other than the
 * reading's, which are no other reading of the number (round 19 review, dev seeds 4242/5151: `72VJISKN6` for
 * `672VJSKW6`, `6ZNH74ANS` for `36ZNH74MS`, both correct readings sent to review by such a shift).
 */
function numberReadOtherwise(
  reading: MrzReading,
  numbersRead: { format: MrzFormat; documentNumber: string | null }[],
  unparsedTexts: string[],
): boolean {
  const field = 'documentNumber';
  if (!reading.valid || reading.checkDigitRepairs.includes(field) || reading.uncertainCharacters.includes(field)) return false;
  if (numbersRead.some(({ format, documentNumber }) => format === reading.format && documentNumber !== reading.documentNumber)) return true;
  const number = reading.lines[1]!.slice(0, 9);
  return unparsedTexts.some((text) => numberBeforeBirthDate(reading, text).some((other) => [1, 2, 3].includes(differingPlaces(other, number))));
}

/** Characters that differ between two strings of one length, place by place. */
const differingPlaces = (a: string, b: string) => [...a].filter((c, i) => c !== b[i]).length;

/**
 * In a look's text, the nine characters before the number's check digit on each line holding the reading's
 * nationality, birth date and birth date check digit (TD3, TD2 and the visas, whose data line starts with the number).
 */
function numberBeforeBirthDate(reading: MrzReading, text: string): string[] {
  if (!['TD3', 'TD2', 'MRVA', 'MRVB'].includes(reading.format)) return [];
  const anchor = reading.lines[1]!.slice(10, 20);
  return text.split(/\r?\n/).map(cleanLine).flatMap((line) => {
    const at = line.indexOf(anchor);
    return at >= 10 ? [line.slice(at - 10, at - 1)] : [];
  });
}

/** The applicant's MRZ and, when a second document's MRZ reads valid in the same photo, that document. */
export interface ApplicantMrz {
  mrz: MrzReading | null;
  otherDocument: OtherDocument | null;
  /**
   * The MRZ region of the applicant's document when the photo holds two and that document is not the one around the
   * lowest MRZ region, whose page readPrintedPage reads by default (round 23): its printed page is read around this
   * region instead. Null otherwise (one document, or the lowest one's, or a document no region was found for).
   */
  pageRegion: Region | null;
}

const differentDocuments = (a: MrzReading, b: MrzReading) => a.format !== b.format || a.documentNumber !== b.documentNumber;

/**
 * The MRZ of the applicant's document when the photo may hold two (round 22: a passport beside an ID card, or beside
 * another person's passport, each small in the photo). readMrzFromImage reads one of them, whichever its looks
 * reach first. Where findMrzRegions finds two MRZ regions, each is read alone (cut out, as closerLooks does) until a
 * valid reading of another document than the first is found; of two documents the one whose name matches the
 * claimed name is taken, then the larger. A photo with one region, or none (a document filling it), pays only the
 * pixel pass of findMrzRegions: its reading is readMrzFromImage's.
 */
export async function readApplicantMrz(
  pixels: RawPixels,
  ocr: OcrEngine,
  now: Date,
  claimed: { firstName: string; lastName: string },
  onQueued?: OnQueued,
  /** The upload `pixels` was made from (readMrzFromImage). */
  upload: Upload | null = null,
): Promise<ApplicantMrz> {
  const mrz = await readMrzFromImage(pixels, ocr, now, onQueued, MRZ_BANDS, true, upload);
  const regions = findMrzRegions(pixels);
  if (regions.length < 2) return { mrz, otherDocument: null, pageRegion: null };
  /**
   * Valid readings of distinct documents, with the width of the region each was read from (0: the whole photo's look)
   * and that region (null: read by the whole photo's look only).
   */
  const documents: { reading: MrzReading; width: number; region: MrzRegion | null }[] = mrz?.valid ? [{ reading: mrz, width: 0, region: null }] : [];
  /** An MRZ read invalid in a region, of no document read valid: a second document that did not read (round 22). */
  let unread: MrzReading | null = null;
  for (const region of regions) {
    if (documents.length === 2) break;
    const reading = await readMrzFromImage(await cutOutFinest(pixels, region, upload, pixels, { paperOnly: true }), ocr, now, onQueued, [WHOLE], false);
    if (!reading) continue;
    const same = documents.find((known) => !differentDocuments(known.reading, reading));
    const width = region.right - region.left;
    if (!reading.valid) unread ??= same ? null : reading;
    else if (same) {
      same.width = Math.max(same.width, width);
      same.region ??= region;
    } else documents.push({ reading, width, region });
  }
  // Two documents and two regions: the one read by the whole photo's look only lies in the region the other is not in.
  if (documents.length === 2) {
    const known = documents.find((d) => d.region);
    const unplaced = documents.find((d) => !d.region);
    if (known && unplaced) unplaced.region = regions.find((region) => region !== known.region) ?? null;
  }
  /** The page to read for the chosen document: around its region, unless that is the lowest (the default page). */
  const pageOf = (document: { region: MrzRegion | null }) => (document.region && !document.region.lowest ? document.region : null);
  const haveName = Boolean(claimed.firstName || claimed.lastName);
  const nameRank = (reading: MrzReading) => {
    if (!haveName) return 0;
    const { score } = compareNames(claimed, { firstName: reading.firstName ?? '', lastName: reading.lastName ?? '' });
    return score >= THRESHOLDS.namePass ? 2 : score >= THRESHOLDS.nameReview ? 1 : 0;
  };
  const holderName = (reading: MrzReading) => ({ firstName: reading.firstName ?? '', lastName: reading.lastName ?? '' });
  const sameHolderAs = (chosen: MrzReading, other: MrzReading) =>
    chosen.birthDate === other.birthDate && compareNames(holderName(chosen), holderName(other)).score >= THRESHOLDS.namePass;
  if (documents.length < 2) {
    const [only] = documents;
    if (!only) return { mrz, otherDocument: null, pageRegion: null };
    // The one document read valid is not the claimed holder's while another MRZ did not read (MRV-A beside a TD2 on
    // dev seed 2207: the TD2 of another person read plainly): whose document was read is for a human to say.
    const other = unread && nameRank(only.reading) < 2 ? unread : null;
    return {
      mrz: only.reading,
      otherDocument: other && { format: other.format, documentCode: other.documentCode, sameHolder: sameHolderAs(only.reading, other) },
      pageRegion: pageOf(only),
    };
  }
  const [chosen, other] = documents.sort((a, b) => nameRank(b.reading) - nameRank(a.reading) || b.width - a.width) as [(typeof documents)[number], (typeof documents)[number]];
  const sameHolder = sameHolderAs(chosen.reading, other.reading);
  // The same holder, dates and format under two numbers: more likely one document read two ways than two documents,
  // and the check digits chose the number (as numberReadOtherwise).
  const readTwoWays = sameHolder && chosen.reading.format === other.reading.format && chosen.reading.expiryDate === other.reading.expiryDate;
  const applicant = readTwoWays ? { ...chosen.reading, uncertainCharacters: [...new Set([...chosen.reading.uncertainCharacters, 'documentNumber'])] } : chosen.reading;
  return {
    mrz: applicant,
    otherDocument: { format: other.reading.format, documentCode: other.reading.documentCode, sameHolder },
    pageRegion: pageOf(chosen),
  };
}

/** face: the box of the selfie's face, which its quality is measured on. */
function imageSignals(image: DecodedImage, face: DetectedFace | null = null): ImageSignals {
  return {
    field: image.field,
    format: image.format,
    byteLength: image.byteLength,
    sha256: image.sha256,
    width: image.width,
    height: image.height,
    quality: measureQuality(image.pixels, image.width, image.height, face?.box ?? null),
    provenance: image.provenance,
  };
}

function analysable(image: DecodedImage): boolean {
  return Math.min(image.pixels.width, image.pixels.height) >= MIN_ANALYSABLE_SIDE;
}

type DocumentReading = Omit<DocumentSignals, 'perceptualHash' | 'specimenMarks'>;

/** The reading, and every text read on the page on the way (for specimen marks). */
async function readDocument(
  input: AnalyseInput,
  ocr: OcrEngine,
  now: Date,
  onQueued: OnQueued,
): Promise<{ reading: DocumentReading; texts: string[] }> {
  const { documentType, document, metadata } = input;
  const expected = { firstName: metadata.firstName ?? '', lastName: metadata.lastName ?? '' };
  const haveName = Boolean(expected.firstName || expected.lastName);
  const empty = { type: documentType, mrz: null, nameMatch: null, text: null, visualZone: null, otherDocument: null };
  const texts: string[] = [];
  if (!analysable(document)) return { reading: empty, texts };

  if (MRZ_DOCUMENT_TYPES.includes(documentType)) {
    // Most licences carry no MRZ: they are not turned around looking for one before their printed text is read.
    const licence = documentType === 'driving_licence';
    // One general-alphabet pass over the page above the MRZ: searched for a SPECIMEN mark, and for the MRZ's values
    // (the visual zone) when the MRZ is valid. It does not depend on the reading, so on a passport or ID card, which
    // nearly always has an MRZ, it runs beside the MRZ reading on the OCR's free-text thread; a licence waits.
    const readPage = () => readPrintedPage(document.pixels, ocr, null, document);
    const printedAhead = licence ? null : readPage();
    printedAhead?.catch(() => undefined); // a failure is reported where it is awaited, not as an unhandled rejection
    const { mrz, otherDocument, pageRegion } = licence
      ? { mrz: await readMrzFromImage(document.pixels, ocr, now, onQueued, MRZ_BANDS.slice(0, 2), false), otherDocument: null, pageRegion: null }
      : await readApplicantMrz(document.pixels, ocr, now, expected, onQueued, document);
    if (mrz) {
      // Two documents, the applicant's not the one around the lowest MRZ (round 23): its own page, read now; the page
      // read ahead was the other document's, and a tampered page of the applicant's went unseen.
      if (pageRegion) await printedAhead?.catch(() => undefined);
      const printed = await (pageRegion ? readPrintedPage(document.pixels, ocr, pageRegion, document) : (printedAhead ?? readPage()));
      texts.push(printedText(printed));
      const onDocument = { firstName: mrz.firstName ?? '', lastName: mrz.lastName ?? '' };
      const visualZone = mrz.valid ? compareVisualZone(mrz, printed) : null;
      const confirmed = mrz.valid ? confirmedInPrint(mrz, printed) : [];
      const nameMatch = haveName ? compareNames(expected, onDocument) : null;
      return { reading: { ...empty, mrz, nameMatch, visualZone, confirmedInPrint: confirmed, otherDocument }, texts };
    }
    if (documentType !== 'driving_licence') {
      await printedAhead?.catch(() => undefined); // unused, but no work of this check outlives it
      return { reading: empty, texts };
    }
  }

  const fullText = await ocr.readText(document.pixels, onQueued);
  texts.push(fullText);
  const dates = findDates(fullText);
  const text: TextReading = {
    nameScore: haveName ? findNameInText(expected, fullText) : null,
    address: findAddress(fullText),
    dates,
    issueDate: latestPastDate(dates, now),
    characters: fullText.replace(/\s+/g, '').length,
  };
  return { reading: { ...empty, text }, texts };
}

function largest(faces: DetectedFace[]): DetectedFace | null {
  return faces.reduce<DetectedFace | null>((best, f) => (!best || f.box[2] * f.box[3] > best.box[2] * best.box[3] ? f : best), null);
}

async function compareFaces(input: AnalyseInput, face: FaceEngine): Promise<{ signals: FaceSignals; selfieFace: DetectedFace | null }> {
  const selfieFaces = analysable(input.selfie) ? await face.detect(input.selfie.pixels) : [];
  const wantsDocumentFace = input.documentType !== 'proof_of_address';
  const documentFaces =
    wantsDocumentFace && analysable(input.document) ? await face.detect(input.document.pixels, { livenessModels: false }) : [];
  const selfieFace = largest(selfieFaces);
  const documentFace = largest(documentFaces);
  const similarity =
    selfieFace && documentFace
      ? faceSimilarity(await face.describe(input.selfie.pixels, selfieFace), await face.describe(input.document.pixels, documentFace))
      : null;
  return {
    selfieFace,
    signals: {
      selfieFaces: selfieFaces.length,
      documentFaces: wantsDocumentFace ? documentFaces.length : null,
      selfieFaceScore: selfieFace?.score ?? null,
      documentFaceScore: documentFace?.score ?? null,
      similarity: similarity === null ? null : Math.round(similarity * 1000) / 1000,
      selfieReal: selfieFace?.real ?? null,
      selfieLive: selfieFace?.live ?? null,
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, Math.round(performance.now() - start)];
}

export async function analyseImages(input: AnalyseInput, models: AnalysisModels): Promise<KycSignals> {
  const now = new Date(input.now);
  // OCR runs in tesseract's own thread and the face model on this one. The face model holds this thread for
  // hundreds of milliseconds at a time, so it starts only once the first OCR job has been handed over; otherwise
  // the OCR image preparation would wait behind it and the two would hardly overlap.
  let ocrQueued!: () => void;
  const ocrHandedOver = new Promise<void>((resolve) => (ocrQueued = resolve));
  const reading = timed(() => readDocument(input, models.ocr, now, ocrQueued)).finally(ocrQueued);
  reading.catch(() => undefined); // an OCR failure is reported by Promise.all below, not as an unhandled rejection
  await ocrHandedOver;
  await new Promise<void>((resolve) => setImmediate(resolve));
  // Quality and the hash need no reading: measured once the faces are, while the OCR reads on.
  const measured = timed(() => compareFaces(input, models.face)).then(([{ signals: face, selfieFace }, faceMs]) => {
    const qualityStart = performance.now();
    const document = imageSignals(input.document);
    const selfie = imageSignals(input.selfie, selfieFace);
    const qualityMs = Math.round(performance.now() - qualityStart);
    return { face, faceMs, document, selfie, qualityMs, perceptualHash: differenceHash(input.document.pixels) };
  });
  const [[{ reading: documentReading, texts }, ocrMs], { face, faceMs, document, selfie, qualityMs, perceptualHash }] = await Promise.all([
    reading,
    measured,
  ]);
  return {
    version: 1,
    analysedAt: now.toISOString(),
    documentType: input.documentType,
    document,
    selfie,
    documentReading: { ...documentReading, perceptualHash, specimenMarks: specimenMarks({ mrz: documentReading.mrz, texts, perceptualHash }) },
    face,
    timings: { qualityMs, ocrMs, faceMs },
  };
}
