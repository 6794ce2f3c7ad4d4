// Generates the KYC specimen (examples/kyc/): a passport-like data page carrying the public-domain NASA portrait
// /work/shared/data/faces/astronaut.png and a valid TD3 MRZ, a selfie of the same person (cropped and re-lit),
// and request.json. The render functions are exported so tests can make variants (bad check digit, expired,
// other name) exactly the same way.
//   npx tsx scripts/make-kyc-specimen.ts [portrait.png]
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { mrzCheckDigit } from '../src/kyc/mrz.ts';

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const MONO_FONT = path.join(FONT_DIR, 'DejaVuSansMono.ttf');
export const SANS_FONT = path.join(FONT_DIR, 'DejaVuSans.ttf');
export const SANS_BOLD_FONT = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
/** Real MRZs are printed in OCR-B (ICAO 9303 part 3); Debian's fonts-ocr-b is Matthew Skala's public-domain one. */
export const OCR_B_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

/** The MRZ's typefaces, with their advance per character in em (measured on a rendered 44-character line). */
export const MRZ_FACES = {
  ocrb: { file: OCR_B_FONT, family: 'OCR B', advance: 0.727 },
  dejavu: { file: MONO_FONT, family: 'DejaVu Sans Mono', advance: 0.602 },
} as const;
export type MrzFace = keyof typeof MRZ_FACES;

/** How an MRZ is printed: its face, its line width as a share of the layout's, and extra letter spacing in em. */
export interface MrzPrint {
  face: MrzFace;
  size: number;
  spacing: number;
}

/** The print every render used before OCR-B (tests and the examples keep it; they need no extra font). */
export const DEJAVU_PRINT: MrzPrint = { face: 'dejavu', size: 1, spacing: 0 };

function mrzFont(print: MrzPrint): (typeof MRZ_FACES)[MrzFace] {
  const face = MRZ_FACES[print.face];
  if (!existsSync(face.file)) throw new Error(`MRZ font ${face.file} is missing: apt-get install -y fonts-ocr-b`);
  return face;
}

/**
 * One MRZ line as PNG, as wide as DejaVu Sans Mono at `dejavuPx` would print it, times `print.size`: another face or
 * letter spacing changes the font size, not the layout.
 */
async function mrzLineImage(line: string, dejavuPx: number, print: MrzPrint): Promise<Buffer> {
  const face = mrzFont(print);
  const px = Math.round((dejavuPx * print.size * MRZ_FACES.dejavu.advance) / (face.advance + print.spacing));
  return textImage(line, face.file, `${face.family} ${px}`, '#000000', Math.round(print.spacing * px * 1024));
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_PORTRAIT = path.resolve(ROOT, '../shared/data/faces/astronaut.png');

export { mrzCheckDigit };

export interface PassportHolder {
  surname: string;
  givenNames: string;
  /** ISO 3166-1 alpha-3 */
  issuingState: string;
  nationality: string;
  documentNumber: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'F' | 'M' | '<';
  /** YYMMDD */
  expiryDate: string;
  personalNumber: string;
}

export const SPECIMEN_HOLDER: PassportHolder = {
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  issuingState: 'SWE',
  nationality: 'SWE',
  documentNumber: 'XA4186275',
  birthDate: '740812',
  sex: 'F',
  expiryDate: '340315',
  personalNumber: '',
};

function mrzField(value: string, length: number): string {
  return value.toUpperCase().replace(/[^A-Z0-9]+/g, '<').padEnd(length, '<').slice(0, length);
}

export function composeTd3(h: PassportHolder): [string, string] {
  const nameParts = [h.surname, h.givenNames].map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, '<'));
  const name = nameParts.join('<<').padEnd(39, '<').slice(0, 39);
  const line1 = `P<${h.issuingState}${name}`;
  const docNumber = mrzField(h.documentNumber, 9);
  const personal = mrzField(h.personalNumber, 14);
  const personalCheck = h.personalNumber ? mrzCheckDigit(personal) : '<';
  const body =
    docNumber + mrzCheckDigit(docNumber) + h.nationality +
    h.birthDate + mrzCheckDigit(h.birthDate) + h.sex +
    h.expiryDate + mrzCheckDigit(h.expiryDate) + personal + personalCheck;
  const composite =
    docNumber + mrzCheckDigit(docNumber) + h.birthDate + mrzCheckDigit(h.birthDate) +
    h.expiryDate + mrzCheckDigit(h.expiryDate) + personal + personalCheck;
  return [line1, body + mrzCheckDigit(composite)];
}

