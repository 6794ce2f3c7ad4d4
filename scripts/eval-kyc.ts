// Document reading on generated specimens (npm run eval:kyc): every MRZ format (TD3, TD2, TD1, MRV-A, MRV-B, French
// ID) rendered for seeded random holders, then degraded as phone photos and scans are. Measures, per format and
// degradation, the share of valid MRZ readings (every check digit, composite included) that are also correct (number
// and dates equal to what was printed), and the reading latency. Then the visual zone (visual-zone.ts) of every
// valid reading: per field and format the share read as matching the MRZ, false mismatches on genuine pages, and the
// mismatches found on a tampered twin of each page (printed number, surname or birth date changed, MRZ genuine),
// with that step's latency. Images are generated in memory, never stored.
// Independent measurement on real specimens is done elsewhere: nothing here is tuned on them.
// The MRZ is printed in OCR-B (the face real documents use) or DejaVu Sans Mono, drawn per holder, at a slightly
// varied size and letter spacing; figures are given per format and face.
//   npm run eval:kyc [-- --per-cell 3] [--holders N] [--only clean,shadow] [--formats TD1,MRVB] [--show-failures] [--seed N] [--mrz-only] [--mrz-font ocrb]
// Reported figures use the default seed; work on the reader is tried on other seeds first (a development split).
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp, { type Sharp } from 'sharp';
import { seededRandom } from '../src/kya/training/dataset.ts';
import { levenshtein } from '../src/edit-distance.ts';
import { readApplicantMrz } from '../src/kyc/analyse.ts';
import { decodeImage, type DecodedImage } from '../src/kyc/intake.ts';
import { readMrz, type MrzReading } from '../src/kyc/mrz.ts';
import { createOcrEngine, type OcrEngine } from '../src/kyc/ocr.ts';
import { mrzDoubts, REASONS } from '../src/kyc/decision.ts';
import { compareVisualZone, confirmedInPrint, readPrintedPage, VISUAL_FIELDS, type PrintedLine, type VisualField, type VisualZoneComparison } from '../src/kyc/visual-zone.ts';
import type { Region } from '../src/kyc/skew.ts';
import {
  composeMrz, DATE_STYLES, MRZ_FACES, MRZ_FORMATS, renderDocument, type DateStyle, type MrzFace, type MrzPrint, type PassportHolder, type SpecimenFormat,
} from './make-kyc-specimen.ts';

const perCellArg = process.argv.indexOf('--per-cell');
const PER_CELL = perCellArg > 0 ? Number(process.argv[perCellArg + 1]) : 3;
/**
 * `--holders N`: distinct holders per document type, dealt over the readings in turn (reading k of a format, cells in
 * order, goes to holder k mod N). Until round 7 every cell of a format read the same `--per-cell` holders, so a
 * format's rate rested on 3 holders and swung with one of them; the default gives every reading its own holder at
 * the same number of readings (and OCR time). `--holders 3` with `--per-cell 3` draws the old yardstick's holders,
 * print styles and tampered twins, but not necessarily its readings: the loop order changed in round 7, and
 * tesseract's state depends on what it read before.
 */
const holdersArg = process.argv.indexOf('--holders');
/** `--only shadow,glare` measures some degradations only (the seeded holders stay the same). */
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : null;
/** `--formats MRVA,MRVB` measures some formats only. */
const formatsArg = process.argv.indexOf('--formats');
const FORMATS = formatsArg > 0 ? new Set(process.argv[formatsArg + 1]!.split(',')) : null;
/** `--show-failures` prints what was read when no valid MRZ was, and each MRZ-band pass of a reading not valid and correct. */
const SHOW_FAILURES = process.argv.includes('--show-failures');
/** `--mrz-font ocrb` (or `dejavu`) prints every MRZ in that face; by default each holder draws one, half each. */
const fontArg = process.argv.indexOf('--mrz-font');
const MRZ_FONT = fontArg > 0 ? (process.argv[fontArg + 1] as MrzFace) : null;
if (MRZ_FONT && !(MRZ_FONT in MRZ_FACES)) throw new Error(`--mrz-font: one of ${Object.keys(MRZ_FACES).join(', ')}`);
/** `--mrz-only` skips the visual zone and the tampered twins: the MRZ figures in about a third of the time. */
const MRZ_ONLY = process.argv.includes('--mrz-only');
const NOW = new Date('2026-06-01T12:00:00Z');
const seedArg = process.argv.indexOf('--seed');
const SEED = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 9303;
const random = seededRandom(SEED);
/**
 * Noise has a generator of its own per reading, seeded from (seed, format, degradation, reading; the reading fixes
 * the holder), so that --only leaves the holders unchanged and a run of some cells (--formats, --only) draws for
 * each reading the noise the full run draws. Until round 19 one generator was drawn from in reading order, so a
 * cell's noise depended on which cells were measured before it.
 */
const noiseRandomFor = (format: string, degradation: string, reading: number) =>
  seededRandom(createHash('sha256').update(`${SEED}|${format}|${degradation}|${reading}`).digest().readUInt32LE(0));
/**
 * The generator of a reading of the cells read after the twelve first (round 21 on): it draws the reading's holder,
 * print and, for the two-document cells, the other document, so those readings do not move the holders above.
 */
const holderRandomFor = (format: string, cell: string, reading: number) =>
  seededRandom(createHash('sha256').update(`${SEED}|${format}|${cell}|${reading}|holder`).digest().readUInt32LE(0));
/** So has the visual zone's print (date style, tampering): the holders stay those of the MRZ figures. */
const visualRandom = seededRandom(15);
/** And the MRZ's print (face, size, letter spacing): round 12, drawn after the round-11 holders' draws, which stay. */
const printRandom = seededRandom(16);
const pick = <T>(items: readonly T[], rand = random): T => items[Math.floor(rand() * items.length)]!;

const SURNAMES = ['ERIKSSON', 'MUELLER', 'GARCIA LOPEZ', 'OKAFOR', 'NGUYEN', 'KOWALSKA', 'DUBOIS', 'SILVA', 'TANAKA', 'ODONNELL'];
const GIVEN = ['ANNA MARIA', 'JEAN PIERRE', 'LI', 'CHIDI', 'OLGA', 'MOHAMMED ALI', 'SOFIA', 'KENJI', 'LUCAS', 'BRIDGET'];
const STATES = ['SWE', 'DEU', 'FRA', 'NGA', 'VNM', 'POL', 'BRA', 'JPN', 'IRL', 'UTO'];
const ALNUM = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

