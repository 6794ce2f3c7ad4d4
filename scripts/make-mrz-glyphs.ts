// The MRZ glyph templates of src/kyc/mrz-glyphs.json (round 24, issue #14): every character of the MRZ alphabet in
// OCR-B (Debian fonts-ocr-b: Matthew Skala's OCR-B, public domain; Norbert Schwarz's metafont sources it is built
// from, "you may freely use, modify and/or distribute") and DejaVu Sans Mono (free licence), cut from one rendered
// line at its pitch exactly as mrz-pitch.ts cuts a read line (src/kyc/mrz-glyph-cell.ts, which does not import the
// file built here), and scaled to the template size. Rerun when the alphabet, the template size or the cut changes
// (byte for byte the same file otherwise):  node --import tsx scripts/make-mrz-glyphs.ts
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { GLYPH_ALPHABET, GLYPH_HEIGHT, GLYPH_WIDTH, inkBox, sampleCell, type Grey } from '../src/kyc/mrz-glyph-cell.ts';
import { MRZ_FACES, textImage } from './make-kyc-specimen.ts';

async function grey(png: Buffer): Promise<Grey> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const faces: Record<string, string> = {};
for (const [name, face] of Object.entries(MRZ_FACES)) {
  const line = await grey(await textImage(GLYPH_ALPHABET, face.file, `${face.family} 60`, '#000000'));
  const box = inkBox(line);
  const pitch = (box.x1 - box.x0) / GLYPH_ALPHABET.length;
  const bytes = [...GLYPH_ALPHABET].flatMap((_, k) => [...sampleCell(line, box.x0 + k * pitch, box.y0, box.x0 + (k + 1) * pitch, box.y1)].map((ink) => Math.round(ink)));
  faces[name] = Buffer.from(bytes).toString('base64');
}
const out = path.join(import.meta.dirname, '../src/kyc/mrz-glyphs.json');
await writeFile(out, `${JSON.stringify({ alphabet: GLYPH_ALPHABET, width: GLYPH_WIDTH, height: GLYPH_HEIGHT, faces }, null, 2)}\n`);
console.log(`wrote ${out}`);