/** ICAO 9303 TD1 (identity card, 3 × 30). */
export function composeTd1(h: PassportHolder, documentCode = 'I<'): [string, string, string] {
  const documentNumber = mrzField(h.documentNumber, 9);
  const line1 = `${documentCode}${h.issuingState}${documentNumber}${mrzCheckDigit(documentNumber)}${mrzField(h.personalNumber, 15)}`;
  const birth = h.birthDate + mrzCheckDigit(h.birthDate);
  const expiry = h.expiryDate + mrzCheckDigit(h.expiryDate);
  const optional2 = mrzField('', 11);
  const composite = mrzCheckDigit(line1.slice(5, 30) + birth + expiry + optional2);
  return [line1, `${birth}${h.sex}${expiry}${h.nationality}${optional2}${composite}`, mrzName(h, 30)];
}

function mrzName(h: PassportHolder, length: number): string {
  return [h.surname, h.givenNames].map((part) => part.toUpperCase().replace(/[^A-Z]+/g, '<')).join('<<').padEnd(length, '<').slice(0, length);
}

/** Line 2 of TD2 and the visas: number, nationality, birth, sex, expiry, then `optional` characters. */
function dataLine(h: PassportHolder, optional: number): string {
  const documentNumber = mrzField(h.documentNumber, 9);
  return (
    documentNumber + mrzCheckDigit(documentNumber) + h.nationality + h.birthDate + mrzCheckDigit(h.birthDate) + h.sex +
    h.expiryDate + mrzCheckDigit(h.expiryDate) + mrzField(h.personalNumber, optional)
  );
}

export const MRZ_FORMATS = ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB', 'FRA_ID'] as const;
export type SpecimenFormat = (typeof MRZ_FORMATS)[number];

/** The MRZ lines of a document of `format` for the holder (French ID: number YYMM + department + serial). */
export function composeMrz(format: SpecimenFormat, h: PassportHolder): string[] {
  switch (format) {
    case 'TD3':
      return composeTd3(h);
    case 'TD1':
      return composeTd1(h);
    case 'TD2': {
      const line2 = dataLine(h, 7);
      const composite = mrzCheckDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 35));
      return [`I<${h.issuingState}${mrzName(h, 31)}`, line2 + composite];
    }
    case 'MRVA':
      return [`V<${h.issuingState}${mrzName(h, 39)}`, dataLine(h, 16)];
    case 'MRVB':
      return [`V<${h.issuingState}${mrzName(h, 31)}`, dataLine(h, 8)];
    case 'FRA_ID': {
      const line1 = `IDFRA${mrzField(h.surname, 25)}932013`;
      const issued = String((Number(h.expiryDate.slice(0, 2)) + 85) % 100).padStart(2, '0') + h.expiryDate.slice(2, 4);
      const documentNumber = `${issued}932${h.documentNumber.replace(/\D/g, '').padEnd(5, '0').slice(0, 5)}`;
      const start = `${documentNumber}${mrzCheckDigit(documentNumber)}${mrzField(h.givenNames.replace(/ /g, '  '), 14)}`;
      const rest = `${h.birthDate}${mrzCheckDigit(h.birthDate)}${h.sex}`;
      return [line1, start + rest + mrzCheckDigit(line1 + start + rest)];
    }
  }
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const FRENCH_MONTHS = ['JANV', 'FÉVR', 'MARS', 'AVR', 'MAI', 'JUIN', 'JUIL', 'AOÛT', 'SEPT', 'OCT', 'NOV', 'DÉC'];