const digits = (n: number, from: number, to: number, rand = random) => String(from + Math.floor(rand() * (to - from + 1))).padStart(n, '0');

/** `rand`: the shared holder generator, or (small-document cells, round 21) a generator of the reading's own. */
function randomHolder(rand = random): PassportHolder {
  const state = pick(STATES, rand);
  return {
    surname: pick(SURNAMES, rand),
    givenNames: pick(GIVEN, rand),
    issuingState: state,
    nationality: state,
    documentNumber: Array.from({ length: 9 }, () => pick([...ALNUM], rand)).join(''),
    birthDate: digits(2, 40, 99, rand) + digits(2, 1, 12, rand) + digits(2, 1, 28, rand),
    sex: pick(['F', 'M'] as const, rand),
    expiryDate: digits(2, 27, 35, rand) + digits(2, 1, 12, rand) + digits(2, 1, 28, rand),
    personalNumber: rand() < 0.5 ? digits(8, 0, 99_999_999, rand) : '',
  };
}

/**
 * The page of another holder (another surname: the claimed name is what tells the two documents apart), of any
 * format, for the cells with two documents in one photo; drawn from the reading's own generator.
 */
async function otherHoldersPage(holder: PassportHolder, dateStyle: DateStyle, rand: () => number): Promise<Buffer> {
  let other = randomHolder(rand);
  while (other.surname === holder.surname) other = randomHolder(rand);
  return renderDocument(pick(MRZ_FORMATS, rand), other, { dateStyle, mrzPrint: randomPrint(rand) });
}

/** Real MRZs differ a little in size and letter spacing between issuers and printers. */
function randomPrint(rand = printRandom): MrzPrint {
  const face: MrzFace = rand() < 0.5 ? 'ocrb' : 'dejavu';
  return { face: MRZ_FONT ?? face, size: 0.92 + 0.08 * rand(), spacing: 0.05 * rand() };
}

/** What a tampered page changes in print, and the field that should then read as a mismatch. */
const TAMPERINGS = ['documentNumber', 'surname', 'birthDate'] as const satisfies readonly VisualField[];
type Tampering = (typeof TAMPERINGS)[number];

/** The holder as a forger prints them: one or two characters of the number, another surname, or a birth year moved. */
function tampered(holder: PassportHolder, field: Tampering, rand = visualRandom): PassportHolder {
  const other = <T>(items: readonly T[], not: T): T => {
    const choices = items.filter((item) => item !== not);
    return choices[Math.floor(rand() * choices.length)]!;
  };
  switch (field) {
    case 'documentNumber': {
      const number = [...holder.documentNumber];
      const places = rand() < 0.5 ? 1 : 2;
      for (let k = 0; k < places; k++) {
        const at = Math.floor(rand() * number.length);
        number[at] = other([...ALNUM], number[at]!);
      }
      return { ...holder, documentNumber: number.join('') };
    }
    case 'surname':
      return { ...holder, surname: other(SURNAMES, holder.surname) };
    case 'birthDate': {
      const year = (Number(holder.birthDate.slice(0, 2)) + 1 + Math.floor(rand() * 9)) % 100;
      return { ...holder, birthDate: String(Math.max(year, 40)).padStart(2, '0') + holder.birthDate.slice(2) };
    }
  }
}

/** `noise`: the reading's noise generator, seeded afresh for each page read (its tampered twin gets the same noise). */
type Degrade = (png: Buffer, noise: () => number) => Promise<Buffer>;

const jpeg = (image: Sharp, quality = 85) => image.jpeg({ quality }).toBuffer();

async function overlay(png: Buffer, svg: (width: number, height: number) => string): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  return jpeg(sharp(png).composite([{ input: Buffer.from(svg(width, height)) }]));
}

/** Grey scanner noise (seeded), as a semi-transparent layer. */
async function withNoise(png: Buffer, amplitude: number, noiseRandom: () => number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const noise = Buffer.alloc(width * height * 2);
  for (let i = 0; i < width * height; i++) {
    noise[2 * i] = noiseRandom() < 0.5 ? 0 : 255;
    noise[2 * i + 1] = Math.floor(noiseRandom() * amplitude);
  }
  return jpeg(sharp(png).composite([{ input: noise, raw: { width, height, channels: 2 } }]), 80);
}

/** The document lying on a table, photographed: a margin, a slight turn, camera resolution. */
async function photographed(png: Buffer, angle: number, width: number): Promise<Buffer> {
  const turned = await sharp(png).rotate(angle, { background: '#5b4a3a' }).extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#5b4a3a' }).png().toBuffer();
  return jpeg(sharp(turned).resize({ width }).modulate({ brightness: 0.95 }), 80);
}

const DEGRADATIONS: Record<string, Degrade> = {
  clean: (png) => jpeg(sharp(png), 90),
  'photo 800 px': (png) => photographed(png, 0, 800),
  'photo tilt 3°': (png) => photographed(png, 3, 1200),
  'rotated 90°': (png) => jpeg(sharp(png).rotate(90)),
  'rotated 180°': (png) => jpeg(sharp(png).rotate(180)),
  'blur σ1.5': (png) => jpeg(sharp(png).blur(1.5)),
  'jpeg q30': (png) => jpeg(sharp(png), 30),
  'low res 600×400': (png) => jpeg(sharp(png).resize(600, 400, { fit: 'inside' })),
  glare: (png) =>
    overlay(png, (w, h) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="0.9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${w * 0.6}" cy="${h * 0.45}" rx="${w * 0.25}" ry="${h * 0.25}" fill="url(#g)"/></svg>`),
  shadow: (png) =>
    overlay(png, (w, h) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="s" x1="0" x2="1"><stop offset="0" stop-color="#000" stop-opacity="0.55"/><stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#s)"/></svg>`),
  'scanner noise': (png, noise) => withNoise(png, 70, noise),
  'shear (perspective)': async (png) => jpeg(sharp(png).affine([[1, 0.06], [0.02, 1]], { background: '#ffffff' })),
};

