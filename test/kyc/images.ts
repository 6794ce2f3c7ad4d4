// Test images, generated on the fly from the public-domain portrait and the specimen renderer.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import {
  DEFAULT_PORTRAIT,
  MONO_FONT,
  SANS_BOLD_FONT,
  SANS_FONT,
  composeTd1,
  renderDocument,
  renderPassport,
  SPECIMEN_HOLDER,
  textImage,
  type PassportHolder,
} from '../../scripts/make-kyc-specimen.ts';
import { decodeImage, type DecodedImage, type RawPixels } from '../../src/kyc/intake.ts';
import type { OcrEngine } from '../../src/kyc/ocr.ts';

export const portrait = () => readFile(DEFAULT_PORTRAIT);

export const jpeg = (png: Buffer) => sharp(png).jpeg({ quality: 90 }).toBuffer();

/** Documents lying on a flat 1024×768 table darker than paper, photographed as a JPEG of `quality`: the decoded photo. */
export async function onTableImage(documents: { input: Buffer; left: number; top: number }[], quality = 85): Promise<DecodedImage> {
  const photo = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#6b5440' } }).composite(documents).jpeg({ quality }).toBuffer();
  return decodeImage('documentImage', photo);
}

/**
 * A 4032×3024 phone photo of a table with the specimen holder's passport on it, 1410 px wide (~35 % of the photo:
 * ~560 px in the 1600 px working copy), turned `angle` degrees, at (left, top): the decoded upload.
 */
export async function passportInLargePhoto(angle: number, left: number, top: number): Promise<DecodedImage> {
  const passport = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 1410 }).rotate(angle, { background: '#6b5440' }).png().toBuffer();
  const photo = await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#6b5440' } })
    .composite([{ input: passport, left, top }])
    .jpeg({ quality: 85 })
    .toBuffer();
  return decodeImage('documentImage', photo);
}

/** onTableImage's pixels. */
export const onTable = async (documents: { input: Buffer; left: number; top: number }[], quality = 85): Promise<RawPixels> =>
  (await onTableImage(documents, quality)).pixels;

/** A textured picture with no face in it: shapes and text, sharp and well lit. */
export async function noFacePicture(): Promise<Buffer> {
  const shapes = Array.from({ length: 40 }, (_, i) => {
    const x = (i * 97) % 560;
    const y = (i * 53) % 700;
    return `<rect x="${x}" y="${y}" width="${40 + (i % 5) * 12}" height="${30 + (i % 7) * 9}" fill="hsl(${(i * 37) % 360},60%,${35 + (i % 4) * 10}%)"/>`;
  }).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="750"><rect width="600" height="750" fill="#c8d8c0"/>${shapes}</svg>`))
    .jpeg()
    .toBuffer();
}

/** Two copies of the portrait's face side by side: a selfie with two people on it. */
export async function twoFacesPicture(): Promise<Buffer> {
  const face = await sharp(await portrait()).extract({ left: 96, top: 0, width: 320, height: 400 }).toBuffer();
  const mirrored = await sharp(face).flop().modulate({ brightness: 0.9 }).toBuffer();
  return sharp({ create: { width: 700, height: 420, channels: 3, background: '#d0d0d0' } })
    .composite([
      { input: face, left: 10, top: 10 },
      { input: mirrored, left: 370, top: 10 },
    ])
    .jpeg()
    .toBuffer();
}

/**
 * Someone else: the largest face crop in a screenshot shipped by @vladmandic/human (assets/screenshot-facedetect.jpg),
 * read in place from node_modules and never copied into the repository. No public-domain portrait of a second
 * person is available offline.
 */
export async function otherPersonSelfie(): Promise<Buffer> {
  const require = createRequire(import.meta.url);
  const assets = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets');
  return sharp(path.join(assets, 'screenshot-facedetect.jpg'))
    .extract({ left: 8, top: 345, width: 150, height: 152 })
    .resize(300, 304, { kernel: 'lanczos3' })
    .sharpen()
    .jpeg({ quality: 92 })
    .toBuffer();
}

export async function withGlare(png: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(png).metadata();
  const glare = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><ellipse cx="${width * 0.62}" cy="${height * 0.4}" rx="${width * 0.2}" ry="${height * 0.22}" fill="#fff"/></svg>`),
  )
    .png()
    .toBuffer();
  return sharp(png).composite([{ input: glare }]).jpeg().toBuffer();
}

/** A shadow across the page, darkest at its left edge (a hand or a phone over a letter). */
export async function withShadow(picture: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(picture).metadata();
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="s" x1="0" x2="1"><stop offset="0" stop-color="#000" stop-opacity="0.55"/><stop offset="0.6" stop-color="#000" stop-opacity="0"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#s)"/></svg>`,
  );
  return sharp(picture).composite([{ input: shade }]).jpeg({ quality: 88 }).toBuffer();
}