/** How a document prints its dates: `12 AUG 1974`, `12 AUG/AOÛT 1974`, `12.08.1974`, `12/08/74`. */
export const DATE_STYLES = ['month', 'bilingual', 'dotted', 'slashed'] as const;
export type DateStyle = (typeof DATE_STYLES)[number];

export function printedDate(yymmdd: string, century: number, style: DateStyle = 'month'): string {
  const [yy, mm, dd] = [yymmdd.slice(0, 2), yymmdd.slice(2, 4), yymmdd.slice(4, 6)];
  const month = Number(mm) - 1;
  switch (style) {
    case 'month':
      return `${dd} ${MONTHS[month] ?? '???'} ${century}${yy}`;
    case 'bilingual':
      return `${dd} ${MONTHS[month] ?? '???'}/${FRENCH_MONTHS[month] ?? '???'} ${century}${yy}`;
    case 'dotted':
      return `${dd}.${mm}.${century}${yy}`;
    case 'slashed':
      return `${dd}/${mm}/${yy}`;
  }
}

/** `letterSpacing`: extra space between characters in 1/1024 pt (pango's unit; a point is a pixel at 72 dpi). */
export async function textImage(text: string, fontfile: string, font: string, colour = '#1b1b2f', letterSpacing = 0): Promise<Buffer> {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const spacing = letterSpacing ? ` letter_spacing="${letterSpacing}"` : '';
  return sharp({ text: { text: `<span foreground="${colour}"${spacing}>${escaped}</span>`, fontfile, font, rgba: true, dpi: 72 } })
    .png()
    .toBuffer();
}

const CARD_WIDTH = 1250;
const CARD_HEIGHT = 880; // ID-3 proportions (125 × 88 mm)