/**
 * Small and low-resolution documents (round 21, issue #14: 16 of the 34 real specimen images are under 400 px on the
 * short side). The page is shrunk as a camera or an upload does it: sharp's area shrink, then bilinear, then JPEG.
 * At 320 px a TD3 line is ~6.7 px per character and its characters ~8 px tall. These cells are read after every
 * cell above, with holders (and print) of their own drawn per reading, so the cells above read the same holders in
 * the same order as before round 21.
 */
const shrunk = (png: Buffer, width: number, quality = 85) => jpeg(sharp(png).resize({ width, kernel: 'linear' }), quality);

const FRAME = { width: 1024, height: 768 };
/** A phone camera's photo (round 27): the analysis's working copy is 1600 px wide, a third of it. */
const LARGE_FRAME = { width: 4032, height: 3024 };
type Frame = typeof FRAME;

/** A table top: coarse random grain stretched into streaks (wood-like), tinted, with fine grain over it. */
async function tableTop(noise: () => number, frame: Frame = FRAME): Promise<Buffer> {
  const [w, h] = [64, 12];
  const coarse = Buffer.alloc(w * h * 3);
  const tint = [0.62 + 0.2 * noise(), 0.48 + 0.12 * noise(), 0.34 + 0.1 * noise()];
  for (let i = 0; i < w * h; i++) {
    const v = 120 + 100 * noise();
    for (let c = 0; c < 3; c++) coarse[3 * i + c] = Math.round(v * tint[c]!);
  }
  const streaks = await sharp(coarse, { raw: { width: w, height: h, channels: 3 } }).resize(frame.width, frame.height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
  for (let i = 0; i < streaks.length; i++) streaks[i] = Math.max(0, Math.min(255, streaks[i]! + Math.round(24 * (noise() - 0.5))));
  return sharp(streaks, { raw: { ...frame, channels: 3 } }).png().toBuffer();
}

/** The page at `share` of the photo's width, turned by `angle` degrees on a transparent background. */
async function smallDocument(png: Buffer, share: number, angle: number, frame: Frame = FRAME): Promise<Buffer> {
  const width = Math.round(frame.width * share);
  return sharp(await sharp(png).resize({ width, kernel: 'linear' }).png().toBuffer())
    .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/**
 * The document photographed small: ~40 % of a 1024×768 photo's width (or `share` of `frame`'s), turned up to ±2°
 * (plus `quarter`), somewhere on a table.
 */
async function smallInFrame(png: Buffer, noise: () => number, quarter = 0, frame: Frame = FRAME, share = (n: number) => 0.38 + 0.04 * n): Promise<Buffer> {
  const document = await smallDocument(png, share(noise()), quarter + 4 * (noise() - 0.5), frame);
  const { width: dw = 0, height: dh = 0 } = await sharp(document).metadata();
  const left = Math.round((frame.width - dw) * (0.1 + 0.8 * noise()));
  const top = Math.round((frame.height - dh) * (0.1 + 0.8 * noise()));
  return jpeg(sharp(await tableTop(noise, frame)).composite([{ input: document, left, top }]).modulate({ brightness: 0.95 }), 80);
}

/**
 * Two documents photographed side by side (round 22): the applicant's and another holder's (`other`), each at
 * 34–44 % of the photo's width, turned up to ±2°, left or right and at any height; in half the photos the
 * applicant's is the larger, in the other half the other one is (then only the claimed name tells them apart).
 */
async function twoInFrame(png: Buffer, other: Buffer, noise: () => number): Promise<Buffer> {
  const [large, small] = [0.4 + 0.04 * noise(), 0.34 + 0.04 * noise()];
  const applicantLarger = noise() < 0.5;
  const documents = await Promise.all([
    smallDocument(png, applicantLarger ? large : small, 4 * (noise() - 0.5)),
    smallDocument(other, applicantLarger ? small : large, 4 * (noise() - 0.5)),
  ]);
  if (noise() < 0.5) documents.reverse();
  const sizes = await Promise.all(documents.map((d) => sharp(d).metadata()));
  const gap = Math.max(8, FRAME.width - (sizes[0]!.width ?? 0) - (sizes[1]!.width ?? 0));
  let left = Math.round(gap * 0.3 * noise());
  const placed = documents.map((input, k) => {
    const top = Math.round((FRAME.height - (sizes[k]!.height ?? 0)) * (0.1 + 0.8 * noise()));
    const at = { input, left, top };
    left += (sizes[k]!.width ?? 0) + Math.round(gap * (0.2 + 0.3 * noise()));
    return at;
  });
  return jpeg(sharp(await tableTop(noise)).composite(placed).modulate({ brightness: 0.95 }), 80);
}

const SMALL_DEGRADATIONS: Record<string, Degrade> = {
  'small 480 px': (png) => shrunk(png, 480),
  'small 400 px': (png) => shrunk(png, 400),
  'small 320 px': (png) => shrunk(png, 320),
  'small scan 440 px q50': (png) => shrunk(png, 440, 50),
  'small in 1024×768 photo': (png, noise) => smallInFrame(png, noise),
  // Round 27: a phone's photo, the document at 30–40 % of its width; the 1600 px working copy holds it at ~560 px,
  // the upload at ~1400 px (the page is rendered at ~1100 px, so slightly upscaled into the photo).
  'small in 4032×3024 photo': (png, noise) => smallInFrame(png, noise, 0, LARGE_FRAME, (n) => 0.3 + 0.1 * n),
};

/**
 * Round 22 (issue #14), read after every cell above, with holders of their own: a small document turned a quarter
 * (90° or 270°, drawn per reading) on a table, and two documents in one photo (the second one another holder's,
 * of a format drawn per reading, rendered by `degrade`'s caller). The applicant's document is read with the claimed
 * name (readApplicantMrz), as a check reads it.
 */
const QUARTER_CELL = 'small turned 90°/270° in photo';
const TWO_DOCUMENTS_CELL = 'two documents in photo';
const ROUND_22_CELLS = [QUARTER_CELL, TWO_DOCUMENTS_CELL];

/**
 * Round 23 (issue #14), read after every cell above, with holders of their own: two documents one above the other
 * (the applicant's above in half of them; the second another holder's, of a format drawn per reading), and a clean
 * page (JPEG q90) whose tampered twin prints a birth date no calendar has (impossibleBirthDate), the MRZ genuine.
 */
const STACKED_CELL = 'two documents stacked in photo';
const IMPOSSIBLE_DATE_CELL = 'impossible printed birth date (clean)';
const ROUND_23_CELLS = [STACKED_CELL, IMPOSSIBLE_DATE_CELL];
/** A word gate below CONFIDENT_WORD: what the visual zone would flag if doubtful reads counted (measured, not used). */
const DOUBTFUL_GATE = 60;

/** Two documents one above the other: each at 30–37 % of the photo's width, any left offset, a gap drawn per reading. */
async function stackedInFrame(png: Buffer, other: Buffer, noise: () => number): Promise<Buffer> {
  const applicantAbove = noise() < 0.5;
  const documents = await Promise.all([
    smallDocument(png, 0.3 + 0.07 * noise(), 4 * (noise() - 0.5)),
    smallDocument(other, 0.3 + 0.07 * noise(), 4 * (noise() - 0.5)),
  ]);
  if (!applicantAbove) documents.reverse();
  const sizes = await Promise.all(documents.map((d) => sharp(d).metadata()));
  const heights = sizes.map((size) => size.height ?? 0);
  const room = Math.max(8, FRAME.height - heights[0]! - heights[1]!);
  const gap = Math.round(8 + (room - 8) * 0.6 * noise());
  let top = Math.round((room - gap) * noise());
  const placed = documents.map((input, k) => {
    const left = Math.round((FRAME.width - (sizes[k]!.width ?? 0)) * (0.05 + 0.9 * noise()));
    const at = { input, left, top };
    top += heights[k]! + gap;
    return at;
  });
  return jpeg(sharp(await tableTop(noise)).composite(placed).modulate({ brightness: 0.95 }), 80);
}

/**
 * The holder with a printed birth date no calendar has, the year kept: a hand-made change of the page. Month names
 * (`month`, `bilingual` styles) get day 31 of a 30-day month or 30/31 February; numeric styles month 13 or day 32–39.
 */
function impossibleBirthDate(holder: PassportHolder, numeric: boolean, rand: () => number): PassportHolder {
  const [yy, mm, dd] = [holder.birthDate.slice(0, 2), holder.birthDate.slice(2, 4), holder.birthDate.slice(4, 6)];
  const first = rand() < 0.5;
  const short = ['04', '06', '09', '11'][Math.floor(rand() * 4)]!;
  const [month, day] = numeric
    ? first ? ['13', dd] : [mm, `3${2 + Math.floor(rand() * 8)}`]
    : first ? [short, '31'] : ['02', rand() < 0.5 ? '30' : '31'];
  return { ...holder, birthDate: yy + month + day };
}

interface Outcome {
  valid: boolean;
  correct: boolean;
  /** Correct, and every other field as printed too (format, names, states, sex, optional data): no check digit covers names. */
  exact: boolean;
  /**
   * Valid only through a repair a check digit chose, or with characters the check digits cannot vouch for
   * (uncertainCharacters): such a document goes to review, never a straight pass.
   */
  review: boolean;
  /**
   * Why a valid reading is in review: `repair:<field>` (checkDigitRepairs), `uncertain:<field>` (uncertainCharacters)
   * that the printed page does not confirm (round 27: confirmedInPrint; without --mrz-only), another holder's document.
   */
  reviewReasons: string[];
  /** In review by the rule before round 27, every repair and uncertain character counted: confirmed or not. */
  reviewUnconfirmed: boolean;
  /** Fields whose repair or doubt the printed page confirmed (round 27): `confirmed:<field>`. */
  confirmed: string[];
  ms: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const pct = (outcomes: Outcome[], key: 'valid' | 'correct' | 'exact' | 'review') =>
  `${Math.round((100 * outcomes.filter((o) => o[key]).length) / Math.max(1, outcomes.length))} %`;

interface VisualOutcome {
  format: string;
  degradation: string;
  comparison: VisualZoneComparison;
  /** The field a tampered page changed; null on a genuine page. */
  tampered: Tampering | null;
  /** The same page compared with a value under a label counted as read from DOUBTFUL_GATE (round 23, measured only). */
  doubtful: VisualZoneComparison;
  /** The MRZ fields the page prints exactly (round 27). */
  confirmed: VisualField[];
  /** The page's reading would pass the document check on the MRZ's doubts and the visual zone: before round 27 / after. */
  passes: { unconfirmed: boolean; confirmed: boolean };
  ms: number;
}

/** `pageRegion`: readApplicantMrz's (round 23; main's reader has none: the page around the lowest MRZ is read). */
async function visualZone(document: DecodedImage, mrz: MrzReading | null, ocr: OcrEngine, pageRegion: Region | null | undefined) {
  if (!mrz?.valid) return null;
  const start = performance.now();
  const printed = await readPrintedPage(document.pixels, ocr, pageRegion ?? null, document);
  const comparison = compareVisualZone(mrz, printed);
  const confirmed = confirmedInPrint(mrz, printed);
  const passes = (byPrint: VisualField[]) =>
    !VISUAL_FIELDS.some((field) => comparison[field] === 'mismatch') && mrzDoubts(mrz, byPrint).every((doubt) => REASONS[doubt.code].effect === 'info');
  return {
    comparison,
    printed,
    doubtful: compareVisualZone(mrz, printed, DOUBTFUL_GATE),
    confirmed,
    passes: { unconfirmed: passes([]), confirmed: passes(confirmed) },
    ms: performance.now() - start,
  };
}

/** The page's run of one to three words nearest to `number`, with its characters' confidences (--show-failures). */
function nearestPrintedRun(lines: PrintedLine[], number: string): string {
  let best = { distance: Infinity, text: 'nothing' };
  for (const line of lines) {
    for (let start = 0; start < line.length; start++) {
      for (let end = start + 1; end <= Math.min(line.length, start + 3); end++) {
        const words = line.slice(start, end);
        const distance = levenshtein(words.map((w) => w.text).join(''), number.replace(/</g, ''));
        if (distance < best.distance) best = { distance, text: words.map((w) => `${w.text} (${w.confidence.toFixed(0)}: ${w.characters?.map((c) => c.toFixed(0)).join(',')})`).join(' ') };
      }
    }
  }
  return best.text;
}

/**
 * The engine, keeping what each MRZ-band pass read (turn, scale, raw lines) since the last `take()`: printed with
 * --show-failures beside a reading that failed or read wrong.
 */
function recordingBandReads(engine: OcrEngine): { ocr: OcrEngine; take: () => string[] } {
  let reads: string[] = [];
  const ocr: OcrEngine = {
    ...engine,
    async readMrzBand(pixels, band, onQueued, width) {
      const read = await engine.readMrzBand(pixels, band, onQueued, width);
      const lines = read.text.split('\n').filter((line) => line.trim().length >= 20);
      reads.push(`[${band.rotate ?? 0}° ${band.top.toFixed(2)}–${band.bottom.toFixed(2)} w${width ?? 'default'}] ${lines.join(' / ')}`);
      return read;
    },
  };
  return { ocr, take: () => [reads, (reads = [])][0]! };
}

async function main(): Promise<void> {
  const engine = await createOcrEngine();
  const { ocr, take: takeBandReads } = recordingBandReads(engine);
  const results = new Map<string, Outcome[]>();
  const visual: VisualOutcome[] = [];
  const record = (key: string, outcome: Outcome) => results.set(key, [...(results.get(key) ?? []), outcome]);
  const readingsPerFormat = PER_CELL * Object.keys(DEGRADATIONS).length;
  const HOLDERS = holdersArg > 0 ? Number(process.argv[holdersArg + 1]) : readingsPerFormat;
  /** Distinct holders read per format (fewer than HOLDERS with --only). */
  const holdersRead = new Map<string, Set<number>>();
  /** Per format, its small-document cells (SMALL_DEGRADATIONS), read once every format's other cells are. */
  const smallCells: (() => Promise<void>)[] = [];
  try {
    for (const format of MRZ_FORMATS) {
      // Every format draws its holders (and their print) whether measured or not, so --formats and --only keep them.
      const holders = Array.from({ length: HOLDERS }, (_, n) => {
        const holder = randomHolder();
        const dateStyle = DATE_STYLES[Math.floor(visualRandom() * DATE_STYLES.length)]!;
        const tampering = TAMPERINGS[(MRZ_FORMATS.indexOf(format) + n) % TAMPERINGS.length]!;
        return { holder, dateStyle, tampering, printed: tampered(holder, tampering), mrzPrint: randomPrint(), pages: null as null | Promise<{ page: Buffer; forged: Buffer | null }> };
      });
      if (FORMATS && !FORMATS.has(format)) continue;
      const pagesOf = (entry: (typeof holders)[number]) =>
        (entry.pages ??= (async () => ({
          page: await renderDocument(format as SpecimenFormat, entry.holder, { dateStyle: entry.dateStyle, mrzPrint: entry.mrzPrint }),
          forged: MRZ_ONLY ? null : await renderDocument(format as SpecimenFormat, entry.holder, { dateStyle: entry.dateStyle, mrzPrint: entry.mrzPrint, printed: entry.printed }),
        }))());
      type Entry = (typeof holders)[number];
      /** One reading: `label` names the holder in what is printed (its index, or the small cells' own draw). */
      const measure = async (name: string, degrade: Degrade, entry: Entry, reading: number, label: string) => {
        const { holder, dateStyle, tampering, printed, mrzPrint } = entry;
        const { page, forged } = await pagesOf(entry);
        const truth = readMrz(composeMrz(format, holder).join('\n'), NOW)!;
        const document = await decodeImage('documentImage', await degrade(page, noiseRandomFor(format, name, reading)));
        const start = performance.now();
        takeBandReads();
        const claimed = { firstName: holder.givenNames, lastName: holder.surname };
        const applicant: { mrz: MrzReading | null; otherDocument: { format: string; sameHolder: boolean } | null; pageRegion?: Region | null } = await readApplicantMrz(document.pixels, ocr, NOW, claimed, undefined, document);
        const { mrz, otherDocument } = applicant;
        const ms = performance.now() - start;
        const bandReads = takeBandReads();
        const valid = mrz?.valid === true;
        const correct = valid && mrz.documentNumber === truth.documentNumber && mrz.birthDate === truth.birthDate && mrz.expiryDate === truth.expiryDate;
        const unchecked = ['format', 'documentCode', 'issuingState', 'nationality', 'sex', 'lastName', 'firstName', 'personalNumber'] as const;
        const differing = valid ? unchecked.filter((field) => mrz[field] !== truth[field]) : [];
        const exact = correct && differing.length === 0;
        if (SHOW_FAILURES && correct && !exact) console.log(`correct but not as printed: ${format} ${name} holder ${label} ${mrzPrint.face} ${differing.map((f) => `${f} ${mrz[f]} for ${truth[f]}`).join(', ')}`);
        // Round 27: the page is read before the outcome, so that its confirmations count (the visual zone's figures below).
        const genuine = MRZ_ONLY ? null : await visualZone(document, mrz, ocr, applicant.pageRegion);
        const otherHolder = otherDocument && !otherDocument.sameHolder ? [`other document:${otherDocument.format}`] : [];
        const doubtLabel = { mrz_repaired_by_check_digit: 'repair', mrz_uncertain_character: 'uncertain' } as Record<string, string>;
        const doubts = valid ? mrzDoubts(mrz, genuine?.confirmed ?? []).map((d) => `${doubtLabel[d.code] ?? 'confirmed'}:${d.detail}`) : [];
        const reviewReasons = [...doubts.filter((d) => !d.startsWith('confirmed:')), ...(valid ? otherHolder : [])];
        const reviewUnconfirmed = valid && (doubts.length > 0 || otherHolder.length > 0);
        const confirmed = doubts.filter((d) => d.startsWith('confirmed:'));
        const outcome = { valid, correct, exact, review: reviewReasons.length > 0, reviewReasons, reviewUnconfirmed, confirmed, ms };
        record(`${format}|${name}`, outcome);
        record(`${format}|*`, outcome);
        record(`${format} ${mrzPrint.face}|*`, outcome);
        record(`${mrzPrint.face}|*`, outcome);
        record(`*|${name}`, outcome);
        record('*|*', outcome);
        if (name in SMALL_DEGRADATIONS) {
          record(`${format}|small`, outcome);
          record('*|small', outcome);
        }
        if (ROUND_22_CELLS.includes(name)) {
          record(`${format}|round 22`, outcome);
          record('*|round 22', outcome);
        }
        if (ROUND_23_CELLS.includes(name)) {
          record(`${format}|round 23`, outcome);
          record('*|round 23', outcome);
        }
        if (SHOW_FAILURES && correct && outcome.review) console.log(`correct in review: ${format} ${name} holder ${label} ${mrzPrint.face} ${reviewReasons.join(',')}`);
        if (valid && !correct) console.log(`valid but wrong: ${format} ${name} holder ${label} ${mrzPrint.face} ${mrz.lines.join(' / ')} (repairs ${mrz.checkDigitRepairs.join(',') || 'none'}; uncertain ${mrz.uncertainCharacters.join(',') || 'none'}), printed ${truth.lines.join(' / ')}`);
        if (!valid && SHOW_FAILURES) {
          console.log(`not valid: ${format} ${name} holder ${label} ${mrzPrint.face} ${mrz?.lines.join(' / ')} ${mrz?.invalidFields.join(',')}, printed ${truth.lines.join(' / ')}`);
        }
        if (SHOW_FAILURES && (!exact || outcome.review)) for (const read of bandReads) console.log(`  OCR ${read}`);
        if (SHOW_FAILURES && genuine && doubts.some((d) => d.endsWith(':documentNumber') && !d.startsWith('confirmed:'))) {
          console.log(`  number not confirmed by print: ${mrz!.documentNumber} read nearest as ${nearestPrintedRun(genuine.printed, mrz!.documentNumber ?? '')}`);
        }
        if (SHOW_FAILURES && confirmed.length > 0) console.log(`confirmed by print: ${correct ? 'correct' : 'WRONG'} ${format} ${name} holder ${label} ${mrzPrint.face} ${confirmed.join(',')}${outcome.review ? ` (still in review: ${reviewReasons.join(',')})` : ''}`);
        if (MRZ_ONLY) return;
        if (genuine) visual.push({ format, degradation: name, tampered: null, ...genuine });
        const forgedDocument = await decodeImage('documentImage', await degrade(forged!, noiseRandomFor(format, name, reading)));
        // Read as a check reads it (round 23): with two documents in the photo, the applicant's is chosen by the
        // claimed name and its own page compared; until round 23 the eval read the twin with readMrzFromImage and the
        // page around the lowest MRZ, whichever document that was.
        const forgedRead: { mrz: MrzReading | null; pageRegion?: Region | null } = await readApplicantMrz(forgedDocument.pixels, ocr, NOW, claimed, undefined, forgedDocument);
        const forgery = await visualZone(forgedDocument, forgedRead.mrz, ocr, forgedRead.pageRegion);
        if (forgery) visual.push({ format, degradation: name, tampered: tampering, ...forgery });
        const falseMismatches = VISUAL_FIELDS.filter((field) => genuine?.comparison[field] === 'mismatch');
        if (falseMismatches.length > 0) console.log(`false visual-zone mismatch: ${format} ${name} ${falseMismatches.join(',')} (${dateStyle}, ${holder.surname})`);
        if (forgery && forgery.comparison[tampering] !== 'mismatch' && SHOW_FAILURES) {
          console.log(`tampered ${tampering} not found: ${format} ${name} read ${forgery.comparison[tampering]} (${dateStyle}; printed ${printed[tampering]} for ${holder[tampering]})`);
        }
      };
      let reading = 0;
      for (const [name, degrade] of Object.entries(DEGRADATIONS)) {
        for (let n = 0; n < PER_CELL; n++, reading++) {
          if (ONLY && !ONLY.has(name)) continue;
          holdersRead.set(format, (holdersRead.get(format) ?? new Set()).add(reading % HOLDERS));
          await measure(name, degrade, holders[reading % HOLDERS]!, reading, String(reading % HOLDERS));
        }
      }
      smallCells.push(async () => {
        for (const [name, degrade] of Object.entries(SMALL_DEGRADATIONS)) {
          for (let n = 0; n < PER_CELL; n++) {
            if (ONLY && !ONLY.has(name)) continue;
            // Drawn from the reading's own generator: the holders above and their print stay as before round 21.
            const own = holderRandomFor(format, name, n);
            const holder = randomHolder(own);
            const tampering = TAMPERINGS[(MRZ_FORMATS.indexOf(format) + n) % TAMPERINGS.length]!;
            const entry: Entry = {
              holder,
              dateStyle: DATE_STYLES[Math.floor(own() * DATE_STYLES.length)]!,
              tampering,
              printed: tampered(holder, tampering, own),
              mrzPrint: randomPrint(own),
              pages: null,
            };
            await measure(name, degrade, entry, n, `${name}#${n}`);
          }
        }
        for (const name of ROUND_22_CELLS) {
          for (let n = 0; n < PER_CELL; n++) {
            if (ONLY && !ONLY.has(name)) continue;
            const own = holderRandomFor(format, name, n);
            const holder = randomHolder(own);
            const entry: Entry = {
              holder,
              dateStyle: DATE_STYLES[Math.floor(own() * DATE_STYLES.length)]!,
              tampering: TAMPERINGS[(MRZ_FORMATS.indexOf(format) + n) % TAMPERINGS.length]!,
              printed: holder,
              mrzPrint: randomPrint(own),
              pages: null,
            };
            entry.printed = tampered(holder, entry.tampering, own);
            let degrade: Degrade = (png, noise) => smallInFrame(png, noise, noise() < 0.5 ? 90 : 270);
            if (name === TWO_DOCUMENTS_CELL) {
              const otherPage = await otherHoldersPage(holder, entry.dateStyle, own);
              degrade = (png, noise) => twoInFrame(png, otherPage, noise);
            }
            await measure(name, degrade, entry, n, `${name}#${n}`);
          }
        }
        for (const name of ROUND_23_CELLS) {
          for (let n = 0; n < PER_CELL; n++) {
            if (ONLY && !ONLY.has(name)) continue;
            const own = holderRandomFor(format, name, n);
            const holder = randomHolder(own);
            const dateStyle = DATE_STYLES[Math.floor(own() * DATE_STYLES.length)]!;
            const tampering = name === IMPOSSIBLE_DATE_CELL ? 'birthDate' : TAMPERINGS[(MRZ_FORMATS.indexOf(format) + n) % TAMPERINGS.length]!;
            const printed = name === IMPOSSIBLE_DATE_CELL ? impossibleBirthDate(holder, dateStyle === 'dotted' || dateStyle === 'slashed', own) : tampered(holder, tampering, own);
            const entry: Entry = { holder, dateStyle, tampering, printed, mrzPrint: randomPrint(own), pages: null };
            let degrade: Degrade = DEGRADATIONS.clean!;
            if (name === STACKED_CELL) {
              const otherPage = await otherHoldersPage(holder, dateStyle, own);
              degrade = (png, noise) => stackedInFrame(png, otherPage, noise);
            }
            await measure(name, degrade, entry, n, `${name}#${n}`);
          }
        }
      });
    }
    // After every cell above, so that they read in the order (and tesseract state) they did before round 21.
    for (const cells of smallCells) await cells();
  } finally {
    await engine.close();
  }
  const holdersEach = Math.max(0, ...[...holdersRead.values()].map((read) => read.size));
  const degradations = [...[...Object.keys(DEGRADATIONS), ...Object.keys(SMALL_DEGRADATIONS), ...ROUND_22_CELLS, ...ROUND_23_CELLS].filter((d) => !ONLY || ONLY.has(d)), '*'];
  const smallRead = results.has('*|small') ? ' (small-document cells: a holder of its own per reading)' : '';
  console.log(`\nValid and correct MRZ per format × degradation, ${PER_CELL} readings per cell, ${holdersEach} holders per format${smallRead}`);
  console.log(['format', ...degradations.map((d) => (d === '*' ? 'all' : d))].join(' | '));
  for (const format of [...MRZ_FORMATS, '*']) {
    const cells = degradations.map((d) => pct(results.get(`${format}|${d}`) ?? [], 'correct'));
    console.log([format === '*' ? 'all' : format, ...cells].join(' | '));
  }
  const summary = (label: string, outcomes: Outcome[]) => {
    const ms = outcomes.map((o) => o.ms);
    const latency = `${Math.round(percentile(ms, 50))} ms / ${Math.round(percentile(ms, 95))} ms`;
    const wrong = outcomes.filter((o) => o.valid && !o.correct);
    const plainlyWrong = wrong.filter((o) => !o.review).length;
    console.log(`${label} (${outcomes.length} readings): ${pct(outcomes, 'valid')} / ${pct(outcomes, 'correct')} / ${pct(outcomes, 'exact')} / ${pct(outcomes, 'review')} / ${wrong.length} / ${plainlyWrong} / ${latency}`);
  };
  const columns = 'valid / correct / every field as printed (names, states, optional data too) / in review (check-digit repair or uncertain character) / valid but wrong (readings) / of which plain passes / latency p50 / p95';
  console.log(`\nper format (${holdersEach} holders each): ${columns}`);
  for (const format of MRZ_FORMATS) if (results.has(`${format}|*`)) summary(format, results.get(`${format}|*`)!);
  if (results.has('*|small')) {
    console.log(`\nper format, small-document cells only (round 21): ${columns}`);
    for (const format of [...MRZ_FORMATS, '*']) if (results.has(`${format}|small`)) summary(format === '*' ? 'all' : format, results.get(`${format}|small`)!);
  }
  if (results.has('*|round 22')) {
    console.log(`\nper format, round-22 cells only (a small document turned a quarter, two documents in one photo): ${columns}`);
    for (const format of [...MRZ_FORMATS, '*']) if (results.has(`${format}|round 22`)) summary(format === '*' ? 'all' : format, results.get(`${format}|round 22`)!);
  }
  if (results.has('*|round 23')) {
    console.log(`\nper format, round-23 cells only (two documents stacked, an impossible printed birth date): ${columns}`);
    for (const format of [...MRZ_FORMATS, '*']) if (results.has(`${format}|round 23`)) summary(format === '*' ? 'all' : format, results.get(`${format}|round 23`)!);
  }
  console.log(`\nper format and MRZ face: ${columns}`);
  for (const format of MRZ_FORMATS) for (const face of Object.keys(MRZ_FACES)) if (results.has(`${format} ${face}|*`)) summary(`${format} ${face}`, results.get(`${format} ${face}|*`)!);
  for (const face of Object.keys(MRZ_FACES)) if (results.has(`${face}|*`)) summary(face, results.get(`${face}|*`)!);
  console.log(`\nper degradation: ${columns}`);
  for (const d of degradations) summary(d === '*' ? 'all' : d, results.get(`*|${d}`) ?? []);
  reviewSummary(results.get('*|*') ?? []);
  if (!MRZ_ONLY) visualSummary(visual);
}

/**
 * Readings in review, counted by each reason they carry (a reading with two reasons counts under both), with the
 * share of all readings that reason alone sends to review and how many of them were correct (review that costs).
 */
function reviewSummary(outcomes: Outcome[]): void {
  const inReview = outcomes.filter((o) => o.review);
  const counts = new Map<string, { all: number; correct: number; alone: number }>();
  for (const o of inReview) {
    const reasons = new Set(o.reviewReasons);
    for (const reason of reasons) {
      const count = counts.get(reason) ?? { all: 0, correct: 0, alone: 0 };
      counts.set(reason, { all: count.all + 1, correct: count.correct + (o.correct ? 1 : 0), alone: count.alone + (reasons.size === 1 ? 1 : 0) });
    }
  }
  const correct = inReview.filter((o) => o.correct).length;
  const unconfirmed = outcomes.filter((o) => o.reviewUnconfirmed);
  const released = unconfirmed.filter((o) => !o.review);
  console.log(
    `\nround 27: in review with no print confirmation ${unconfirmed.length} of ${outcomes.length} (${share(unconfirmed.length, outcomes.length)}), ` +
      `${released.length} of them passed by print (${released.filter((o) => o.correct).length} correct, ${released.filter((o) => !o.correct).length} wrong); ` +
      `readings with a confirmation ${outcomes.filter((o) => o.confirmed.length > 0).length}`,
  );
  console.log(`readings in review: ${inReview.length} of ${outcomes.length} (${correct} correct); by reason: readings (share of all) / correct / with no other reason`);
  for (const [reason, count] of [...counts].sort((a, b) => b[1].all - a[1].all)) {
    console.log(`  ${reason}: ${count.all} (${share(count.all, outcomes.length)}) / ${count.correct} / ${count.alone}`);
  }
}

const share = (count: number, total: number) => (total === 0 ? '–' : `${Math.round((100 * count) / total)} %`);

function visualSummary(visual: VisualOutcome[]): void {
  const genuine = visual.filter((v) => !v.tampered);
  const forged = visual.filter((v) => v.tampered);
  const formats = [...MRZ_FORMATS.filter((f) => genuine.some((v) => v.format === f)), '*'];
  const inFormat = (list: VisualOutcome[], format: string) => list.filter((v) => format === '*' || v.format === format);
  console.log(`\nVisual zone on genuine pages with a valid MRZ (${genuine.length}): share read as matching the MRZ`);
  console.log(['format', ...VISUAL_FIELDS, 'false mismatches'].join(' | '));
  for (const format of formats) {
    const list = inFormat(genuine, format);
    const cells = VISUAL_FIELDS.map((field) => share(list.filter((v) => v.comparison[field] === 'match').length, list.length));
    const falseMismatches = list.filter((v) => VISUAL_FIELDS.some((field) => v.comparison[field] === 'mismatch')).length;
    console.log([format === '*' ? 'all' : format, ...cells, `${falseMismatches} of ${list.length}`].join(' | '));
  }
  console.log('\nper degradation, genuine pages: share of fields read as matching / pages with a false mismatch');
  for (const d of [...new Set(genuine.map((v) => v.degradation))]) {
    const list = genuine.filter((v) => v.degradation === d);
    const matches = list.reduce((sum, v) => sum + VISUAL_FIELDS.filter((field) => v.comparison[field] === 'match').length, 0);
    const falseMismatches = list.filter((v) => VISUAL_FIELDS.some((field) => v.comparison[field] === 'mismatch')).length;
    console.log(`${d}: ${share(matches, list.length * VISUAL_FIELDS.length)} / ${falseMismatches} of ${list.length}`);
  }
  console.log(`\nTampered pages with a valid MRZ (${forged.length}): the changed field read as a mismatch (any field flagged)`);
  console.log(['format', ...TAMPERINGS, 'all'].join(' | '));
  for (const format of formats) {
    const list = inFormat(forged, format);
    const cell = (subset: VisualOutcome[]) => {
      const found = subset.filter((v) => v.comparison[v.tampered!] === 'mismatch').length;
      const flagged = subset.filter((v) => VISUAL_FIELDS.some((field) => v.comparison[field] === 'mismatch')).length;
      return `${share(found, subset.length)} (${share(flagged, subset.length)}) of ${subset.length}`;
    };
    console.log([format === '*' ? 'all' : format, ...TAMPERINGS.map((t) => cell(list.filter((v) => v.tampered === t))), cell(list)].join(' | '));
  }
  // Round 23: per degradation, tampered pages flagged, and what a lower word gate (doubtful reads counted) and a
  // page reading nothing would flag, on genuine and tampered pages alike.
  const flagged = (v: VisualOutcome, comparison = v.comparison) => VISUAL_FIELDS.some((field) => comparison[field] === 'mismatch');
  const nothingRead = (v: VisualOutcome) => VISUAL_FIELDS.every((field) => v.comparison[field] === 'unread');
  console.log(`\nper degradation (round 23): tampered pages, changed field a mismatch (any field) / at word gate ${DOUBTFUL_GATE} / every field unread; genuine pages: any mismatch / at word gate ${DOUBTFUL_GATE} / every field unread`);
  for (const d of [...new Set(visual.map((v) => v.degradation))]) {
    const twins = forged.filter((v) => v.degradation === d);
    const pages = genuine.filter((v) => v.degradation === d);
    const found = twins.filter((v) => v.comparison[v.tampered!] === 'mismatch').length;
    const foundLow = twins.filter((v) => v.doubtful[v.tampered!] === 'mismatch').length;
    console.log(
      `${d}: tampered ${found} (${twins.filter((v) => flagged(v)).length}) / ${foundLow} (${twins.filter((v) => flagged(v, v.doubtful)).length}) / ${twins.filter(nothingRead).length} of ${twins.length}; ` +
        `genuine ${pages.filter((v) => flagged(v)).length} / ${pages.filter((v) => flagged(v, v.doubtful)).length} / ${pages.filter(nothingRead).length} of ${pages.length}`,
    );
  }
  const all = (list: VisualOutcome[], test: (v: VisualOutcome) => boolean) => `${list.filter(test).length} of ${list.length}`;
  console.log(
    `all: tampered changed field ${all(forged, (v) => v.comparison[v.tampered!] === 'mismatch')} (any ${all(forged, (v) => flagged(v))}), at gate ${DOUBTFUL_GATE} ${all(forged, (v) => v.doubtful[v.tampered!] === 'mismatch')} (any ${all(forged, (v) => flagged(v, v.doubtful))}); ` +
      `genuine false ${all(genuine, (v) => flagged(v))}, at gate ${DOUBTFUL_GATE} ${all(genuine, (v) => flagged(v, v.doubtful))}; every field unread: genuine ${all(genuine, nothingRead)}, tampered ${all(forged, nothingRead)}`,
  );
  const passing = (list: VisualOutcome[], key: 'unconfirmed' | 'confirmed') => list.filter((v) => v.passes[key]).length;
  console.log(
    `round 27: pages whose reading passes the document check on the MRZ and the visual zone, before / after print confirmation: ` +
      `genuine ${passing(genuine, 'unconfirmed')} / ${passing(genuine, 'confirmed')} of ${genuine.length}, tampered ${passing(forged, 'unconfirmed')} / ${passing(forged, 'confirmed')} of ${forged.length}`,
  );
  for (const d of [...new Set(forged.map((v) => v.degradation))]) {
    const twins = forged.filter((v) => v.degradation === d);
    if (passing(twins, 'confirmed') > passing(twins, 'unconfirmed')) console.log(`  tampered passing more: ${d} ${passing(twins, 'unconfirmed')} → ${passing(twins, 'confirmed')} of ${twins.length}`);
  }
  const ms = visual.map((v) => v.ms);
  console.log(`\nvisual-zone step latency (turn, band, one OCR pass, comparison): p50 ${Math.round(percentile(ms, 50))} ms, p95 ${Math.round(percentile(ms, 95))} ms`);
}

await main();