interface Line {
  text: string;
  bold?: boolean;
}

/** A white A4-like page with the given lines: a utility bill for proof-of-address tests. */
export async function letterPage(lines: Line[]): Promise<Buffer> {
  const layers = [];
  let top = 90;
  for (const line of lines) {
    layers.push({
      input: await textImage(line.text, line.bold ? SANS_BOLD_FONT : SANS_FONT, line.bold ? 'DejaVu Sans Bold 30' : 'DejaVu Sans 26'),
      left: 90,
      top,
    });
    top += 56;
  }
  return sharp({ create: { width: 1240, height: 1754, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A driving-licence-like card with no MRZ: printed name fields and the portrait. */
export async function licenceCard(surname: string, givenNames: string): Promise<Buffer> {
  const face = await sharp(await portrait()).extract({ left: 110, top: 10, width: 240, height: 300 }).resize(260, 325).toBuffer();
  const field = async (text: string, left: number, top: number, bold = false) => ({
    input: await textImage(text, bold ? SANS_BOLD_FONT : SANS_FONT, bold ? 'DejaVu Sans Bold 30' : 'DejaVu Sans 24'),
    left,
    top,
  });
  return sharp({ create: { width: 1100, height: 700, channels: 3, background: '#f3e6ee' } })
    .composite([
      await field('DRIVING LICENCE  ·  SPECIMEN', 40, 30, true),
      { input: face, left: 40, top: 120 },
      await field(`1. ${surname}`, 360, 140, true),
      await field(`2. ${givenNames}`, 360, 200, true),
      await field('3. 12.08.1974  SWEDEN', 360, 260),
      await field('4a. 01.02.2022   4b. 01.02.2032', 360, 320),
      await field('5. 740812-1234', 360, 380),
      await field('9. AM/B', 360, 440),
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export { composeTd1, renderPassport };

/** An ID-1 identity card with the portrait and a TD1 MRZ on the same side. */
export async function identityCard(holder: PassportHolder): Promise<Buffer> {
  const face = await sharp(await portrait()).extract({ left: 110, top: 10, width: 240, height: 300 }).resize(220, 275).toBuffer();
  const lines = composeTd1(holder);
  const text = async (value: string, fontfile: string, font: string, left: number, top: number) => ({
    input: await textImage(value, fontfile, font),
    left,
    top,
  });
  return sharp({ create: { width: 1012, height: 638, channels: 3, background: '#e4eef2' } })
    .composite([
      await text('IDENTITY CARD  ·  SPECIMEN', SANS_BOLD_FONT, 'DejaVu Sans Bold 28', 30, 22),
      { input: face, left: 30, top: 80 },
      await text(`${holder.surname}`, SANS_BOLD_FONT, 'DejaVu Sans Bold 26', 290, 100),
      await text(`${holder.givenNames}`, SANS_BOLD_FONT, 'DejaVu Sans Bold 26', 290, 150),
      await text(lines[0], MONO_FONT, 'DejaVu Sans Mono 40', 40, 390),
      await text(lines[1], MONO_FONT, 'DejaVu Sans Mono 40', 40, 470),
      await text(lines[2], MONO_FONT, 'DejaVu Sans Mono 40', 40, 550),
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The picture inside black bars on a canvas of the given aspect ratio (a letterboxed frame or a padded phone shot). */
export async function letterboxed(picture: Buffer, width: number, height: number): Promise<Buffer> {
  const inner = await sharp(picture).resize(width, height, { fit: 'inside' }).toBuffer({ resolveWithObject: true });
  const horizontal = width - inner.info.width;
  const vertical = height - inner.info.height;
  return sharp(inner.data)
    .extend({
      left: Math.floor(horizontal / 2),
      right: Math.ceil(horizontal / 2),
      top: Math.floor(vertical / 2),
      bottom: Math.ceil(vertical / 2),
      background: '#000000',
    })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** An OCR engine whose MRZ passes read `linesOf(image)` (each line boxed, no characters), and nothing else. */
export function linesEngine(linesOf: (pixels: RawPixels) => string[]): OcrEngine {
  return {
    readMrzBand: async (pixels) => {
      const lines = linesOf(pixels);
      return { text: lines.join('\n'), lines: lines.map((text, i) => ({ text, box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 10 * text.length, y1: 40 + 40 * i } })) };
    },
    readDigit: async () => null,
    readCharacter: async () => null,
    readText: async () => '',
    readPrintedBand: async () => [],
    close: async () => undefined,
  };
}