function guillocheSvg(width = CARD_WIDTH, height = CARD_HEIGHT, mrzHeight = 200): Buffer {
  const waves: string[] = [];
  for (let k = 0; k < Math.floor((height - mrzHeight - 120) / 18); k++) {
    const y0 = 120 + k * 18;
    let d = `M 0 ${y0}`;
    for (let x = 0; x <= width; x += 25) d += ` L ${x} ${(y0 + 9 * Math.sin(x / 45 + k * 0.7)).toFixed(1)}`;
    waves.push(`<path d="${d}" stroke="#b9cfe0" stroke-width="1.2" fill="none"/>`);
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#eaf2f8"/><stop offset="1" stop-color="#f6efe4"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#bg)"/>
      ${waves.join('')}
      <rect x="0" y="0" width="${width}" height="92" fill="#23395d"/>
      <rect x="0" y="${height - mrzHeight}" width="${width}" height="${mrzHeight}" fill="#f4f2ec"/>
    </svg>`,
  );
}

export interface PassportRenderOptions {
  holder?: PassportHolder;
  /** Overrides the MRZ lines composed from the holder (e.g. to corrupt a check digit). */
  mrz?: [string, string];
  portrait?: Buffer;
  /** Century printed in the visual zone's dates (the MRZ has two-digit years). */
  century?: { birth: number; expiry: number };
  /** A visa sticker (MRV-A) is printed like the passport page it is glued on, under its own title and type. */
  visa?: boolean;
  dateStyle?: DateStyle;
  mrzPrint?: MrzPrint;
}

/** A passport data page as PNG. */
export async function renderPassport(options: PassportRenderOptions = {}): Promise<Buffer> {
  const holder = options.holder ?? SPECIMEN_HOLDER;
  const [line1, line2] = options.mrz ?? composeTd3(holder);
  const portraitSource = options.portrait ?? (await readFile(DEFAULT_PORTRAIT));
  const portrait = await sharp(portraitSource)
    .extract({ left: 110, top: 10, width: 240, height: 300 })
    .resize(330, 412)
    .modulate({ saturation: 0.8 })
    .png()
    .toBuffer();
  const century = options.century ?? { birth: 19, expiry: 20 };
  const field = async (label: string, value: string, left: number, top: number) => [
    { input: await textImage(label, SANS_FONT, 'DejaVu Sans 15', '#4a5a70'), left, top },
    { input: await textImage(value, SANS_BOLD_FONT, 'DejaVu Sans Bold 25'), left, top: top + 22 },
  ];
  const layers = [
    { input: guillocheSvg(), left: 0, top: 0 },
    { input: await textImage(`${options.visa ? 'VISA' : 'PASSPORT  ·  PASS'}  ·  SPECIMEN`, SANS_BOLD_FONT, 'DejaVu Sans Bold 34', '#ffffff'), left: 40, top: 24 },
    { input: portrait, left: 48, top: 130 },
    ...(await field('Type / Typ', options.visa ? 'V' : 'P', 430, 120)),
    ...(await field('Code / Kod', holder.issuingState, 600, 120)),
    ...(await field(options.visa ? 'Visa No. / Visumnummer' : 'Passport No. / Passnummer', holder.documentNumber, 820, 120)),
    ...(await field('Surname / Efternamn', holder.surname, 430, 195)),
    ...(await field('Given names / Förnamn', holder.givenNames, 430, 270)),
    ...(await field('Nationality / Nationalitet', holder.nationality, 430, 345)),
    ...(await field('Date of birth / Födelsedatum', printedDate(holder.birthDate, century.birth, options.dateStyle), 430, 420)),
    ...(await field('Sex / Kön', holder.sex, 900, 420)),
    ...(await field('Date of expiry / Giltig till', printedDate(holder.expiryDate, century.expiry, options.dateStyle), 430, 495)),
    ...(await field('Authority / Myndighet', 'SPECIMEN AUTHORITY', 430, 570)),
    { input: await mrzLineImage(line1, 41, options.mrzPrint ?? DEJAVU_PRINT), left: 38, top: CARD_HEIGHT - 170 },
    { input: await mrzLineImage(line2, 41, options.mrzPrint ?? DEJAVU_PRINT), left: 38, top: CARD_HEIGHT - 95 },
  ];
  return sharp({ create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png()
    .toBuffer();
}

export interface DocumentRenderOptions {
  portrait?: Buffer;
  /** What the visual zone prints, when it is not the holder the MRZ is composed for (a tampered page). */
  printed?: PassportHolder;
  dateStyle?: DateStyle;
  mrzPrint?: MrzPrint;
}

/**
 * A document of any MRZ format as PNG: the passport page for TD3 and MRV-A, otherwise a card (ID-1 for TD1, ID-2
 * for the 36-character formats) with background print, the portrait, the visual zone (labelled name, number, sex,
 * dates) and the MRZ. The visual zone prints `printed` when given, the MRZ always `holder`.
 */
export async function renderDocument(format: SpecimenFormat, holder: PassportHolder, options: DocumentRenderOptions = {}): Promise<Buffer> {
  const lines = composeMrz(format, holder);
  const shown = options.printed ?? holder;
  if (lines[0]!.length === 44) {
    return renderPassport({
      holder: shown, mrz: lines as [string, string], portrait: options.portrait, visa: format === 'MRVA', dateStyle: options.dateStyle, mrzPrint: options.mrzPrint,
    });
  }
  const width = format === 'TD1' ? 1012 : 1100;
  const height = Math.round(width * (format === 'TD1' ? 0.63 : 0.7));
  const fontPx = Math.floor((0.88 * width) / (lines[0]!.length * MRZ_FACES.dejavu.advance));
  const lineStep = Math.round(fontPx * 1.4);
  const mrzHeight = lineStep * lines.length + 20;
  const portrait = await sharp(options.portrait ?? (await readFile(DEFAULT_PORTRAIT)))
    .extract({ left: 110, top: 10, width: 240, height: 300 })
    .resize(200, 250)
    .png()
    .toBuffer();
  const title = format.startsWith('MRV') ? 'VISA  ·  SPECIMEN' : 'IDENTITY CARD  ·  SPECIMEN';
  // The French card's number is the MRZ's own (issue month, department, serial), not the holder's.
  const number = format === 'FRA_ID' ? composeMrz(format, shown)[1]!.slice(0, 12) : shown.documentNumber;
  const rowStep = Math.min(80, Math.floor((height - mrzHeight - 110) / 4.6));
  const field = async (label: string, value: string, left: number, row: number) => [
    { input: await textImage(label, SANS_FONT, 'DejaVu Sans 14', '#4a5a70'), left, top: 105 + row * rowStep },
    { input: await textImage(value, SANS_BOLD_FONT, 'DejaVu Sans Bold 24'), left, top: 105 + row * rowStep + 20 },
  ];
  const numberLabel = format.startsWith('MRV') ? 'Visa No. / N° du visa' : 'Document No. / N° du document';
  const layers = [
    { input: guillocheSvg(width, height, mrzHeight), left: 0, top: 0 },
    { input: await textImage(title, SANS_BOLD_FONT, 'DejaVu Sans Bold 30', '#ffffff'), left: 30, top: 26 },
    { input: portrait, left: 30, top: 110 },
    ...(await field('Surname / Nom', shown.surname, 270, 0)),
    ...(await field('Given names / Prénoms', shown.givenNames, 270, 1)),
    ...(await field(numberLabel, number, 270, 2)),
    ...(await field('Sex / Sexe', shown.sex, Math.round(width * 0.7), 2)),
    ...(await field('Date of birth / Date de naissance', printedDate(shown.birthDate, 19, options.dateStyle), 270, 3)),
    ...(await field("Date of expiry / Date d'expiration", printedDate(shown.expiryDate, 20, options.dateStyle), Math.round(width * 0.62), 3)),
    ...(await Promise.all(
      lines.map(async (line, k) => ({
        input: await mrzLineImage(line, fontPx, options.mrzPrint ?? DEJAVU_PRINT),
        left: Math.round(0.04 * width),
        top: height - mrzHeight + 10 + k * lineStep,
      })),
    )),
  ];
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite(layers).png().toBuffer();
}

/** The same person as on the specimen page: a tighter crop, re-lit warmer and brighter, as a phone selfie. */
export async function renderSelfie(portraitSource?: Buffer): Promise<Buffer> {
  return sharp(portraitSource ?? (await readFile(DEFAULT_PORTRAIT)))
    .extract({ left: 96, top: 0, width: 320, height: 400 })
    .resize(600, 750)
    .modulate({ brightness: 1.12, saturation: 1.1 })
    .linear(1.05, 4)
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function main(): Promise<void> {
  const portrait = await readFile(process.argv[2] ?? DEFAULT_PORTRAIT);
  const outDir = path.join(ROOT, 'examples/kyc');
  await mkdir(outDir, { recursive: true });
  const passport = await sharp(await renderPassport({ portrait })).jpeg({ quality: 90 }).toBuffer();
  const selfie = await renderSelfie(portrait);
  await writeFile(path.join(outDir, 'passport.jpg'), passport);
  await writeFile(path.join(outDir, 'selfie.jpg'), selfie);
  const request = {
    documentType: 'passport',
    documentImage: `data:image/jpeg;base64,${passport.toString('base64')}`,
    selfieImage: `data:image/jpeg;base64,${selfie.toString('base64')}`,
    metadata: { firstName: 'Anna Maria', lastName: 'Eriksson', reference: 'specimen-0001', source: 'examples/kyc' },
    amlScreening: true,
  };
  await writeFile(path.join(outDir, 'request.json'), JSON.stringify(request, null, 2) + '\n');
  console.log(`passport.jpg ${passport.length} B, selfie.jpg ${selfie.length} B, MRZ:\n${composeTd3(SPECIMEN_HOLDER).join('\n')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
